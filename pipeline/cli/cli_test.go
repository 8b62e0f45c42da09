package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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
	}
	for _, tc := range tests {
		var buf bytes.Buffer
		if got := ExitCode("tool", tc.err, &buf); got != tc.code || buf.String() != tc.stderr {
			t.Errorf("%s: ExitCode = %d, %q; want %d, %q", tc.name, got, buf.String(), tc.code, tc.stderr)
		}
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
		{[]string{"stop"}, 2, "", "USAGEtool: unknown command \"stop\"\n", ""},
		{[]string{"go", "a", "b"}, 0, "", "", "a b"},
	}
	for _, tc := range tests {
		called = ""
		var stdout, stderr bytes.Buffer
		err := Dispatch("tool", "USAGE", "v1", cmds, tc.args, nil, &stdout, &stderr)
		if code := ExitCode("tool", err, &stderr); code != tc.code || stdout.String() != tc.stdout || stderr.String() != tc.stderr || called != tc.called {
			t.Errorf("Dispatch(%q): exit %d, stdout %q, stderr %q, called %q; want %d, %q, %q, %q",
				tc.args, code, stdout.String(), stderr.String(), called, tc.code, tc.stdout, tc.stderr, tc.called)
		}
	}
}
