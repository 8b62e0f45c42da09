package batch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	bar := newProgress(&buf, 10, "asr", true)
	for range 3 {
		bar.add()
	}
	// The first drawing (throttled later) shows the name, the count and
	// the rate in files.
	if s := buf.String(); !strings.Contains(s, "asr") || !strings.Contains(s, "(0/10, 0 files/") {
		t.Errorf("bar %q lacks the name, count or rate", s)
	}
	if st := bar.bar.State(); st.CurrentNum != 3 || st.Max != 10 {
		t.Errorf("bar at %d of %d, want 3 of 10", st.CurrentNum, st.Max)
	}
	bar.finish()
	if newProgress(&buf, 10, "asr", false) != nil || newProgress(&buf, 0, "asr", true) != nil {
		t.Error("a bar was made although it is not to be shown")
	}
	var none *progress // a nil bar is a no-op
	none.add()
	none.clear()
	none.finish()
}

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || isTerminal(&bytes.Buffer{}) {
		t.Error("a file or buffer taken for a terminal")
	}
}

func TestSummaryString(t *testing.T) {
	tests := []struct {
		name string
		s    Summary
		want string
	}{
		{"done", Summary{Done: 198, Failed: 2, Skipped: 10, Wall: 2 * time.Second},
			"198 done, 2 failed, 10 skipped (already done) in 2.0 s, 100.0 inputs/s"},
		{"interrupted", Summary{Done: 5, Abandoned: 2, NotStarted: 93, Interrupted: true, Wall: time.Second},
			"interrupted: 5 done, 0 failed, 2 abandoned, 93 not started in 1.0 s, 5.0 inputs/s; run again with resume to finish"},
		{"nothing to do", Summary{Skipped: 3},
			"0 done, 0 failed, 3 skipped (already done) in 0.0 s"},
	}
	for _, tc := range tests {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	for _, f := range []Failure{{"a.wav", "a.wav: audio: empty input"}, {"a.wav", "no such file"}} {
		if got := f.String(); got != "a.wav: audio: empty input" && got != "a.wav: no such file" {
			t.Errorf("Failure.String() = %q", got)
		}
	}
}
