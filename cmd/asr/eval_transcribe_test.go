package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/synth"
)

// evalClips writes a manifest of clips of mixed rates, lengths and
// formats into dir and returns its path and the clips' paths: espeak-ng
// clips of testdata/speech (16 kHz FLAC, with the digital silence at the
// end that made eval and transcribe disagree) as they are and
// resampled to 8, 22.05 and 44.1 kHz WAV, and testdata/hello.wav as it
// is and three times over with silences between, 16 s that both the
// VAD and the 15-s cutter split into chunks.
func evalClips(t *testing.T, dir string) (string, []string) {
	t.Helper()
	testdata := filepath.Join("..", "..", "testdata")
	load := func(name string) *audio.Signal {
		sig, err := speechmodel.Load(filepath.Join(testdata, name), nil)
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
	write := func(name string, samples []float32, rate int) string {
		sig, err := audio.Resample(&audio.Signal{Rate: speechmodel.SampleRate, Channels: 1, Samples: samples}, rate)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := synth.WriteWAV(&b, sig.Samples, rate); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	hello := load("hello.wav")
	var long []float32
	for range 3 {
		long = append(long, hello.Samples...)
		long = append(long, make([]float32, 2*speechmodel.SampleRate)...)
	}
	const helloText = "the quick brown fox jumps over the lazy dog"
	clips := []struct{ path, text string }{
		{filepath.Join(testdata, "speech", "u02.flac"), "no"},
		{filepath.Join(testdata, "speech", "u07.flac"), "yes"},
		{write("good-morning-8k.wav", load("speech/u04.flac").Samples, 8000), "good morning"},
		{write("yes-22k.wav", load("speech/u07.flac").Samples, 22050), "yes"},
		{write("door-44k.wav", load("speech/u12.flac").Samples, 44100), "open the door"},
		{filepath.Join(testdata, "hello.wav"), helloText},
		{write("hello-three-times.wav", long, speechmodel.SampleRate), strings.Repeat(helloText+" ", 3)},
	}
	var m strings.Builder
	m.WriteString("path\ttext\n")
	var paths []string
	for _, c := range clips {
		abs, err := filepath.Abs(c.path)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&m, "%s\t%s\n", abs, c.text)
		paths = append(paths, abs)
	}
	manifest := filepath.Join(dir, "manifest.tsv")
	if err := os.WriteFile(manifest, []byte(m.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return manifest, paths
}

// TestEvalScoresWhatTranscribePrints checks that asr eval measures
// exactly what asr transcribe prints: for a manifest of clips of mixed
// rates, lengths and formats, each utterance's hypothesis in eval -json
// is, byte for byte, the text transcribe prints for its file, with the
// voice activity detector on and off.
func TestEvalScoresWhatTranscribePrints(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 26 s of audio four times")
	}
	manifest, paths := evalClips(t, t.TempDir())
	for _, tc := range []struct {
		name  string
		flags []string
	}{
		{"default", nil},
		{"no VAD", []string{"-vad=false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if err := run(append(append([]string{"transcribe"}, tc.flags...), paths...), nil, &stdout, &stderr); err != nil {
				t.Fatalf("transcribe: %v\n%s", err, stderr.String())
			}
			printed := map[string]string{}
			for _, line := range strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n") {
				path, text, ok := strings.Cut(line, "\t")
				if !ok {
					t.Fatalf("transcribe printed %q, want PATH<TAB>text", line)
				}
				printed[path] = text
			}
			stdout.Reset()
			if err := run(append(append([]string{"eval", "-json"}, tc.flags...), manifest), nil, &stdout, &stderr); err != nil {
				t.Fatalf("eval: %v\n%s", err, stderr.String())
			}
			sc := bufio.NewScanner(&stdout)
			n := 0
			for sc.Scan() {
				var u struct {
					Path       string  `json:"path"`
					Hypothesis *string `json:"hypothesis"`
				}
				if err := json.Unmarshal(sc.Bytes(), &u); err != nil {
					t.Fatal(err)
				}
				if u.Hypothesis == nil { // the summary
					continue
				}
				n++
				want, ok := printed[u.Path]
				if !ok {
					t.Errorf("eval scored %s, which transcribe did not print", u.Path)
				} else if *u.Hypothesis != want {
					t.Errorf("%s: eval scored %q, transcribe printed %q", filepath.Base(u.Path), *u.Hypothesis, want)
				}
			}
			if n != len(paths) {
				t.Errorf("eval scored %d utterances, want %d", n, len(paths))
			}
		})
	}
}
