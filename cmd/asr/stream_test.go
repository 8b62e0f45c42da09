package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/synth"
)

// longWAV writes a recording of the first clips test clips joined by
// pauses of 1.5 s: several chunks.
func longWAV(t *testing.T, clips int) string {
	t.Helper()
	const rate = 16000
	var x []float32
	for i := 1; i <= clips; i++ {
		sig, err := speech.Load(filepath.Join("..", "..", "testdata", "speech", fmt.Sprintf("u%02d.flac", i)), nil)
		if err != nil {
			t.Fatal(err)
		}
		x = append(append(x, sig.Samples...), make([]float32, 3*rate/2)...)
	}
	path := filepath.Join(t.TempDir(), "long.wav")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := synth.WriteWAV(f, x, rate); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// fakeTerminal is a writer that says it is a terminal.
type fakeTerminal struct{ bytes.Buffer }

func (*fakeTerminal) IsTerminal() bool { return true }

// watchedStdout records each write to standard output with what the
// progress line on stderr said then.
type watchedStdout struct {
	bytes.Buffer
	stderr   *fakeTerminal
	progress []string // the last progress line at each write
}

var progressLine = regexp.MustCompile(`asr: [^\r]*%[^\r]*`)

func (w *watchedStdout) Write(b []byte) (int, error) {
	lines := progressLine.FindAllString(w.stderr.String(), -1)
	last := ""
	if len(lines) > 0 {
		last = lines[len(lines)-1]
	}
	w.progress = append(w.progress, last)
	return w.Buffer.Write(b)
}

// TestTranscribeStreamsChunks: a long recording's subtitles appear chunk
// by chunk while it is transcribed, under a progress line on the
// terminal (percentage, speed, time left), and are the same as when
// written at once; -t 2 gives the same output.
func TestTranscribeStreamsChunks(t *testing.T) {
	long := longWAV(t, 5)
	_, whole, stderr := asrRun(t, "", "transcribe", "-beam", "1", "-format", "srt", long)
	if strings.Contains(stderr, "\r") {
		t.Errorf("a progress line on a stderr that is not a terminal: %q", stderr)
	}
	term := &fakeTerminal{}
	out := &watchedStdout{stderr: term}
	if err := run([]string{"transcribe", "-beam", "1", "-format", "srt", long}, nil, out, term); err != nil {
		t.Fatal(err, term.String())
	}
	if out.String() != whole {
		t.Errorf("streamed subtitles differ:\n%s\nwant\n%s", out.String(), whole)
	}
	cues := strings.Count(whole, " --> ")
	if cues < 3 || len(out.progress) < 3 {
		t.Fatalf("%d cues in %d writes; the test wants a recording of several chunks", cues, len(out.progress))
	}
	if first := out.progress[0]; !strings.Contains(first, " 0%  0:00 of 0:") {
		t.Errorf("the first cue was written under the progress line %q; want 0%% done of the length", first)
	}
	if second := out.progress[1]; strings.Contains(second, "100%") || !strings.Contains(second, "real time") || !strings.Contains(second, "left") {
		t.Errorf("the second chunk's cues were written under the progress line %q; want one with a percentage below 100, the speed and the time left", second)
	}
	if last := term.String(); !strings.HasSuffix(last, "\r") {
		t.Errorf("the progress line is not cleared at the end: %q", last)
	}

	for _, args := range [][]string{{"-quiet"}, {"-format", "json", "-quiet"}} {
		term := &fakeTerminal{}
		var stdout bytes.Buffer
		if err := run(append([]string{"transcribe", "-beam", "1", long}, args...), nil, &stdout, term); err != nil || term.Len() > 0 {
			t.Errorf("%q: %v, stderr %q; want no progress", args, err, term.String())
		}
	}

	_, threaded, stderr := asrRun(t, "", "transcribe", "-beam", "1", "-format", "srt", "-t", "2", long)
	if threaded != whole {
		t.Errorf("-t 2 subtitles differ:\n%s\nwant (-t 1)\n%s\n%s", threaded, whole, stderr)
	}
	_, txt1, _ := asrRun(t, "", "transcribe", "-beam", "1", long)
	_, txt2, _ := asrRun(t, "", "transcribe", "-beam", "1", "-t", "3", long)
	if txt1 != txt2 || strings.Count(txt1, "\n") != 1 || strings.Contains(txt1, "  ") {
		t.Errorf("txt: -t 1 %q, -t 3 %q; want one line, the same", txt1, txt2)
	}
}

// TestTranscribeTruncated: a WAV file cut short is transcribed as far as
// it goes, with a warning and "truncated": true in JSON.
func TestTranscribeTruncated(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hello.wav"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.wav")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := asrRun(t, "", "transcribe", "-beam", "1", "-format", "json", cut)
	if code != 0 || !strings.Contains(stdout, `"truncated":true`) || !strings.Contains(stderr, "warning: "+cut+": the file is cut short") {
		t.Errorf("exit %d, stdout %.80q…, stderr %q; want the transcript marked truncated and a warning", code, stdout, stderr)
	}
	if _, whole, _ := asrRun(t, "", "transcribe", "-beam", "1", "-format", "json", filepath.Join("..", "..", "testdata", "hello.wav")); strings.Contains(whole, "truncated") {
		t.Errorf("a whole file is marked truncated: %.100q", whole)
	}
}
