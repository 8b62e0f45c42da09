package batch

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressNoColor draws the progress bar and the summary as a batch
// does (a bar redrawn, cleared for a failure line, finished) and checks
// that no escape sequence (ESC, 0x1b) reaches stderr: neither tool writes
// colour or cursor codes, so NO_COLOR holds whatever the terminal.
func TestProgressNoColor(t *testing.T) {
	tests := []struct {
		name, noColor, term string
	}{
		{name: "colour terminal", term: "xterm-256color"},
		{name: "NO_COLOR", noColor: "1", term: "xterm-256color"},
		{name: "dumb terminal", term: "dumb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("NO_COLOR", tc.noColor)
			t.Setenv("TERM", tc.term)
			var buf bytes.Buffer
			bar := newProgress(&buf, 4, "asr", true)
			bar.add()
			bar.clear()
			buf.WriteString("asr: failed: b.wav: audio: empty input\n")
			bar.add()
			bar.bar.Add(2) // past the throttle: drawn as the last input ends
			bar.finish()
			printSummary(&buf, "asr", &Summary{Done: 3, Failed: 1, Failures: []Failure{{"b.wav", "audio: empty input"}}, Wall: time.Second}, false)
			out := buf.String()
			if !strings.Contains(out, "(0/4, 0 files/") || !strings.Contains(out, "asr: 3 done, 1 failed") {
				t.Fatalf("output %q lacks the bar or the summary", out)
			}
			if i := strings.IndexByte(out, 0x1b); i >= 0 {
				t.Errorf("an escape sequence at byte %d: %q", i, out[i:min(len(out), i+12)])
			}
		})
	}
}
