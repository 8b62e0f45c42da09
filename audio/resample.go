package audio

import (
	"fmt"
	"slices"
)

// Resampler converts interleaved audio from one sample rate to another,
// chunk by chunk, with a band-limited (Kaiser-windowed sinc) polyphase
// filter. Memory stays bounded however long the input: besides the chunk
// being processed it keeps only the filter's history, a few hundred
// samples per channel.
//
// Feed it with Process and end with Flush. The concatenated output of any
// sequence of Process calls followed by Flush is bit-identical to the
// output of Resample on the whole signal. Output sample n sits at input
// time n·from/to: the filter's delay is compensated, so there is no lag.
//
// A Resampler is not safe for concurrent use.
type Resampler struct {
	from, to, channels int
	l, m               int // to/g and from/g, g = gcd(from, to)
	filter             *polyphaseFilter

	// hist[c] holds channel c's input from absolute index base on, where
	// index 0 is the first sample given to Process and indices below 0
	// are the zeros before the signal.
	hist [][]float32
	base int

	consumed int // input frames given to Process since the last Reset
	produced int // output frames returned since the last Reset
	next     int // input index i of output frame produced
	frac     int // (produced·m) mod l: the phase of that frame, in 1/l units
}

// NewResampler returns a Resampler from one rate to another (frames per
// second, both > 0) for interleaved audio with the given number of
// channels. Downsampling by more than about 130:1 is refused: the filter
// would need over 16384 taps per output sample.
func NewResampler(from, to, channels int) (*Resampler, error) {
	if from <= 0 {
		return nil, fmt.Errorf("audio: resample: input rate %d must be positive", from)
	}
	if to <= 0 {
		return nil, fmt.Errorf("audio: resample: output rate %d must be positive", to)
	}
	if channels <= 0 {
		return nil, fmt.Errorf("audio: resample: channel count %d must be positive", channels)
	}
	g := gcdInt(from, to)
	r := &Resampler{from: from, to: to, channels: channels, l: to / g, m: from / g}
	if from != to {
		f, err := newPolyphaseFilter(from, to, r.l)
		if err != nil {
			return nil, fmt.Errorf("audio: resample: %w", err)
		}
		r.filter = f
		r.hist = make([][]float32, channels)
	}
	r.Reset()
	return r, nil
}

// Reset discards all state so that r can resample a new signal.
func (r *Resampler) Reset() {
	r.consumed, r.produced, r.next, r.frac = 0, 0, 0, 0
	if r.filter == nil {
		return
	}
	r.base = -(r.filter.half - 1)
	for c := range r.hist {
		r.hist[c] = append(r.hist[c][:0], make([]float32, r.filter.half-1)...)
	}
}

// Rates returns the input and output rates.
func (r *Resampler) Rates() (from, to int) { return r.from, r.to }

// Channels returns the number of interleaved channels.
func (r *Resampler) Channels() int { return r.channels }

// OutputFrames returns how many frames resampling n input frames yields:
// n·to/from rounded to the nearest integer (halves up), as sox does.
func (r *Resampler) OutputFrames(n int) int {
	return int((2*int64(n)*int64(r.l) + int64(r.m)) / (2 * int64(r.m)))
}

// Process resamples src, interleaved frames at the input rate, and appends
// the output frames that are now fully determined to dst, returning the
// extended slice. Each output frame needs about half a filter length of
// input after its instant, so output lags input until Flush.
//
// It panics if len(src) is not a multiple of the channel count, like an
// out-of-range index: that is a bug in the caller, not bad input.
func (r *Resampler) Process(dst, src []float32) []float32 {
	ch := r.channels
	if len(src)%ch != 0 {
		panic(fmt.Sprintf("audio: Resampler.Process: %d samples is not a whole number of %d-channel frames", len(src), ch))
	}
	frames := len(src) / ch
	r.consumed += frames
	if r.filter == nil {
		r.produced += frames
		return append(dst, src...)
	}
	for c := range ch {
		h := slices.Grow(r.hist[c], frames)
		for i := c; i < len(src); i += ch {
			h = append(h, src[i])
		}
		r.hist[c] = h
	}
	return r.emit(dst, r.OutputFrames(r.consumed))
}

// Flush appends the output frames still owed for the input given so far,
// treating the signal as followed by silence, and resets r.
func (r *Resampler) Flush(dst []float32) []float32 {
	if r.filter != nil {
		for c := range r.hist {
			r.hist[c] = append(r.hist[c], make([]float32, r.filter.half)...)
		}
		dst = r.emit(dst, r.OutputFrames(r.consumed))
	}
	r.Reset()
	return dst
}

// emit appends output frames while their input is buffered (and at most
// until limit frames have been produced), then drops input no later
// frame needs.
func (r *Resampler) emit(dst []float32, limit int) []float32 {
	f := r.filter
	k := 2 * f.half
	end := r.base + len(r.hist[0]) // absolute index one past the buffer
	// Output frame at input time next+φ reads [next-half+1, next+half].
	n := 0
	for i, fr := r.next, r.frac; r.produced+n < limit && i+f.half < end; n++ {
		fr += r.m
		i += fr / r.l
		fr %= r.l
	}
	dst = slices.Grow(dst, n*r.channels)
	for range n {
		start := r.next - f.half + 1 - r.base
		if f.exact {
			taps := f.row(r.frac)
			for c := range r.channels {
				dst = append(dst, dotFloat32(taps, r.hist[c][start:start+k]))
			}
		} else {
			pos := float64(r.frac) * float64(f.phases) / float64(r.l)
			p := int(pos)
			w := float32(pos - float64(p))
			lo, hi := f.row(p), f.row(p+1)
			for c := range r.channels {
				x := r.hist[c][start : start+k]
				a, b := dotFloat32(lo, x), dotFloat32(hi, x)
				dst = append(dst, a+w*(b-a))
			}
		}
		r.produced++
		r.frac += r.m
		r.next += r.frac / r.l
		r.frac %= r.l
	}
	// Keep [next-half+1, end): the window of the next output frame.
	drop := r.next - f.half + 1 - r.base
	if drop > 0 {
		for c := range r.hist {
			r.hist[c] = r.hist[c][:copy(r.hist[c], r.hist[c][drop:])]
		}
		r.base += drop
	}
	return dst
}

// Resample returns s converted to the given sample rate. It returns s
// itself when s is already at that rate.
func Resample(s *Signal, rate int) (*Signal, error) {
	if err := validateSignal(s); err != nil {
		return nil, fmt.Errorf("audio: resample: %w", err)
	}
	if s.Rate == rate {
		return s, nil
	}
	r, err := NewResampler(s.Rate, rate, s.Channels)
	if err != nil {
		return nil, err
	}
	out := make([]float32, 0, r.OutputFrames(s.Frames())*s.Channels)
	out = r.Process(out, s.Samples)
	out = r.Flush(out)
	return &Signal{Rate: rate, Channels: s.Channels, Samples: out}, nil
}

// gcdInt returns the greatest common divisor of two positive integers.
func gcdInt(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
