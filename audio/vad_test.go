package audio

import (
	"io"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/attend-go/attend/audio/audiotest"
)

// vadSignal is a named test signal, made by code, 16 kHz mono.
type vadSignal struct {
	name    string
	samples []float32
	// tolerance is the share of frames that may be called speech: music
	// is where the detector is weakest (a few notes in a row can look
	// like a syllable); the Transcriber's CTC check backs it up there.
	tolerance float64
}

// nonSpeechSignals are the signals the VAD must find no speech in.
func nonSpeechSignals() []vadSignal {
	rng := rand.New(rand.NewPCG(7, 7))
	const n = 5 * vadRate
	return []vadSignal{
		{"digital silence 1 s", make([]float32, vadRate), 0},
		{"digital silence 10 s", make([]float32, 10*vadRate), 0},
		{"white noise", audiotest.White(rng, n, 0.1), 0},
		{"quiet white noise", audiotest.White(rng, n, 0.003), 0},
		{"pink noise", audiotest.Pink(rng, n, 0.1), 0},
		{"brown noise", audiotest.Brown(rng, n, 0.1), 0},
		{"1 kHz tone", audiotest.Tone(n, vadRate, 1000, 0.5), 0},
		{"C major chord", audiotest.Chord(n, vadRate, 0.5, 261.63, 329.63, 392), 0},
		{"A minor seventh chord", audiotest.Chord(n, vadRate, 0.3, 220, 261.63, 329.63, 392), 0},
		{"music-like notes", audiotest.Music(rng, n, vadRate, 0.5), 0.05},
	}
}

// speechSignals are hello.wav clean, in white and pink noise at 10 dB SNR,
// and quiet (peak −30 dBFS).
func speechSignals(t testing.TB) []vadSignal {
	rng := rand.New(rand.NewPCG(8, 8))
	hello := readHello(t)
	quiet := make([]float32, len(hello))
	for i, v := range hello {
		quiet[i] = v * 0.03
	}
	return []vadSignal{
		{"hello", hello, 0},
		{"hello, white noise 10 dB", audiotest.MixSNR(hello, audiotest.White(rng, len(hello), 1), 10), 0},
		{"hello, pink noise 10 dB", audiotest.MixSNR(hello, audiotest.Pink(rng, len(hello), 1), 10), 0},
		{"hello, quiet", quiet, 0},
	}
}

func TestVADNonSpeech(t *testing.T) {
	v, err := NewVAD(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range nonSpeechSignals() {
		t.Run(sig.name, func(t *testing.T) {
			probs := v.Probabilities(nil, sig.samples)
			if want := (len(sig.samples) + vadHop - 1) / vadHop; len(probs) != want {
				t.Fatalf("%d frames, want %d", len(probs), want)
			}
			speech := 0
			for _, p := range probs {
				if p > DefaultVADThreshold {
					speech++
				}
			}
			if float64(speech) > sig.tolerance*float64(len(probs)) {
				t.Errorf("%d of %d frames called speech", speech, len(probs))
			}
		})
	}
}

func TestVADSpeech(t *testing.T) {
	v, err := NewVAD(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range speechSignals(t) {
		t.Run(sig.name, func(t *testing.T) {
			probs := v.Probabilities(nil, sig.samples)
			speech := 0
			for _, p := range probs {
				if p > DefaultVADThreshold {
					speech++
				}
			}
			// hello.wav is 3.4 s of which about 2.6 s is voiced or
			// fricative speech.
			if frac := float64(speech) / float64(len(probs)); frac < 0.6 {
				t.Errorf("%.0f%% of frames called speech, want ≥ 60%%", 100*frac)
			}
		})
	}
}

// TestVADStreaming checks that pushing samples in pieces gives the same
// probabilities as one Write, and that Forget keeps memory bounded.
func TestVADStreaming(t *testing.T) {
	x := speechSignals(t)[1].samples
	v, _ := NewVAD(nil)
	whole := v.Probabilities(nil, x)
	v.Reset()
	rng := rand.New(rand.NewPCG(1, 2))
	var got []float32
	for at := 0; at < len(x); {
		n := min(len(x)-at, rng.IntN(3000))
		v.Write(x[at : at+n])
		at += n
		for i := len(got); i < v.Decided(); i++ {
			got = append(got, v.Probability(i))
		}
		v.Forget(len(got))
		if len(v.frames) > 3*vadFloorContext+10 {
			t.Fatalf("VAD holds %d frames", len(v.frames))
		}
	}
	v.Close()
	for i := len(got); i < v.Decided(); i++ {
		got = append(got, v.Probability(i))
	}
	if len(got) != len(whole) {
		t.Fatalf("%d frames streamed, %d whole", len(got), len(whole))
	}
	for i := range got {
		if got[i] != whole[i] {
			t.Fatalf("frame %d: %g streamed, %g whole", i, got[i], whole[i])
		}
	}
}

func TestRealFFT(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, 64)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	f := newRealFFT(len(x))
	got := make([]complex128, len(x)/2+1)
	f.transform(got, x)
	for k := range got {
		var want complex128
		for n, v := range x {
			want += complex(v, 0) * cmplx.Exp(complex(0, -2*math.Pi*float64(k*n)/float64(len(x))))
		}
		if cmplx.Abs(got[k]-want) > 1e-9 {
			t.Fatalf("bin %d: %v, want %v", k, got[k], want)
		}
	}
}

// segmentAll runs a VAD segmenter over x and checks the invariants:
// contiguous segments covering the recording, NoSpeech segments without
// samples, speech segments of at most maxLen with their samples.
func segmentAll(t *testing.T, x []float32, opts SegmentOptions) []Segment {
	t.Helper()
	if opts.VAD == nil {
		opts.VAD = &VADOptions{}
	}
	sg, err := NewSegmenter((&Signal{Samples: x, Rate: vadRate, Channels: 1}).Stream(), &opts)
	if err != nil {
		t.Fatal(err)
	}
	maxLen := durationSamples(opts.MaxLength, vadRate)
	if maxLen == 0 {
		maxLen = 15 * vadRate
	}
	var segs []Segment
	next := 0
	for {
		s, err := sg.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if s.Start != next || s.End <= s.Start {
			t.Fatalf("segment %d is [%d, %d), want it to start at %d", len(segs), s.Start, s.End, next)
		}
		switch {
		case s.NoSpeech && len(s.Samples) != 0:
			t.Fatalf("no-speech segment %d has %d samples", len(segs), len(s.Samples))
		case !s.NoSpeech && (len(s.Samples) != s.End-s.Start || len(s.Samples) > maxLen):
			t.Fatalf("speech segment %d: [%d, %d) with %d samples, max %d", len(segs), s.Start, s.End, len(s.Samples), maxLen)
		}
		next = s.End
		s.Samples = nil
		segs = append(segs, s)
	}
	if next != len(x) {
		t.Fatalf("segments cover [0, %d), want [0, %d)", next, len(x))
	}
	return segs
}

func TestSegmenterVADNonSpeech(t *testing.T) {
	for _, sig := range nonSpeechSignals() {
		t.Run(sig.name, func(t *testing.T) {
			segs := segmentAll(t, sig.samples, SegmentOptions{})
			var speech float64
			for _, s := range segs {
				if !s.NoSpeech {
					speech += (s.EndTime() - s.StartTime()).Seconds()
				}
			}
			// A frame called speech is padded by 200 ms on each side.
			if limit := sig.tolerance*float64(len(sig.samples))/vadRate + 1.1*sig.tolerance/0.05; speech > limit {
				t.Errorf("%.2f s in speech segments (%+v), want at most %.2f", speech, segs, limit)
			}
		})
	}
}

// TestSegmenterVADSpeech puts hello.wav (clean and in noise) between
// stretches of silence or noise and checks that the speech is found,
// trimmed, and timed.
func TestSegmenterVADSpeech(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, sig := range speechSignals(t) {
		t.Run(sig.name, func(t *testing.T) {
			lead, gap, trail := 3*vadRate, 4*vadRate, 2*vadRate
			var x []float32
			x = append(x, make([]float32, lead)...)
			x = append(x, sig.samples...)
			x = append(x, make([]float32, gap)...)
			x = append(x, sig.samples...)
			x = append(x, make([]float32, trail)...)
			if sig.name != "hello" && sig.name != "hello, quiet" {
				// Noise everywhere, at the level it has under the speech.
				bed := audiotest.White(rng, len(x), 0.3*audiotest.RMS(sig.samples)/math.Sqrt(10))
				for i := range x {
					x[i] += bed[i]
				}
			}
			segs := segmentAll(t, x, SegmentOptions{})
			var speech []Segment
			for _, s := range segs {
				if !s.NoSpeech {
					speech = append(speech, s)
				}
			}
			if len(speech) != 2 {
				t.Fatalf("%d speech segments (%+v), want 2", len(speech), segs)
			}
			n := len(sig.samples)
			for i, want := range [][2]int{{lead, lead + n}, {lead + n + gap, lead + 2*n + gap}} {
				s := speech[i]
				// The utterance (whose own edges are quiet) lies inside the
				// segment, which starts no more than 0.8 s early: the
				// 200 ms pad and some quiet edge.
				early := vadRate * 8 / 10
				if s.Start > want[0]+vadRate/2 || s.End < want[1]-vadRate/2 || s.Start < want[0]-early || s.End > want[1]+early {
					t.Errorf("speech segment %d is [%v, %v), want about [%v, %v)", i, s.StartTime(), s.EndTime(),
						samplesToDuration(want[0], vadRate), samplesToDuration(want[1], vadRate))
				}
			}
		})
	}
}

// TestSegmenterVADMargin checks how much of the pauses around speech a
// speech segment keeps: SpeechPad beyond the frames the VAD calls speech
// and, only when asked, Margin more. Pauses of noise are where it
// matters: the recognizer decodes whatever a segment keeps of them.
func TestSegmenterVADMargin(t *testing.T) {
	hello := readHello(t)
	const pause = 3 * vadRate / 2
	for _, tc := range []struct {
		name   string
		noise  float64 // RMS of the white noise in the pauses (0: digital silence)
		margin time.Duration
		want   int // frames kept before the first speech frame
	}{
		{"silence, default", 0, 0, 10},
		{"silence, margin 300 ms", 0, 300 * time.Millisecond, 25},
		{"noise, default", 3e-4, 0, 10},
		{"noise, margin 300 ms", 3e-4, 300 * time.Millisecond, 25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 7))
			fill := func() []float32 {
				if tc.noise == 0 {
					return make([]float32, pause)
				}
				return audiotest.White(rng, pause, tc.noise)
			}
			var x []float32
			x = append(append(append(append(x, fill()...), hello...), fill()...), hello...)
			x = append(x, fill()...)
			v, err := NewVAD(nil)
			if err != nil {
				t.Fatal(err)
			}
			probs := v.Probabilities(nil, x)
			segs := segmentAll(t, x, SegmentOptions{Margin: tc.margin})
			for _, s := range segs {
				if s.NoSpeech {
					continue
				}
				first := s.Start / vadHop
				for first < len(probs) && probs[first] <= DefaultVADThreshold {
					first++
				}
				// Segments start on a frame boundary.
				if got := first - s.Start/vadHop; got != tc.want {
					t.Errorf("segment at %v keeps %d frames before its speech, want %d", s.StartTime(), got, tc.want)
				}
			}
		})
	}
}

// TestSegmenterVADLongSpeech joins many readings of hello.wav with pauses
// of 0.1–1 s and checks that segments respect MaxLength and are cut in
// silence, not in words.
func TestSegmenterVADLongSpeech(t *testing.T) {
	hello := readHello(t)
	rng := rand.New(rand.NewPCG(9, 9))
	var x []float32
	for range 12 {
		x = append(x, hello...)
		x = append(x, make([]float32, vadRate/10+rng.IntN(9*vadRate/10))...)
	}
	for _, max := range []time.Duration{8 * time.Second, 15 * time.Second} {
		segs := segmentAll(t, x, SegmentOptions{MaxLength: max})
		for _, s := range segs[:len(segs)-1] {
			// hello.wav ends in 0.35 s of near silence (|x| < 1e-3).
			for _, v := range x[s.End-vadRate/50 : s.End+vadRate/50] {
				if math.Abs(float64(v)) > 1e-3 {
					t.Errorf("max %v: cut at %v is within 20 ms of speech", max, s.EndTime())
					break
				}
			}
		}
	}
}

func TestSegmenterVADOptions(t *testing.T) {
	s := (&Signal{Samples: make([]float32, 100), Rate: 8000, Channels: 1}).Stream()
	if _, err := NewSegmenter(s, &SegmentOptions{Rate: 8000, VAD: &VADOptions{}}); err == nil {
		t.Error("VAD at 8 kHz: no error")
	}
	if _, err := NewSegmenter(s, &SegmentOptions{VAD: &VADOptions{Threshold: 1.5}}); err == nil {
		t.Error("VAD threshold 1.5: no error")
	}
}

// BenchmarkVADSilence and BenchmarkVADNoise measure the detector per
// second of audio: silence skips the spectrum, noise pays for it.
func BenchmarkVADSilence(b *testing.B) { benchmarkVAD(b, make([]float32, 60*vadRate)) }
func BenchmarkVADNoise(b *testing.B) {
	benchmarkVAD(b, audiotest.White(rand.New(rand.NewPCG(1, 1)), 60*vadRate, 0.1))
}

func benchmarkVAD(b *testing.B, x []float32) {
	v, _ := NewVAD(nil)
	var probs []float32
	b.ReportAllocs()
	b.SetBytes(int64(4 * len(x)))
	for b.Loop() {
		probs = v.Probabilities(probs[:0], x)
	}
}

// TestSegmenterVADNoisyPauses joins readings of hello.wav with 1 s
// pauses of digital silence or of white noise far louder than hello's
// own quiet end (−96 dBFS; its speech is about −24 dBFS), as in a
// recording whose pauses hold hiss the speech was cleaned of, and checks
// that the segmenter splits every pause and keeps little of its noise:
// the classifier alone calls such noise speech where it meets the
// quieter edges, and merged the four readings into two or three segments.
func TestSegmenterVADNoisyPauses(t *testing.T) {
	hello := readHello(t)
	const n, pause = 4, vadRate
	for _, tc := range []struct {
		name  string
		noise float64 // RMS of the white noise in the pauses (0: digital silence)
	}{
		{"silence", 0},
		{"white noise −70 dBFS", 3e-4},
		{"white noise −60 dBFS", 1e-3},
		{"white noise −50 dBFS", 3e-3},
		{"white noise −40 dBFS", 1e-2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, 3))
			fill := func() []float32 {
				if tc.noise == 0 {
					return make([]float32, pause)
				}
				return audiotest.White(rng, pause, tc.noise)
			}
			var x []float32
			var starts []int
			for range n {
				x = append(x, fill()...)
				starts = append(starts, len(x))
				x = append(x, hello...)
			}
			x = append(x, fill()...)
			var speech []Segment
			for _, s := range segmentAll(t, x, SegmentOptions{}) {
				if !s.NoSpeech {
					speech = append(speech, s)
				}
			}
			if len(speech) != n {
				t.Fatalf("%d speech segments, want %d (one per reading)", len(speech), n)
			}
			for i, s := range speech {
				// At most 0.45 s of the pause before and 0.4 s after: the
				// 200 ms pad and the frames the classifier calls speech
				// next to the reading. The noise before a reading but the
				// first stands over hello's quiet end (−96 dBFS): there the
				// segment keeps only NoisePad (150 ms) and a frame or two.
				lead := 9 * vadRate / 20
				if tc.noise > 0 && i > 0 {
					lead = 4 * vadRate / 20
				}
				if lo, hi := starts[i]-lead, starts[i]+len(hello)+2*vadRate/5; s.Start < lo || s.End > hi {
					t.Errorf("speech segment %d is [%v, %v), want it within [%v, %v)", i, s.StartTime(), s.EndTime(),
						samplesToDuration(lo, vadRate), samplesToDuration(hi, vadRate))
				}
			}
		})
	}
}

// TestVADSteadyNoise checks the steady-noise rule on its own: white noise
// that steps up 6 dB or more over a quieter background (1 s of dither,
// quieter noise, or a silence the noise's floor look-back reaches) is
// steady noise wherever a full 240 ms of it lies on one side of a frame;
// white noise at its own floor is not (the classifier knows it), nor
// digital silence, tones (voiced), or streams too short to hold the
// window; and none of hello.wav's speech is, clean, quiet or in noise
// (speech as TestFitVAD labels it, frames within 30 dB of the loudest of
// the clean recording, that are louder than the noise).
func TestVADSteadyNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	step := func(before []float32, rms float64) []float32 {
		return append(before, audiotest.White(rng, 2*vadRate, rms)...)
	}
	for _, tc := range []struct {
		name string
		x    []float32
		from int  // the frames in the 1 s from this one on …
		want bool // … are all steady noise (false: none of x's frames is)
	}{
		{"white noise −60 dBFS after silence", step(make([]float32, vadRate/2), 1e-3), vadRate / 2 / vadHop, true},
		{"white noise −50 dBFS after −62 dBFS", step(audiotest.White(rng, vadRate, 2.5e-4), 3e-3), vadRate / vadHop, true},
		{"white noise −10 dBFS after −16 dBFS", step(audiotest.White(rng, vadRate, 0.15), 0.3), vadRate / vadHop, true},
		{"white noise −50 dBFS alone", audiotest.White(rng, 2*vadRate, 3e-3), 0, false},
		{"white noise −50 dBFS after −51 dBFS", step(audiotest.White(rng, vadRate, 2.7e-3), 3e-3), 0, false},
		{"white noise, 200 ms", audiotest.White(rng, vadRate/5, 3e-3), 0, false},
		{"digital silence", make([]float32, 2*vadRate), 0, false},
		{"1 kHz tone after silence", append(make([]float32, vadRate/2), audiotest.Tone(2*vadRate, vadRate, 1000, 0.1)...), 0, false},
		{"110 Hz tone after silence", append(make([]float32, vadRate/2), audiotest.Tone(2*vadRate, vadRate, 110, 0.1)...), 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fr := framesOf(tc.x)
			to := len(fr)
			if tc.want {
				to = tc.from + vadFloorContext - 3 // the floor looks back 1 s (smoothed over 5 frames)
			}
			for j := tc.from; j < to; j++ {
				if got := steadyNoiseAt(fr, j); got != tc.want {
					t.Fatalf("frame %d of %d: steady noise %v, want %v", j, len(fr), got, tc.want)
				}
			}
		})
	}
	clean := framesOf(readHello(t))
	loud := math.Inf(-1)
	for j := range clean {
		loud = max(loud, smoothEnergy(clean, j))
	}
	for _, sig := range speechSignals(t) {
		t.Run(sig.name, func(t *testing.T) {
			fr := framesOf(sig.samples)
			floor := math.Inf(1) // the noise's level
			for j := range fr {
				floor = min(floor, smoothEnergy(fr, j))
			}
			for j := range fr {
				if e := smoothEnergy(clean, j); e > max(loud-30, floor) && steadyNoiseAt(fr, j) {
					t.Errorf("speech frame %d (%.0f dB below the loudest) called steady noise", j, loud-e)
				}
			}
		})
	}
}

// steadyNoiseAt is steadyNoise with the noise floor the VAD gives it.
func steadyNoiseAt(fr []vadFrame, j int) bool {
	var x [vadFeatures]float64
	vadContextFeatures(&x, fr, j)
	return steadyNoise(fr, j, x[0]-x[1])
}
