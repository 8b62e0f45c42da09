package speechtrain

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/audio/audiotest"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/synth"
)

// writeSound writes x as a 16-bit WAV file at rate.
func writeSound(t *testing.T, path string, x []float32, rate int) {
	t.Helper()
	var b bytes.Buffer
	if err := synth.WriteWAV(&b, x, rate); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// soundDir makes a directory of non-speech sounds as a theme package
// holds them: a chord at 8 kHz, music in a subdirectory, a text index and
// a silent file, both to be passed over.
func soundDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	writeSound(t, filepath.Join(dir, "bell.wav"), audiotest.Chord(4000, 8000, 0.3, 440, 660), 8000)
	writeSound(t, filepath.Join(dir, "moh", "music.wav"), audiotest.Music(r, 32000, 16000, 0.5), 16000)
	writeSound(t, filepath.Join(dir, "silence.wav"), make([]float32, 1600), 16000)
	if err := os.WriteFile(filepath.Join(dir, "index.theme"), []byte("[Sound Theme]\nName=test\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadSounds(t *testing.T) {
	good := soundDir(t)
	empty := t.TempDir()
	corrupt := t.TempDir()
	// A WAV header promising more than the file holds, then junk.
	if err := os.WriteFile(filepath.Join(corrupt, "broken.wav"), append([]byte("RIFF\xff\xff\xff\x7fWAVEfmt "), make([]byte, 8)...), 0o644); err != nil {
		t.Fatal(err)
	}
	long := t.TempDir()
	writeSound(t, filepath.Join(long, "hold.wav"), audiotest.White(rand.New(rand.NewPCG(3, 4)), 61*16000, 0.1), 16000)
	for _, tc := range []struct {
		name    string
		dirs    []string
		lengths []int  // of the sounds, at 16 kHz
		want    string // in the error; "" for none
	}{
		{"theme directory", []string{good}, []int{8000, 32000}, ""}, // bell (8 kHz → 16 kHz), moh/music; silence and index passed over
		{"twice", []string{good, good}, []int{8000, 32000, 8000, 32000}, ""},
		{"long music cut to a minute", []string{long}, []int{maxSoundFileSeconds * 16000}, ""},
		{"no audio", []string{empty}, nil, "no audio files in " + empty},
		{"missing", []string{filepath.Join(empty, "nope")}, nil, "nope: no such file or directory"},
		{"corrupt audio", []string{corrupt}, nil, "broken.wav"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sounds, err := loadSounds(tc.dirs)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "noise sounds: ") {
					t.Fatalf("error %v, want one saying %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(sounds) != len(tc.lengths) {
				t.Fatalf("%d sounds, want %d", len(sounds), len(tc.lengths))
			}
			for i, x := range sounds {
				if len(x) != tc.lengths[i] || math.Abs(audio.MeanPower(x)-1) > 1e-3 {
					t.Errorf("sound %d: %d samples of mean power %g, want %d of 1", i, len(x), audio.MeanPower(x), tc.lengths[i])
				}
			}
		})
	}
	if _, err := loadSounds([]string{empty}); !errors.Is(err, ErrNoSounds) {
		t.Errorf("empty directory: %v, want ErrNoSounds", err)
	}
}

// TestSoundCopies: with noise sounds, some copies are mixed with them at
// the drawn SNR (within 0.5 dB); babble and coloured noise still occur;
// and a load without sounds draws exactly what it drew before sounds
// existed for the copies that take coloured noise or babble.
func TestSoundCopies(t *testing.T) {
	utts := fixtureUtterances(t)
	o := &LoadOptions{Workers: 2, Seed: 1, MaxSeconds: 16, NoiseDirs: []string{soundDir(t)}}
	pool, err := newNoisePool(utts, o)
	if err != nil {
		t.Fatal(err)
	}
	plain := &LoadOptions{Workers: 2, Seed: 1, MaxSeconds: 16}
	plainPool, err := newNoisePool(utts, plain)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := speechmodel.Load(utts[2].Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for c := range 60 {
		p := drawPerturbation(o, pool, 2, c)
		q := drawPerturbation(plain, plainPool, 2, c)
		switch {
		case len(p.talkers) > 0:
			kinds["babble"]++
			if p.String() != q.String() {
				t.Errorf("copy %d: %v with sounds, %v without", c, p, q)
			}
		case p.sound > 0:
			kinds["sound"]++
			if s := fmt.Sprint(p); !strings.Contains(s, fmt.Sprintf("sound %d at", p.sound-1)) {
				t.Errorf("copy %d described as %q", c, s)
			}
			if p.rt60 > 0 || p.telephone {
				continue
			}
			got, err := p.apply(sig, pool)
			if err != nil {
				t.Fatal(err)
			}
			noise := make([]float32, len(sig.Samples))
			for i := range noise {
				noise[i] = got.Samples[i] - sig.Samples[i]
			}
			if snr := 10 * math.Log10(audio.MeanPower(sig.Samples)/audio.MeanPower(noise)); math.Abs(snr-p.snr) > 0.5 {
				t.Errorf("%v: measured %.2f dB", p, snr)
			}
		default:
			kinds["coloured"]++
		}
	}
	for _, k := range []string{"babble", "sound", "coloured"} {
		if kinds[k] == 0 {
			t.Errorf("no %s copy among 60: %v", k, kinds)
		}
	}
}
