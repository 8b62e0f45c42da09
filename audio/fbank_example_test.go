package audio_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/attend-go/attend/audio"
)

func ExampleFbank() {
	fb, err := audio.NewFbank(nil) // Kaldi defaults, 80 bins
	if err != nil {
		fmt.Println(err)
		return
	}
	var feats audio.Features // reused across utterances
	if err := fb.Compute(&feats, sine(16000, 16000, 1000), 16000); err != nil {
		fmt.Println(err)
		return
	}
	// The loudest bin of a frame is the one whose triangle covers 1 kHz.
	row, loudest := feats.Row(50), 0
	for b := range row {
		if row[b] > row[loudest] {
			loudest = b
		}
	}
	fmt.Printf("%d frames × %d bins, loudest bin %d\n", feats.Frames, feats.Bins, loudest)
	// Output: 98 frames × 80 bins, loudest bin 27
}

func ExampleCMVN() {
	f := &audio.Features{Frames: 2, Bins: 2, Data: []float32{-3, 1, -1, 1}}
	if err := audio.CMVN(f); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Row(0), f.Row(1)) // the constant bin becomes 0
	// Output: [-1 0] [1 0]
}

func ExampleSpecAugment() {
	f := &audio.Features{Frames: 300, Bins: 80, Data: make([]float32, 300*80)}
	for i := range f.Data {
		f.Data[i] = 1
	}
	rng := rand.New(rand.NewPCG(1, 2)) // seeded: the same masks every run
	if err := audio.SpecAugment(f, nil, rng); err != nil {
		fmt.Println(err)
		return
	}
	masked := 0
	for _, v := range f.Data {
		if v == 0 {
			masked++
		}
	}
	fmt.Printf("%.1f%% masked\n", 100*float64(masked)/float64(len(f.Data)))
	// Output: 45.8% masked
}
