package cli

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestParseInterleaved: flags may follow the positional arguments, as
// with GNU tools, and "--" ends them.
func TestParseInterleaved(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		format, o  string
		quiet      bool
		positional []string
	}{
		{"flags first", []string{"-format", "json", "a.wav"}, "json", "", false, []string{"a.wav"}},
		{"flags after the file", []string{"a.wav", "-format", "json"}, "json", "", false, []string{"a.wav"}},
		{"flags between files", []string{"a.wav", "-o", "out.jsonl", "corpus/", "-quiet"}, "txt", "out.jsonl", true, []string{"a.wav", "corpus/"}},
		{"double dash ends the flags", []string{"-quiet", "--", "-x.wav", "-format"}, "txt", "", true, []string{"-x.wav", "-format"}},
		{"double dash after a file", []string{"a.wav", "--", "-x"}, "txt", "", false, []string{"a.wav", "-x"}},
		{"double dash as a value", []string{"-o", "--", "a.wav", "-quiet"}, "txt", "--", true, []string{"a.wav"}},
		{"stdin", []string{"-", "-format=srt"}, "srt", "", false, []string{"-"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := NewFlagSet("t", "HEAD\n", "EXAMPLES\n", io.Discard)
			format := fs.String("format", "txt", "")
			o := fs.String("o", "", "")
			quiet := fs.Bool("quiet", false, "")
			if ok, err := Parse(fs, tc.args); !ok || err != nil {
				t.Fatalf("Parse(%q) = %v, %v", tc.args, ok, err)
			}
			got := fs.Args()
			if *format != tc.format || *o != tc.o || *quiet != tc.quiet || !reflect.DeepEqual(got, tc.positional) {
				t.Errorf("Parse(%q): -format %q -o %q -quiet %v, args %q; want %q %q %v %q",
					tc.args, *format, *o, *quiet, got, tc.format, tc.o, tc.quiet, tc.positional)
			}
		})
	}
}

// TestParseHelp: -h anywhere returns the usage for standard output, and
// a bad flag prints to the flag set's output (stderr).
func TestParseHelp(t *testing.T) {
	for _, h := range []string{"-h", "-help", "--help"} {
		var stderr bytes.Buffer
		fs := NewFlagSet("t", "HEAD\n", "EXAMPLES\n", &stderr)
		fs.Bool("quiet", false, "be quiet")
		ok, err := Parse(fs, []string{"a.wav", h})
		var help *Help
		if ok || !errors.As(err, &help) || !strings.Contains(help.Text, "HEAD") || !strings.Contains(help.Text, "EXAMPLES") || stderr.Len() > 0 {
			t.Errorf("Parse(a.wav %s) = %v, %v; stderr %q; want the usage as a *Help and nothing on stderr", h, ok, err, stderr.String())
		}
	}
	// A bad flag: its message and one line on where help is, as Go's and
	// git's tools print, not the whole usage that would scroll it away.
	for _, tc := range []struct {
		args []string
		says string
	}{{[]string{"a.wav", "-nope"}, "not defined: -nope"}, {[]string{"-quiet=maybe"}, "-quiet"}} {
		args := tc.args
		var stderr bytes.Buffer
		fs := NewFlagSet("cmd", "HEAD\n", "EXAMPLES\n", &stderr)
		fs.Bool("quiet", false, "be quiet")
		ok, err := Parse(fs, args)
		if ok || !errors.Is(err, ErrUsage) || stderr.Len() > 0 {
			t.Errorf("bad flag %q: %v, %v, stderr %q", args, ok, err, stderr.String())
		}
		if code := ExitCode("tool", err, &stderr); code != 2 {
			t.Errorf("bad flag %q: exit %d, want 2", args, code)
		}
		lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "tool: ") || !strings.Contains(lines[0], tc.says) ||
			lines[1] != "Run 'tool cmd -h' for its flags and examples." {
			t.Errorf("bad flag %q: stderr %q, want the error and where help is", args, stderr.String())
		}
	}
}

// TestDispatchHelp: "tool cmd -h" and "tool help cmd" print the command's
// usage on standard output and succeed.
func TestDispatchHelp(t *testing.T) {
	cmds := map[string]Command{"go": func(args []string, _ io.Reader, stdout, stderr io.Writer) error {
		fs := NewFlagSet("go", "GO USAGE\n", "", stderr)
		ok, err := Parse(fs, args)
		if !ok {
			return err
		}
		return nil
	}}
	for _, args := range [][]string{{"go", "-h"}, {"go", "x", "--help"}, {"help", "go"}} {
		var stdout, stderr bytes.Buffer
		err := Dispatch("tool", "USAGE", v1, cmds, args, nil, &stdout, &stderr)
		if code := ExitCode("tool", err, &stderr); code != 0 || !strings.HasPrefix(stdout.String(), "GO USAGE") || stderr.Len() > 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 0 and the usage on stdout", args, code, stdout.String(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	err := Dispatch("tool", "USAGE", v1, cmds, []string{"help", "stop"}, nil, &stdout, &stderr)
	if code := ExitCode("tool", err, &stderr); code != 2 || !strings.Contains(stderr.String(), `unknown command "stop"`) {
		t.Errorf("help stop: exit %d, stderr %q", code, stderr.String())
	}
}
