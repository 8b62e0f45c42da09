package synth

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speechdata"
)

// toneJob is a job of n sentences with the tone engine's good voices.
func toneJob(dir string, n int) *Job {
	var s []Sentence
	for i := range n {
		text := strings.Repeat("word ", 1+i%4) + "end"
		s = append(s, Sentence{Text: text, Norm: text, Source: "t:" + string(rune('0'+i))})
	}
	return &Job{
		Dir: dir, Sentences: s, Workers: 1,
		Voices:  []Found{{Engine: toneEngine{name: "tone"}, Voices: []string{"low", "high"}}},
		Options: Options{Seed: 3, Reverb: 0.5, Noise: 0.5, Telephone: 0.5},
	}
}

// snapshot returns the manifest and every clip of dir.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "wav", "*.wav"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range append(files, filepath.Join(dir, "manifest.tsv")) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = b
	}
	return out
}

func sameFiles(t *testing.T, what string, a, b map[string][]byte) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d files vs %d", what, len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s: %s differs", what, name)
		}
	}
}

func TestRunDeterministicAcrossWorkers(t *testing.T) {
	one, four := t.TempDir(), t.TempDir()
	j := toneJob(one, 12)
	sum, err := Run(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Clips != 12 || sum.Rendered != 12 || sum.Reused != 0 || len(sum.Failures) != 0 {
		t.Fatalf("summary %+v", sum)
	}
	j4 := toneJob(four, 12)
	j4.Workers = 4
	if _, err := Run(context.Background(), j4); err != nil {
		t.Fatal(err)
	}
	a, b := snapshot(t, one), snapshot(t, four)
	sameFiles(t, "-j 1 vs -j 4", a, b)

	manifest := string(a["manifest.tsv"])
	lines := strings.Split(strings.TrimSpace(manifest), "\n")
	if lines[0] != ManifestHeader || len(lines) != 13 {
		t.Fatalf("manifest:\n%s", manifest)
	}
	for i, line := range lines[1:] {
		f := strings.Split(line, "\t")
		p := NewPlan(i, j.Voices, &j.Options)
		if f[0] != clipName(i) || f[1] != j.Sentences[i].Norm || f[2] != p.Voice.String() {
			t.Errorf("row %d = %q, want %s, %q, %s", i+1, line, clipName(i), j.Sentences[i].Norm, p.Voice)
		}
	}
	utts, err := speechdata.Read(sum.Manifest)
	if err != nil {
		t.Fatalf("speechdata cannot read the manifest: %v", err)
	}
	for i, u := range utts {
		if u.Path != filepath.Join(one, clipName(i)) || u.Text != j.Sentences[i].Norm || u.Speaker != NewPlan(i, j.Voices, &j.Options).Voice.String() {
			t.Errorf("speechdata read row %d as %+v", i+1, u)
		}
	}
	var total float64
	for i := range 12 {
		f, err := os.Open(filepath.Join(one, clipName(i)))
		if err != nil {
			t.Fatal(err)
		}
		sig, err := audio.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		total += sig.Duration().Seconds()
		if sig.Rate != SampleRate || sig.Channels != 1 {
			t.Errorf("clip %d: %d Hz, %d channels", i, sig.Rate, sig.Channels)
		}
	}
	if math.Abs(total-sum.Seconds) > 1e-9 {
		t.Errorf("summary says %.4f s, clips hold %.4f s", sum.Seconds, total)
	}
}

func TestRunResumes(t *testing.T) {
	dir := t.TempDir()
	if _, err := Run(context.Background(), toneJob(dir, 6)); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	os.Remove(filepath.Join(dir, clipName(2)))
	os.Remove(filepath.Join(dir, "manifest.tsv"))
	sum, err := Run(context.Background(), toneJob(dir, 6))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rendered != 1 || sum.Reused != 5 || sum.Clips != 6 {
		t.Errorf("resumed run: %+v, want 1 rendered and 5 reused", sum)
	}
	sameFiles(t, "resumed", before, snapshot(t, dir))
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*")); len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func TestRunRefusesOtherSettings(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Job)
		what   string
	}{
		{"seed", func(j *Job) { j.Options.Seed++ }, "options"},
		{"sentences", func(j *Job) { j.Sentences = j.Sentences[1:] }, "sentences"},
		{"voices", func(j *Job) { j.Voices[0].Voices = []string{"low"} }, "voices"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := Run(context.Background(), toneJob(dir, 3)); err != nil {
				t.Fatal(err)
			}
			j := toneJob(dir, 3)
			tc.change(j)
			_, err := Run(context.Background(), j)
			if !errors.Is(err, ErrSettingsChanged) || !strings.Contains(err.Error(), tc.what) {
				t.Errorf("changed %s: %v, want ErrSettingsChanged naming %s", tc.name, err, tc.what)
			}
		})
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "wav"), 0o755)
	os.WriteFile(filepath.Join(dir, "wav", "x.wav"), []byte("RIFF"), 0o644)
	if _, err := Run(context.Background(), toneJob(dir, 3)); !errors.Is(err, ErrSettingsChanged) {
		t.Errorf("directory with foreign clips: %v, want ErrSettingsChanged", err)
	}
}

func TestRunReportsFailures(t *testing.T) {
	dir := t.TempDir()
	j := toneJob(dir, 8)
	j.Voices[0].Voices = []string{"low", "bad"}
	var log bytes.Buffer
	j.Log = &log
	sum, err := Run(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	var bad int
	for i := range 8 {
		if NewPlan(i, j.Voices, &j.Options).Voice.Name == "bad" {
			bad++
		}
	}
	if bad == 0 || bad == 8 {
		t.Fatalf("the seed gives %d of 8 plans the bad voice; pick another", bad)
	}
	if len(sum.Failures) != bad || sum.Clips != 8-bad {
		t.Errorf("%d failures and %d clips, want %d and %d", len(sum.Failures), sum.Clips, bad, 8-bad)
	}
	if !strings.Contains(sum.Failures[0], "tone: bad voice") || !strings.Contains(log.String(), "tone: bad voice") {
		t.Errorf("failure %q / log %q do not say why", sum.Failures[0], log.String())
	}
	if n := strings.Count(string(snapshot(t, dir)["manifest.tsv"]), "\n"); n != 1+8-bad {
		t.Errorf("manifest has %d lines, want %d", n, 1+8-bad)
	}
}

func TestRunInvalid(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Job)
		want   string
	}{
		{"no directory", func(j *Job) { j.Dir = "" }, "no output directory"},
		{"no voices", func(j *Job) { j.Voices = []Found{{Engine: toneEngine{name: "x"}, Err: ErrNotInstalled}} }, "no TTS engine"},
		{"no sentences", func(j *Job) { j.Sentences = nil }, "no sentences"},
		{"bad option", func(j *Job) { j.Options.Noise = 2 }, "noise fraction"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j := toneJob(t.TempDir(), 2)
			tc.change(j)
			if _, err := Run(context.Background(), j); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestRunCancelled(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sum, err := Run(ctx, toneJob(dir, 4))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after cancel = %v, want context.Canceled", err)
	}
	if sum == nil || sum.Clips != 0 || len(sum.Failures) != 0 {
		t.Errorf("summary %+v, want no clips and no failures", sum)
	}
	if _, err := os.Stat(sum.Manifest); err != nil {
		t.Errorf("no manifest after cancel: %v", err)
	}
}

func TestAugmentPitchAndPeak(t *testing.T) {
	const rate = 22050
	sig := &audio.Signal{Rate: rate, Channels: 2, Samples: make([]float32, 2*rate)}
	for i := range rate {
		v := float32(0.25 * math.Sin(2*math.Pi*220*float64(i)/rate))
		sig.Samples[2*i], sig.Samples[2*i+1] = v, v
	}
	orig := append([]float32(nil), sig.Samples...)
	for _, pitch := range []float64{0.9, 1, 1.1} {
		p := Plan{Pitch: pitch, Peak: -3, Seed: 1}
		x, err := Augment(sig, p)
		if err != nil {
			t.Fatal(err)
		}
		if want := SampleRate / pitch; math.Abs(float64(len(x))-want) > 2 {
			t.Errorf("pitch %g: %d samples, want %.0f (1 s / pitch)", pitch, len(x), want)
		}
		var peak float32
		for _, v := range x {
			peak = max(peak, v, -v)
		}
		if got := 20 * math.Log10(float64(peak)); math.Abs(got+3) > 1e-4 {
			t.Errorf("pitch %g: peak %.4f dBFS, want -3", pitch, got)
		}
		// 220 Hz moves to 220·pitch: count zero crossings in the middle.
		mid := x[len(x)/4 : 3*len(x)/4]
		var zc int
		for i := 1; i < len(mid); i++ {
			if (mid[i-1] < 0) != (mid[i] < 0) {
				zc++
			}
		}
		f := float64(zc) / 2 / (float64(len(mid)) / SampleRate)
		if math.Abs(f-220*pitch) > 3 {
			t.Errorf("pitch %g: tone at %.1f Hz, want %.1f", pitch, f, 220*pitch)
		}
	}
	if !slices.Equal(orig, sig.Samples) {
		t.Error("Augment modified its input")
	}
	full := Plan{Pitch: 1, Peak: -1, RT60: 0.3, DRR: 5, Noise: audio.PinkNoise, SNR: 20, Telephone: true, Seed: 9}
	a, err := Augment(sig, full)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Augment(sig, full)
	if !slices.Equal(a, b) {
		t.Error("the same plan gave different audio")
	}
	if want := SampleRate + int(0.3*SampleRate) - 1; len(a) != want {
		t.Errorf("reverberated clip has %d samples, want %d (input + room response − 1)", len(a), want)
	}
	silent := &audio.Signal{Rate: SampleRate, Channels: 1, Samples: make([]float32, 100)}
	if _, err := Augment(silent, Plan{Pitch: 1}); !errors.Is(err, audio.ErrSilent) {
		t.Errorf("Augment(silence) = %v, want ErrSilent", err)
	}
}
