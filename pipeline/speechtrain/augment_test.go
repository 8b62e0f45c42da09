package speechtrain

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline/speechdata"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// fixtureUtterances returns the tiny speech manifest's twelve utterances.
func fixtureUtterances(t *testing.T) []speechdata.Utterance {
	t.Helper()
	utts, err := speechdata.Read(filepath.Join("..", "..", "testdata", "speech", "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	return utts
}

// TestAugmentedCopiesDeterministic: copies depend on (seed, utterance,
// copy) only — not on the number of workers — the original is what it is
// without copies, and copies differ from each other.
func TestAugmentedCopiesDeterministic(t *testing.T) {
	utts := fixtureUtterances(t)[:4]
	vocab := asr.DefaultVocab()
	load := func(o LoadOptions) []*utterance {
		t.Helper()
		got, skipped, err := loadUtterances(context.Background(), utts, vocab, o)
		if err != nil || len(skipped) > 0 {
			t.Fatalf("err %v, skipped %v", err, skipped)
		}
		return got
	}
	plain := load(LoadOptions{Workers: 1, Seed: 3, Telephone: 0.5})
	one := load(LoadOptions{Workers: 1, Seed: 3, Augment: 2, Telephone: 0.5})
	three := load(LoadOptions{Workers: 3, Seed: 3, Augment: 2, Telephone: 0.5})
	other := load(LoadOptions{Workers: 2, Seed: 4, Augment: 2, Telephone: 0.5})
	if len(one) != 3*len(utts) || len(three) != len(one) || len(other) != len(one) {
		t.Fatalf("%d, %d and %d examples from %d utterances with 2 copies, want %d", len(one), len(three), len(other), len(utts), 3*len(utts))
	}
	for i, u := range one {
		orig := plain[i/3]
		if u.Path != orig.Path || !slices.Equal(u.Example.Tokens, orig.Example.Tokens) || u.Seconds != orig.Seconds {
			t.Errorf("example %d is %s (%.3f s), want a copy of %s (%.3f s)", i, u.Path, u.Seconds, orig.Path, orig.Seconds)
		}
		if !slices.Equal(u.Example.Features, three[i].Example.Features) {
			t.Errorf("example %d differs between 1 and 3 workers", i)
		}
		switch i % 3 {
		case 0:
			if u.Origin != recorded || !slices.Equal(u.Example.Features, orig.Example.Features) {
				t.Errorf("original %s changed by adding copies", u.Path)
			}
		default:
			if u.Origin != perturbed {
				t.Errorf("copy %d of %s has origin %d, want perturbed", i%3-1, u.Path, u.Origin)
			}
			if slices.Equal(u.Example.Features, orig.Example.Features) || slices.Equal(u.Example.Features, one[i-1].Example.Features) {
				t.Errorf("copy %d of %s equals the original or the copy before", i%3-1, u.Path)
			}
			if slices.Equal(u.Example.Features, other[i].Example.Features) {
				t.Errorf("copy %d of %s is the same with another seed", i%3-1, u.Path)
			}
		}
	}
}

// TestAugmentNoiseSNR mixes babble and coloured noise into real fixture
// speech and measures the SNR of what was added: within 0.5 dB of the
// target.
func TestAugmentNoiseSNR(t *testing.T) {
	utts := fixtureUtterances(t)
	o := &LoadOptions{Workers: 2, Seed: 1, MaxSeconds: 16}
	pool, err := newNoisePool(utts, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(pool.samples) != len(utts) {
		t.Fatalf("babble pool of %d sources from %d utterances", len(pool.samples), len(utts))
	}
	for c, x := range pool.colored {
		if p := audio.MeanPower(x); len(x) != coloredSeconds*speechmodel.SampleRate || math.Abs(p-1) > 1e-3 {
			t.Errorf("pool noise %v: %d samples of mean power %g", audio.WhiteNoise+audio.NoiseColor(c), len(x), p)
		}
	}
	sig, err := speechmodel.Load(utts[3].Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[bool]int{} // babble or not
	for c := 0; c < 200 && (seen[true] < 4 || seen[false] < 4); c++ {
		p := drawPerturbation(o, pool, 3, c)
		if p.rt60 > 0 || p.telephone {
			continue // the added signal is then more than the noise
		}
		seen[len(p.talkers) > 0]++
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			got, err := p.apply(sig, pool)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Samples) != len(sig.Samples) {
				t.Fatalf("%d samples, want %d", len(got.Samples), len(sig.Samples))
			}
			noise := make([]float32, len(sig.Samples))
			for i := range noise {
				noise[i] = got.Samples[i] - sig.Samples[i]
			}
			snr := 10 * math.Log10(audio.MeanPower(sig.Samples)/audio.MeanPower(noise))
			if math.Abs(snr-p.snr) > 0.5 {
				t.Errorf("%v: measured %.2f dB", p, snr)
			}
		})
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("drew %d babble and %d coloured-noise copies, want both", seen[true], seen[false])
	}
}

// TestPerturbationDraws checks the ranges and rates of the random choices
// over many copies, and that babble never uses the utterance itself.
func TestPerturbationDraws(t *testing.T) {
	pool := &noisePool{index: []int{0, 1, 2, 3, 4, 5}, samples: make([][]float32, 6)}
	for i := range pool.samples {
		pool.samples[i] = make([]float32, 100+i)
	}
	o := &LoadOptions{Seed: 9, Telephone: 0.2, Warp: [2]float64{0.9, 1.1}}
	const n = 2000
	var reverb, babble, phone, muLaw int
	for k := range n {
		index := k % 8
		p := drawPerturbation(o, pool, index, k/8)
		if p.warp < 0.9 || p.warp > 1.1 || p.snr < minSNR || p.snr > maxSNR || p.offset < 0 || p.offset >= coloredSeconds*speechmodel.SampleRate {
			t.Fatalf("%v outside the ranges", p)
		}
		if p.rt60 > 0 {
			reverb++
			if p.rt60 < rt60Range[0] || p.rt60 > rt60Range[1] || p.drr < drrRange[0] || p.drr > drrRange[1] {
				t.Fatalf("%v: room outside the ranges", p)
			}
		}
		if p.telephone {
			phone++
			if p.law == audio.MuLaw {
				muLaw++
			}
		}
		if len(p.talkers) > 0 {
			babble++
			if len(p.talkers) < minTalkers || len(p.talkers) > maxTalkers {
				t.Fatalf("%v: %d talkers", p, len(p.talkers))
			}
			for _, tk := range p.talkers {
				if pool.index[tk.source] == index {
					t.Fatalf("utterance %d babbles with itself", index)
				}
				if tk.offset < 0 || tk.offset >= len(pool.samples[tk.source]) {
					t.Fatalf("offset %d of a %d-sample source", tk.offset, len(pool.samples[tk.source]))
				}
			}
		} else if p.noise < audio.WhiteNoise || p.noise > audio.BrownNoise {
			t.Fatalf("%v: no noise", p)
		}
	}
	for _, c := range []struct {
		what string
		got  int
		want float64
	}{{"reverberant", reverb, reverbFraction}, {"babble", babble, babbleFraction}, {"telephone", phone, 0.2}, {"telephone µ-law", muLaw, 0.1}} {
		if f := float64(c.got) / n; math.Abs(f-c.want) > 0.05 {
			t.Errorf("%.3f of the copies %s, want about %g", f, c.what, c.want)
		}
	}
	def := drawPerturbation(&LoadOptions{}, nil, 0, 0)
	if def.warp < DefaultWarp[0] || def.warp > DefaultWarp[1] || len(def.talkers) > 0 {
		t.Errorf("default options drew %v", def)
	}
}

// TestSyntheticNotCopied: utterances marked synthetic are loaded once,
// without speed or augmented copies.
func TestSyntheticNotCopied(t *testing.T) {
	utts := fixtureUtterances(t)[:4]
	got, skipped, err := loadUtterances(context.Background(), utts, asr.DefaultVocab(), LoadOptions{
		Workers: 2, Augment: 1, Speeds: []float64{1.1}, Synthetic: []bool{false, true, false, true},
	})
	if err != nil || len(skipped) > 0 {
		t.Fatalf("err %v, skipped %v", err, skipped)
	}
	var origins []origin
	for _, u := range got {
		origins = append(origins, u.Origin)
	}
	want := []origin{recorded, perturbed, perturbed, synthetic, recorded, perturbed, perturbed, synthetic}
	if !slices.Equal(origins, want) {
		t.Errorf("origins %v, want %v", origins, want)
	}
	if s := describeMix(got); !strings.Contains(s, "8 training utterances") || !strings.Contains(s, "% real)") {
		t.Errorf("mix %q", s)
	}
}

func TestDescribeMix(t *testing.T) {
	train := []*utterance{
		{Seconds: 3600, Origin: recorded},
		{Seconds: 7200, Origin: perturbed},
		{Seconds: 1800, Origin: synthetic},
		{Seconds: 1800, Origin: synthetic},
	}
	want := "4 training utterances (4.00 h): real 1.00 h + 2.00 h augmented copies, synthetic 1.00 h (75 % real)"
	if got := describeMix(train); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestTrainAugmentOptionsValidated: bad copy counts, VTLP ranges and
// synthetic manifests fail before anything is loaded.
func TestTrainAugmentOptionsValidated(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*TrainOptions)
		want string // in the error; "" for none
	}{
		{"defaults", func(o *TrainOptions) { o.Augment = 2 }, ""},
		{"most copies", func(o *TrainOptions) { o.Augment = MaxAugment }, ""},
		{"negative copies", func(o *TrainOptions) { o.Augment = -1 }, "-1 augmented copies; want 0 to 10"},
		{"too many copies", func(o *TrainOptions) { o.Augment = 11 }, "11 augmented copies"},
		{"widest VTLP", func(o *TrainOptions) { o.VTLP = [2]float64{MinWarp, MaxWarp} }, ""},
		{"VTLP too low", func(o *TrainOptions) { o.VTLP = [2]float64{0.6, 1} }, "VTLP range 0.6–1"},
		{"VTLP too high", func(o *TrainOptions) { o.VTLP = [2]float64{1, 1.5} }, "VTLP range 1–1.5"},
		{"VTLP reversed", func(o *TrainOptions) { o.VTLP = [2]float64{1.2, 0.9} }, "want lo ≤ hi"},
		{"synthetic listed", func(o *TrainOptions) { o.Synthetic = []string{"./" + o.Train[0]} }, ""},
		{"synthetic not trained on", func(o *TrainOptions) { o.Synthetic = []string{"other.tsv"} }, "synthetic manifest other.tsv is not among the training manifests"},
		{"noise sounds", func(o *TrainOptions) { o.Augment, o.NoiseDirs = 1, []string{os.TempDir()} }, ""},
		{"noise sounds without copies", func(o *TrainOptions) { o.NoiseDirs = []string{os.TempDir()} }, "need augmented copies"},
		{"noise sounds missing", func(o *TrainOptions) { o.Augment, o.NoiseDirs = 1, []string{"no-such-dir"} }, "noise sounds: stat no-such-dir: no such file"},
		{"noise sounds a file", func(o *TrainOptions) { o.Augment, o.NoiseDirs = 1, []string{"augment_test.go"} }, "noise sounds: augment_test.go is not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := TrainOptions{Train: []string{"train.tsv"}}
			tc.set(&o)
			err := o.checkAugment()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one saying %q", err, tc.want)
			case err != nil && !strings.HasPrefix(err.Error(), "speechtrain: "):
				t.Errorf("error %q lacks the speechtrain prefix", err)
			}
		})
	}
}
