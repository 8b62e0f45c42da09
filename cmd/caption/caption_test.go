package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/captioning"
)

var (
	fixture      = filepath.Join("..", "..", "testdata", "caption")
	fixtureModel = filepath.Join(fixture, "tiny.safetensors")
	fixtureCache = filepath.Join(fixture, "features-7x7.safetensors")
)

func fixtureImage(name string) string { return filepath.Join(fixture, "images", name+".png") }

// runCase runs the tool and returns its exit status and outputs.
func runCase(args []string, stdin []byte) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := cli.ExitCode("caption", run(args, bytes.NewReader(stdin), &stdout, &stderr), &stderr)
	return code, stdout.String(), stderr.String()
}

// cliCase is a run of the tool and what it should do: its exit status,
// and text its standard output and error contain.
type cliCase struct {
	name           string
	args           []string
	code           int
	stdout, stderr string
}

// runCases runs each case as a subtest.
func runCases(t *testing.T, tests []cliCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCase(tc.args, nil)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tc.code, stderr)
			}
			if !strings.Contains(stdout, tc.stdout) {
				t.Errorf("stdout %q lacks %q", stdout, tc.stdout)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tc.stderr)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	cached := []string{"-model", fixtureModel, "-cache", fixtureCache}
	tests := []cliCase{
		{name: "default command", args: append(cached, fixtureImage("red-square")), stdout: "a red square\tconfidence "},
		{name: "explicit", args: append(append([]string{"describe"}, cached...), fixtureImage("blue-circle")), stdout: "a blue circle\tconfidence "},
		{name: "several", args: append(cached, fixtureImage("red-square"), fixtureImage("yellow-square")),
			stdout: fixtureImage("red-square") + "\ta red square\tconfidence 0.42\n" + fixtureImage("yellow-square") + "\ta yellow square\tconfidence 0.42\n"},
		{name: "one fails", args: append(cached, "missing.png", fixtureImage("red-square")), code: 1,
			stdout: "\ta red square\t", stderr: "missing.png"},
		{name: "greedy", args: append(cached, "-beam", "1", fixtureImage("green-triangle")), stdout: "a green triangle\tconfidence "},
		{name: "mistyped command", args: []string{"trian"}, code: 2, stderr: `unknown command "trian"`},
		{name: "no image", args: []string{"describe"}, code: 2, stderr: "needs at least one image"},
		{name: "bad beam", args: append(cached, "-beam", "-1", fixtureImage("red-square")), code: 2, stderr: "-beam -1"},
		{name: "bad neighbours", args: append(cached, "-neighbours", "0", fixtureImage("red-square")), code: 2, stderr: "-neighbours 0"},
		{name: "bad rerank weight", args: append(cached, "-rerank-weight", "-2", fixtureImage("red-square")), code: 2, stderr: "-rerank-weight -2"},
		{name: "a memory that is not one", args: append(cached, "-memory", fixtureModel, fixtureImage("red-square")), code: 1, stderr: "not a caption memory"},
		{name: "bad fit", args: append(cached, "-fit", "fill", fixtureImage("red-square")), code: 2, stderr: `-fit "fill"`},
		{name: "bad model", args: []string{"-model", "nope.safetensors", fixtureImage("red-square")}, code: 1, stderr: "nope.safetensors"},
		{name: "help", args: []string{"describe", "-h"}, stdout: "Examples:"},
		{name: "flags after the image", args: []string{fixtureImage("green-triangle"), "-beam", "1", "-model", fixtureModel, "-cache", fixtureCache}, stdout: "a green triangle\tconfidence "},
	}
	runCases(t, tests)
}

func TestDescribeJSON(t *testing.T) {
	code, stdout, stderr := runCase([]string{"-json", "-beam", "2", "-model", fixtureModel, "-cache", fixtureCache,
		fixtureImage("red-square"), fixtureImage("blue-circle")}, nil)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want one JSON object per image:\n%s", len(lines), stdout)
	}
	for i, want := range []string{"a red square", "a blue circle"} {
		var r captionJSON
		if err := json.Unmarshal([]byte(lines[i]), &r); err != nil {
			t.Fatal(err)
		}
		if r.Caption.Caption != want || strings.Join(r.Words, " ") != want || len(r.Tokens) != 3 || !r.Finished {
			t.Errorf("image %d: %+v, want %q in 3 tokens", i, r, want)
		}
		if r.GridH != 7 || r.GridW != 7 || len(r.Attention) != 3 || len(r.Attention[0]) != 7 || len(r.Attention[0][0]) != 7 || len(r.Beta) != 3 {
			t.Errorf("image %d: grid %d×%d, %d attention maps, %d gates; want 7×7, 3, 3", i, r.GridH, r.GridW, len(r.Attention), len(r.Beta))
		}
		if len(r.Alternatives) != 2 || r.Alternatives[0].Caption != want || r.Alternatives[0].Score < r.Alternatives[1].Score {
			t.Errorf("image %d: alternatives %+v, want 2, best first", i, r.Alternatives)
		}
	}
}

// TestDescribeStdin runs the real encoder (from the shared data) on an
// image read from standard input.
func TestDescribeStdin(t *testing.T) {
	encoder := sharedEncoder(t)
	data, err := os.ReadFile(fixtureImage("green-triangle"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCase([]string{"-model", fixtureModel, "-encoder", encoder, "-"}, data)
	// The caption, the encoder's three labels from the same pass, the
	// confidence.
	fields := strings.Split(strings.TrimSuffix(stdout, "\n"), "\t")
	if code != 0 || len(fields) != 3 || fields[0] != "a green triangle" ||
		!strings.HasPrefix(fields[1], "labels: ") || strings.Count(fields[1], ", ") != 2 || !strings.HasPrefix(fields[2], "confidence 0.") {
		t.Errorf("exit %d, stdout %q, stderr %s; want \"a green triangle\", three labels and the confidence", code, stdout, stderr)
	}
}

// TestLengthPenaltyReachesTheSearch: with -length-penalty 0 (and no
// repetition penalty) the beam ranks its captions by log-probability, so
// every alternative's score is its log-probability; by default (α = 1)
// the scores are per token.
func TestLengthPenaltyReachesTheSearch(t *testing.T) {
	alternatives := func(alpha string) []captioning.Alternative {
		code, stdout, stderr := runCase([]string{"-json", "-beam", "3", "-repeat-penalty", "0", "-length-penalty", alpha,
			"-model", fixtureModel, "-cache", fixtureCache, fixtureImage("red-square")}, nil)
		if code != 0 {
			t.Fatalf("-length-penalty %s: exit %d: %s", alpha, code, stderr)
		}
		var r captionJSON
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Alternatives) < 2 {
			t.Fatalf("-length-penalty %s: %d alternatives, want the beam's 3", alpha, len(r.Alternatives))
		}
		return r.Alternatives
	}
	for _, a := range alternatives("0") {
		if a.Score != a.LogProb {
			t.Errorf("-length-penalty 0: %q scores %v, want its log-probability %v", a.Caption, a.Score, a.LogProb)
		}
	}
	for _, a := range alternatives("1") {
		if a.Score == a.LogProb {
			t.Errorf("-length-penalty 1: %q scores its log-probability %v, want it per token", a.Caption, a.LogProb)
		}
	}
}
