package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli"
)

func TestRun(t *testing.T) {
	hello := filepath.Join("..", "..", "testdata", "hello.wav")
	wav, err := os.ReadFile(hello)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		stdin      []byte
		code       int
		stdout     string // substring expected on stdout
		stderr     string // substring expected on stderr
		stdoutNone bool
	}{
		{name: "no args", args: nil, code: 2, stderr: "Commands:", stdoutNone: true},
		{name: "help", args: []string{"-h"}, code: 0, stdout: "Commands:"},
		{name: "unknown command", args: []string{"transcrib"}, code: 2, stderr: `unknown command "transcrib"`},
		{name: "version", args: []string{"version"}, code: 0, stdout: "asr v0.1.0-dev (go1"},
		{name: "version names the model", args: []string{"version"}, code: 0, stdout: "model attend-asr-default@sha256:"},
		{name: "features", args: []string{"features", hello}, code: 0, stdout: "342 frames × 80 log-mel bins"},
		{name: "features stdin", args: []string{"features", "-"}, stdin: wav, code: 0, stdout: "-: 3.44 s"},
		{name: "features help", args: []string{"features", "-h"}, code: 0, stdout: "Examples:"},
		{name: "help features", args: []string{"help", "features"}, code: 0, stdout: "Examples:"},
		{name: "features flags after the file", args: []string{"features", hello, "-json"}, code: 0, stdout: `"frames":342`},
		{name: "features double dash", args: []string{"features", "--", "-x.wav"}, code: 1, stderr: "-x.wav: no such file"},
		{name: "features no file", args: []string{"features"}, code: 2, stderr: "needs at least one audio file"},
		{name: "features bad flag", args: []string{"features", "-nope", hello}, code: 2, stderr: "asr: flag provided but not defined: -nope\nRun 'asr features -h' for its flags and examples.\n"},
		{name: "a file means transcribe", args: []string{hello, "-beam", "1"}, code: 0, stdout: "the quick brown fox"},
		{name: "flags then a file mean transcribe", args: []string{"-format", "srt", hello}, code: 0, stdout: "00:00:00,"},
		{name: "unknown command, one line of help", args: []string{"transcrib", hello}, code: 2, stderr: "asr: unknown command \"transcrib\", and no file of that name\nRun 'asr -h' for the commands.\n"},
		{name: "features bad width", args: []string{"features", "-width", "0", hello}, code: 2, stderr: "-width 0"},
		{name: "stream end silence below the padding", args: []string{"stream", "-end-silence", "100ms", hello}, code: 2, stderr: "-end-silence 100ms: want 0"},
		{
			name: "one bad file among good", args: []string{"features", hello, "main.go", hello},
			code: 1, stdout: "loudness", stderr: "asr: main.go: audio:",
		},
		{name: "missing file", args: []string{"features", "nope.wav"}, code: 1, stderr: "nope.wav: no such file"},
		{name: "train speed not a number", args: []string{"train", "-o", "/tmp/x", "-speed", "0.9,fast", "m.tsv"}, code: 2, stderr: `-speed "0.9,fast": want factors in [0.5, 2]`},
		{name: "train speed out of range", args: []string{"train", "-o", "/tmp/x", "-speed", "3", "m.tsv"}, code: 2, stderr: `-speed "3"`},
		{name: "train negative snapshot interval", args: []string{"train", "-o", "/tmp/x", "-snapshots", "4", "-snapshot-every", "-5", "m.tsv"}, code: 2, stderr: "-snapshot-every -5: want 0 (snapshots only after dev evaluations) or more steps"},
		{name: "train snapshot interval without snapshots", args: []string{"train", "-o", "/tmp/x", "-snapshot-every", "500", "m.tsv"}, code: 2, stderr: "-snapshot-every 500 keeps nothing without -snapshots N"},
		{name: "train negative snapshots", args: []string{"train", "-o", "/tmp/x", "-snapshots", "-1", "m.tsv"}, code: 2, stderr: "-snapshots -1: want 0 (none) or more"},
		{name: "train replicas zero", args: []string{"train", "-o", "/tmp/x", "-replicas", "0", "m.tsv"}, code: 2, stderr: "-replicas 0: want 1 to 16 (at most -batch 16)"},
		{name: "train replicas past the most", args: []string{"train", "-o", "/tmp/x", "-batch", "100", "-replicas", "65", "m.tsv"}, code: 2, stderr: "-replicas 65: want 1 to 64 (at most -batch 100)"},
		{name: "train replicas past the batch", args: []string{"train", "-o", "/tmp/x", "-batch", "4", "-replicas", "5", "m.tsv"}, code: 2, stderr: "-replicas 5: want 1 to 4 (at most -batch 4)"},
		{name: "train telephone out of range", args: []string{"train", "-o", "/tmp/x", "-telephone", "1.5", "m.tsv"}, code: 2, stderr: "-telephone 1.5: want a fraction in [0, 1]"},
		{name: "train augment negative", args: []string{"train", "-o", "/tmp/x", "-augment", "-1", "m.tsv"}, code: 2, stderr: "-augment -1: want 0 to 10 copies"},
		{name: "train augment too many", args: []string{"train", "-o", "/tmp/x", "-augment", "11", "m.tsv"}, code: 2, stderr: "-augment 11: want 0 to 10 copies"},
		{name: "train vtlp out of range", args: []string{"train", "-o", "/tmp/x", "-augment", "1", "-vtlp", "0.5,1.2", "m.tsv"}, code: 2, stderr: `-vtlp "0.5,1.2": want LO,HI with 0.7 ≤ LO ≤ HI ≤ 1.4`},
		{name: "train vtlp reversed", args: []string{"train", "-o", "/tmp/x", "-augment", "1", "-vtlp", "1.2,0.9", "m.tsv"}, code: 2, stderr: `-vtlp "1.2,0.9"`},
		{name: "train vtlp one factor", args: []string{"train", "-o", "/tmp/x", "-augment", "1", "-vtlp", "1.1", "m.tsv"}, code: 2, stderr: `-vtlp "1.1": want LO,HI`},
		{name: "train vtlp not a number", args: []string{"train", "-o", "/tmp/x", "-augment", "1", "-vtlp", "0.9,big", "m.tsv"}, code: 2, stderr: `-vtlp "0.9,big"`},
		{name: "train vtlp without augment", args: []string{"train", "-o", "/tmp/x", "-vtlp", "0.9,1.1", "m.tsv"}, code: 2, stderr: "-vtlp needs -augment N"},
		{name: "train noise dir without augment", args: []string{"train", "-o", "/tmp/x", "-noise-dir", "/tmp", "m.tsv"}, code: 2, stderr: "-noise-dir needs -augment N"},
		{name: "train synthetic not trained on", args: []string{"train", "-o", "/tmp/x", "-synthetic", "s.tsv", "m.tsv"}, code: 2, stderr: "-synthetic s.tsv: not among the training manifests m.tsv"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := cli.ExitCode("asr", run(tc.args, bytes.NewReader(tc.stdin), &stdout, &stderr), &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstderr: %s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout %q does not contain %q", stdout.String(), tc.stdout)
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), tc.stderr)
			}
			if tc.stdoutNone && stdout.Len() > 0 {
				t.Errorf("stdout should be empty, got %q", stdout.String())
			}
		})
	}
}

func TestFeaturesTSV(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run([]string{"features", "-tsv", filepath.Join("..", "..", "testdata", "hello.wav")}, nil, &stdout, &stderr); err != nil {
		t.Fatal(err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 342 {
		t.Fatalf("%d rows, want 342", len(lines))
	}
	if n := len(strings.Split(lines[0], "\t")); n != 80 {
		t.Errorf("%d columns, want 80", n)
	}
}

// TestUsageExamplesRun runs every example command line in the help texts,
// so the documentation cannot drift from the behaviour.
func TestUsageExamplesRun(t *testing.T) {
	root := filepath.Join("..", "..")
	texts := []string{commands.Usage(usageHead, usageTail)}
	for _, name := range commands.Names() {
		texts = append(texts, commands.Help(name))
	}
	for _, text := range texts {
		examples := cli.Examples("asr", text)
		if len(examples) == 0 {
			t.Fatalf("help text has no examples:\n%s", text)
		}
		for _, line := range examples {
			args := cli.ExampleArgs(line, root)
			var stdout, stderr bytes.Buffer
			if err := run(args, nil, &stdout, &stderr); err != nil {
				t.Errorf("example %q: %v\n%s", line, err, stderr.String())
			}
		}
	}
}

// trainTiny runs "asr train" on testdata/speech/manifest.tsv with a tiny
// model, batches of 4 and one dev speaker, into dir/out, and returns its
// log.
func trainTiny(dir, out string, extra ...string) (log string, err error) {
	args := append([]string{"train", "-overwrite", "-o", filepath.Join(dir, out), "-tiny", "-batch", "4", "-log-every", "1", "-dev-speakers", "1"}, extra...)
	var stdout, stderr bytes.Buffer
	err = run(append(args, filepath.Join("..", "..", "testdata", "speech", "manifest.tsv")), nil, &stdout, &stderr)
	return stderr.String(), err
}
