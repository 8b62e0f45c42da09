package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/synth"
	"github.com/mewkiz/flac"
	"github.com/mewkiz/flac/frame"
	"github.com/mewkiz/flac/meta"
)

// longWAV writes a recording of the first clips test clips joined by
// pauses of 1.5 s: several chunks.
func longWAV(t *testing.T, clips int) string {
	t.Helper()
	const rate = 16000
	var x []float32
	for i := 1; i <= clips; i++ {
		sig, err := speechmodel.Load(filepath.Join("..", "..", "testdata", "speech", fmt.Sprintf("u%02d.flac", i)), nil)
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

// TestTranscribeTruncatedFLAC: a FLAC file cut short keeps the audio
// before the cut, even inside the frame the cut falls in (here the whole
// recording is one frame, as a short clip is: before, it decoded to no
// audio at all), with the warning and "truncated": true.
func TestTranscribeTruncatedFLAC(t *testing.T) {
	data := helloFLAC(t)
	cut := filepath.Join(t.TempDir(), "cut.flac")
	if err := os.WriteFile(cut, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := asrRun(t, "", "transcribe", "-beam", "1", "-format", "json", cut)
	var got struct {
		Text      string
		Duration  float64
		Truncated bool
	}
	if err := json.Unmarshal([]byte(stdout), &got); code != 0 || err != nil {
		t.Fatalf("exit %d, stdout %q (%v), stderr %q", code, stdout, err, stderr)
	}
	if !got.Truncated || got.Duration < 2 || got.Duration > 2.5 || got.Text == "" || !strings.Contains(stderr, "warning: "+cut+": the file is cut short") {
		t.Errorf("transcript %+v, stderr %q; want the first 2–2.5 s of 3.4 transcribed, marked truncated, and a warning", got, stderr)
	}
}

// helloFLAC encodes testdata/hello.wav (3.4 s, 16 kHz, 16 bits) as a
// FLAC file of one frame with fixed linear prediction.
func helloFLAC(t *testing.T) []byte {
	t.Helper()
	wav, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hello.wav"))
	if err != nil {
		t.Fatal(err)
	}
	const rate = 16000
	at := bytes.Index(wav, []byte("data"))
	if at < 0 || !bytes.Equal(wav[22:26], []byte{1, 0, 0x80, 0x3e}) { // mono, 16 kHz
		t.Fatal("testdata/hello.wav is not the 16 kHz mono 16-bit WAV this test reads")
	}
	pcm := wav[at+8 : at+8+int(binary.LittleEndian.Uint32(wav[at+4:]))]
	samples := make([]int32, len(pcm)/2)
	for i := range samples {
		samples[i] = int32(int16(binary.LittleEndian.Uint16(pcm[2*i:])))
	}
	path := filepath.Join(t.TempDir(), "hello.flac")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	info := &meta.StreamInfo{SampleRate: rate, NChannels: 1, BitsPerSample: 16, NSamples: uint64(len(samples)),
		BlockSizeMin: uint16(len(samples)), BlockSizeMax: uint16(len(samples))}
	enc, err := flac.NewEncoder(out, info)
	if err != nil {
		t.Fatal(err)
	}
	enc.EnablePredictionAnalysis(true)
	fr := &frame.Frame{
		Header: frame.Header{HasFixedBlockSize: true, BlockSize: uint16(len(samples)), SampleRate: rate,
			Channels: frame.ChannelsMono, BitsPerSample: 16},
		Subframes: []*frame.Subframe{{SubHeader: frame.SubHeader{Pred: frame.PredVerbatim}, Samples: samples, NSamples: len(samples)}},
	}
	if err := enc.WriteFrame(fr); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
