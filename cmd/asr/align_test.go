package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAlignUsage checks the command-line mistakes of asr align, each
// caught before any audio is decoded, with a message naming the problem.
func TestAlignUsage(t *testing.T) {
	hello := filepath.Join("..", "..", "testdata", "hello.wav")
	text := filepath.Join("..", "..", "testdata", "hello.txt")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"nothing to align", nil, "needs an audio file and its text"},
		{"no text", []string{hello}, "needs the text of"},
		{"text twice", []string{"-text-file", text, hello, "the", "dog"}, "not both"},
		{"both from standard input", []string{"-text-file", "-", "-"}, "cannot both be standard input"},
		{"bad format", []string{"-format", "doc", hello, "dog"}, `-format "doc"`},
		{"bad chunk", []string{"-chunk", "0s", hello, "dog"}, "-chunk 0s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := asrRun(t, "", append([]string{"align"}, tc.args...)...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, tc.stderr)
			}
		})
	}
}

// TestAlignRuns aligns testdata/hello.wav with its text from each source
// and checks the output: every word of the text, timed in order.
func TestAlignRuns(t *testing.T) {
	hello := filepath.Join("..", "..", "testdata", "hello.wav")
	wav, err := os.ReadFile(hello)
	if err != nil {
		t.Fatal(err)
	}
	words := "the quick brown fox jumps over the lazy dog"
	tests := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"text as arguments", "", append([]string{hello}, strings.Fields("The quick brown fox jumps over the lazy dog.")...)},
		{"text from a file", "", []string{"-text-file", filepath.Join("..", "..", "testdata", "hello.txt"), hello}},
		{"text from standard input", words + "\n", []string{"-text-file", "-", hello}},
		{"audio from standard input", string(wav), []string{"-", words}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := asrRun(t, tc.stdin, append([]string{"align", "-format", "json"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var got struct {
				Text   string
				Chunks []struct {
					Words []struct {
						Word       string
						Start, End float64
					}
				}
			}
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("%v in %q", err, stdout)
			}
			var timed []string
			prev := 0.0
			for _, c := range got.Chunks {
				for _, w := range c.Words {
					if w.Start < prev || w.End <= w.Start {
						t.Errorf("word %+v out of order (after %.2f s)", w, prev)
					}
					prev = w.Start
					timed = append(timed, w.Word)
				}
			}
			if got.Text != words || strings.Join(timed, " ") != words {
				t.Errorf("text %q, timed words %q; want %q", got.Text, timed, words)
			}
		})
	}
	code, _, stderr := asrRun(t, "", "align", "-text-file", "nope.txt", hello)
	if code != 1 || !strings.Contains(stderr, "nope.txt") {
		t.Errorf("missing text file: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = asrRun(t, "", "align", hello, "—", "!")
	if code != 1 || !strings.Contains(stderr, "no words to align") {
		t.Errorf("text without words: exit %d, stderr %q", code, stderr)
	}
}
