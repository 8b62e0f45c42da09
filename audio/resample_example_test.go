package audio_test

import (
	"fmt"
	"math"

	"github.com/attend-go/attend/audio"
)

// sine returns n samples of a 0.5-amplitude tone at freq Hz.
func sine(rate, n int, freq float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(0.5 * math.Sin(2*math.Pi*freq*float64(i)/float64(rate)))
	}
	return x
}

func ExampleDownmix() {
	stereo := &audio.Signal{Rate: 16000, Channels: 2, Samples: []float32{0.5, 0.1, -0.2, -0.4}}
	mono, err := audio.Downmix(stereo)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(mono.Channels, mono.Samples)
	// Output: 1 [0.3 -0.3]
}

func ExampleResample() {
	cd := &audio.Signal{Rate: 44100, Channels: 1, Samples: sine(44100, 44100, 1000)}
	s, err := audio.Resample(cd, 16000)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Rate, s.Frames(), s.Duration())
	// Output: 16000 16000 1s
}

// Resampling chunk by chunk, as data arrives, in bounded memory.
func ExampleResampler() {
	r, err := audio.NewResampler(48000, 16000, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	in := sine(48000, 48000, 440)
	var out []float32
	for len(in) > 0 {
		chunk := in[:min(len(in), 1000)]
		in = in[len(chunk):]
		out = r.Process(out, chunk)
	}
	out = r.Flush(out)
	fmt.Println(len(out))
	// Output: 16000
}

func ExampleResampleStream() {
	cd := &audio.Signal{Rate: 44100, Channels: 2, Samples: make([]float32, 2*44100)}
	s, err := audio.ResampleStream(cd.Stream(), 16000)
	if err != nil {
		fmt.Println(err)
		return
	}
	buf := make([]float32, 4096)
	total := 0
	for {
		n, err := s.Read(buf)
		total += n
		if err != nil {
			break // io.EOF at the end
		}
	}
	fmt.Println(s.Rate(), s.Channels(), total/s.Channels())
	// Output: 16000 2 16000
}
