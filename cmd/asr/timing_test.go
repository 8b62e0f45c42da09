package main

import (
	"strings"
	"testing"
)

// TestTimingUsage checks the flags of asr timing, each refused before
// anything is rendered.
func TestTimingUsage(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"bad mode", []string{"-mode", "viterbi"}, `-mode "viterbi"`},
		{"no clips", []string{"-clips", "0"}, "-clips 0"},
		{"no words", []string{"-words", "0"}, "-words 0"},
		{"no tolerance", []string{"-tolerance", "0"}, "-tolerance 0"},
		{"negative chunk", []string{"-chunk", "-1s"}, "-chunk -1s"},
		{"bad beam", []string{"-beam", "0"}, "-beam 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := asrRun(t, "", append([]string{"timing"}, tc.args...)...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, tc.stderr)
			}
		})
	}
}
