package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli"
)

func TestSynthUsage(t *testing.T) {
	sentences := filepath.Join("..", "..", "testdata", "sentences.txt")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no output directory", []string{sentences}, 2, "needs an output directory"},
		{"no text file", []string{"-o", t.TempDir()}, 2, "at least one text file"},
		{"bad range", []string{"-o", t.TempDir(), "-snr", "40,10", sentences}, 2, "MIN ≤ MAX"},
		{"range out of bounds", []string{"-o", t.TempDir(), "-rate", "0.1,1", sentences}, 2, "tempo range"},
		{"fraction above one", []string{"-o", t.TempDir(), "-noise", "1.5", sentences}, 2, "noise fraction 1.5"},
		{"unknown engine", []string{"-o", t.TempDir(), "-engines", "say", sentences}, 2, `unknown engine "say"`},
		{"bad regexp", []string{"-o", t.TempDir(), "-voices", "(", sentences}, 2, "-voices"},
		{"no workers", []string{"-o", t.TempDir(), "-j", "0", sentences}, 2, "-j 0"},
		{"negative limit", []string{"-o", t.TempDir(), "-limit", "-1", sentences}, 2, "-limit -1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := cli.ExitCode("asr", run(append([]string{"synth"}, tc.args...), nil, &stdout, &stderr), &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tc.code, tc.stderr)
			}
		})
	}
}

// TestSynthWithoutEngines hides every TTS program: -list still succeeds
// and says so, rendering fails with a clear message.
func TestSynthWithoutEngines(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var stdout, stderr bytes.Buffer
	if err := run([]string{"synth", "-list"}, nil, &stdout, &stderr); err != nil {
		t.Fatalf("synth -list: %v", err)
	}
	for _, e := range []string{"espeak-ng", "flite", "festival"} {
		if !strings.Contains(stdout.String(), e+": not installed (skipped)") {
			t.Errorf("-list output lacks %q:\n%s", e+": not installed (skipped)", stdout.String())
		}
	}
	stdout.Reset()
	stderr.Reset()
	sentences := filepath.Join("..", "..", "testdata", "sentences.txt")
	code := cli.ExitCode("asr", run([]string{"synth", "-o", t.TempDir(), sentences}, nil, &stdout, &stderr), &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "no TTS engine installed") {
		t.Errorf("exit %d, stderr %q; want 1 and a message naming the missing engines", code, stderr.String())
	}
}

// TestSynthEspeak renders the test sentences with espeak-ng, twice: the
// second run reuses every clip.
func TestSynthEspeak(t *testing.T) {
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Skip("espeak-ng is not installed (Debian package espeak-ng)")
	}
	dir := t.TempDir()
	args := []string{"synth", "-o", dir, "-engines", "espeak-ng", "-limit", "2", "-telephone", "0.5",
		filepath.Join("..", "..", "testdata", "sentences.txt")}
	for _, want := range []string{"2 clips (2 rendered, 0 reused, 0 failed)", "2 clips (0 rendered, 2 reused, 0 failed)"} {
		var stdout, stderr bytes.Buffer
		if err := run(args, nil, &stdout, &stderr); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout %q lacks %q", stdout.String(), want)
		}
		if !strings.Contains(stderr.String(), "espeak-ng: used with") {
			t.Errorf("stderr does not report the engine:\n%s", stderr.String())
		}
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(manifest)), "\n"); len(lines) != 3 || lines[0] != "path\ttext\tspeaker" {
		t.Errorf("manifest:\n%s", manifest)
	}
}
