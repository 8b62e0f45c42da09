package synth

import (
	"context"
	"math"
	"testing"

	"github.com/attend-go/attend/audio"
)

// fakeVoices is a voice inventory with unequal engines, as found for real:
// one engine with many voices, one with few, one absent.
func fakeVoices() []Found {
	many := make([]string, 100)
	for i := range many {
		many[i] = "v" + string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	return []Found{
		{Engine: toneEngine{name: "many"}, Voices: many},
		{Engine: toneEngine{name: "few"}, Voices: []string{"x", "y"}},
		{Engine: toneEngine{name: "absent"}, Err: ErrNotInstalled},
	}
}

func TestNewPlanDeterministic(t *testing.T) {
	voices := fakeVoices()
	o := &Options{Seed: 7, Reverb: 0.5, Noise: 0.5, Telephone: 0.5}
	forward := make([]Plan, 50)
	for i := range forward {
		forward[i] = NewPlan(i, voices, o)
	}
	for i := len(forward) - 1; i >= 0; i-- {
		if p := NewPlan(i, voices, o); p != forward[i] {
			t.Fatalf("plan %d depends on call order:\n%v\n%v", i, p, forward[i])
		}
	}
	other := NewPlan(3, voices, &Options{Seed: 8, Reverb: 0.5, Noise: 0.5, Telephone: 0.5})
	if other == forward[3] {
		t.Errorf("seeds 7 and 8 gave the same plan %v", other)
	}
	// Changing a fraction changes no other choice.
	clean := NewPlan(3, voices, &Options{Seed: 7})
	if clean.Voice != forward[3].Voice || clean.Tempo != forward[3].Tempo || clean.Seed != forward[3].Seed {
		t.Errorf("fractions changed the voice or tempo: %v vs %v", clean, forward[3])
	}
}

func TestNewPlanDistribution(t *testing.T) {
	voices := fakeVoices()
	o := &Options{Seed: 1, Reverb: 0.3, Noise: 0.75, Telephone: 0.2}
	const n = 6000
	engines := map[string]int{}
	var reverb, noise, tel int
	colors := map[audio.NoiseColor]int{}
	d := o.withDefaults()
	for i := range n {
		p := NewPlan(i, voices, o)
		engines[p.Voice.Engine]++
		tempo := p.Tempo * p.Pitch
		if tempo < d.Tempo.Min-1e-12 || tempo > d.Tempo.Max+1e-12 || p.Pitch < d.Pitch.Min || p.Pitch > d.Pitch.Max {
			t.Fatalf("plan %v: net tempo %.3f or pitch outside the ranges", p, tempo)
		}
		if p.Peak < d.Peak.Min || p.Peak > d.Peak.Max {
			t.Fatalf("plan %v: peak outside %v", p, d.Peak)
		}
		if p.RT60 > 0 {
			reverb++
			if p.RT60 < d.RT60.Min || p.RT60 > d.RT60.Max || p.DRR < d.DRR.Min || p.DRR > d.DRR.Max {
				t.Fatalf("plan %v: reverb outside the ranges", p)
			}
		}
		if p.Noise != audio.NoNoise {
			noise++
			colors[p.Noise]++
			if p.SNR < d.SNR.Min || p.SNR > d.SNR.Max {
				t.Fatalf("plan %v: SNR outside %v", p, d.SNR)
			}
		}
		if p.Telephone {
			tel++
		}
	}
	if engines["absent"] != 0 {
		t.Errorf("%d plans use an engine without voices", engines["absent"])
	}
	near := func(name string, got int, want float64) {
		// 4.5 binomial standard deviations: a fixed seed, so no flakiness.
		if sd := math.Sqrt(n * want * (1 - want)); math.Abs(float64(got)-n*want) > 4.5*sd {
			t.Errorf("%s: %d of %d, want about %.0f", name, got, n, n*want)
		}
	}
	near("engine many", engines["many"], 0.5)
	near("engine few", engines["few"], 0.5)
	near("reverb", reverb, 0.3)
	near("noise", noise, 0.75)
	near("telephone", tel, 0.2)
	for _, c := range []audio.NoiseColor{audio.WhiteNoise, audio.PinkNoise, audio.BrownNoise} {
		near(c.String(), colors[c], 0.75/3)
	}
}

func TestNewPlanNoVoicesPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewPlan without voices did not panic")
		}
	}()
	NewPlan(0, []Found{{Engine: toneEngine{name: "absent"}, Err: ErrNotInstalled}}, &Options{})
}

func TestDiscoverFilter(t *testing.T) {
	engines := []Engine{toneEngine{name: "tone"}, toneEngine{name: "gone", absent: true}}
	tests := []struct {
		name   string
		filter string
		voices []int // voices found per engine
	}{
		{"no filter", "", []int{3, 0}},
		{"one voice", "^tone/high$", []int{1, 0}},
		{"nothing matches", "^nobody", []int{0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			found := Discover(context.Background(), engines, mustRegexp(tc.filter))
			for i, f := range found {
				if len(f.Voices) != tc.voices[i] || (len(f.Voices) == 0) != (f.Err != nil) {
					t.Errorf("%s: %d voices, err %v; want %d voices", f.Engine.Name(), len(f.Voices), f.Err, tc.voices[i])
				}
			}
		})
	}
}

func TestSelectEngines(t *testing.T) {
	got, err := SelectEngines([]string{"flite", "espeak-ng", "flite"})
	if err != nil || len(got) != 2 || got[0].Name() != "flite" || got[1].Name() != "espeak-ng" {
		t.Errorf("SelectEngines = %v, %v", got, err)
	}
	if _, err := SelectEngines([]string{"say"}); err == nil {
		t.Error("unknown engine accepted")
	}
	if all, _ := SelectEngines(nil); len(all) != 3 {
		t.Errorf("SelectEngines(nil) gave %d engines, want 3", len(all))
	}
}
