package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/batch"
)

func TestExitCode(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		code   int
		stderr string
	}{
		{"success", nil, 0, ""},
		{"usage with message", Usagef("bad -n %d", 3), 2, "tool: bad -n 3\n"},
		{"bare usage", ErrUsage, 2, ""},
		{"reported", fmt.Errorf("%w: 2 failed", ErrReported), 1, ""},
		{"failure", errors.New("disk full"), 1, "tool: disk full\n"},
		{"batch failures", fmt.Errorf("%w: 2 of 9", batch.ErrFailed), 1, ""},
		{"batch interrupted", fmt.Errorf("%w: 3 of 9 inputs not done", batch.ErrInterrupted), 130, "tool: batch: interrupted: 3 of 9 inputs not done\n"},
		{"batch options", fmt.Errorf("%w: no output", batch.ErrOptions), 2, "tool: batch: bad options: no output\n"},
		{"shard", fmt.Errorf("%w \"2/2\"", batch.ErrShard), 2, "tool: batch: bad shard \"2/2\"\n"},
		{"output format", fmt.Errorf("%w \"xml\"", batch.ErrFormat), 2, "tool: batch: unknown format \"xml\"\n"},
		{"stdin as batch input", batch.ErrStdinInput, 2, "tool: " + batch.ErrStdinInput.Error() + "\n"},
		{"batch output exists", fmt.Errorf("%w: out.jsonl", batch.ErrExists), 2, "tool: batch: output exists: out.jsonl\n"},
	}
	for _, tc := range tests {
		var buf bytes.Buffer
		if got := ExitCode("tool", tc.err, &buf); got != tc.code || buf.String() != tc.stderr {
			t.Errorf("%s: ExitCode = %d, %q; want %d, %q", tc.name, got, buf.String(), tc.code, tc.stderr)
		}
	}
}

// TestExitCodeOfBatchRun maps what batch.Run itself returns: a batch
// stopped by its context (as the first SIGINT stops it, through
// batch.WithSignals) exits with 130, one with failed inputs with 1 and
// nothing printed beyond what Run printed.
func TestExitCodeOfBatchRun(t *testing.T) {
	inputs := []batch.Input{{Path: "a.wav", Root: "."}, {Path: "b.wav", Root: "."}}
	fail := func(_ context.Context, in batch.Input) (batch.Result, error) {
		if in.Path == "b.wav" {
			return batch.Result{}, errors.New("b.wav: audio: empty input")
		}
		return batch.Result{Text: "ok"}, nil
	}
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		code   int
		stderr string // the line ExitCode adds
	}{
		{"interrupted", stopped, ExitInterrupted, "tool: batch: interrupted: 2 of 2 inputs not done\n"},
		{"an input failed", context.Background(), 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var runErr bytes.Buffer
			_, err := batch.Run(tc.ctx, inputs, batch.Shared(fail), &batch.Options{Output: "-", Jobs: 1, Quiet: true, Stderr: &runErr})
			var buf bytes.Buffer
			if got := ExitCode("tool", err, &buf); got != tc.code || buf.String() != tc.stderr {
				t.Errorf("ExitCode(%v) = %d, %q; want %d, %q", err, got, buf.String(), tc.code, tc.stderr)
			}
		})
	}
}

func TestExamples(t *testing.T) {
	help := "Usage: tool x\n\n\ttool not-an-example\n\nExamples:\n\n\ttool x testdata/a.wav > out.txt\n\tother y\n\ttool -h\n"
	got := Examples("tool", help)
	want := []string{"tool x testdata/a.wav > out.txt", "tool -h"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Examples = %q, want %q", got, want)
	}
	args := ExampleArgs(got[0], "root")
	if want := []string{"x", filepath.Join("root", "testdata/a.wav")}; !reflect.DeepEqual(args, want) {
		t.Errorf("ExampleArgs = %q, want %q", args, want)
	}
}

func TestDispatch(t *testing.T) {
	called := ""
	cmds := map[string]Command{"go": func(args []string, _ io.Reader, stdout, _ io.Writer) error {
		called = strings.Join(args, " ")
		return nil
	}}
	tests := []struct {
		args           []string
		code           int
		stdout, stderr string
		called         string
	}{
		{nil, 2, "", "USAGE", ""},
		{[]string{"-h"}, 0, "USAGE", "", ""},
		{[]string{"version"}, 0, "tool v1\n", "", ""},
		{[]string{"stop"}, 2, "", "tool: unknown command \"stop\"\nRun 'tool -h' for the commands.\n", ""},
		{[]string{"go", "a", "b"}, 0, "", "", "a b"},
	}
	for _, tc := range tests {
		called = ""
		var stdout, stderr bytes.Buffer
		err := Dispatch("tool", "USAGE", v1, cmds, tc.args, nil, &stdout, &stderr)
		if code := ExitCode("tool", err, &stderr); code != tc.code || stdout.String() != tc.stdout || stderr.String() != tc.stderr || called != tc.called {
			t.Errorf("Dispatch(%q): exit %d, stdout %q, stderr %q, called %q; want %d, %q, %q, %q",
				tc.args, code, stdout.String(), stderr.String(), called, tc.code, tc.stdout, tc.stderr, tc.called)
		}
	}
}

// v1 is the version of the test tools.
func v1() string { return "v1" }
