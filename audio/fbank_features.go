package audio

import "fmt"

// Features is a matrix of per-frame feature vectors, such as log-mel
// filterbank energies: Frames rows of Bins values, frame-major.
// Data[t*Bins+b] is bin b of frame t, and len(Data) is Frames·Bins.
type Features struct {
	Frames, Bins int
	Data         []float32
}

// Row returns frame t's feature vector, aliasing Data. It panics if t is
// out of range, like a slice index.
func (f *Features) Row(t int) []float32 {
	if t < 0 || t >= f.Frames {
		panic(fmt.Sprintf("audio: Features.Row(%d) out of range [0, %d)", t, f.Frames))
	}
	return f.Data[t*f.Bins : (t+1)*f.Bins : (t+1)*f.Bins]
}

// resize sets the shape to frames×bins, reusing Data's storage when it is
// large enough. The contents are unspecified.
func (f *Features) resize(frames, bins int) {
	n := frames * bins
	if cap(f.Data) < n {
		f.Data = make([]float32, n)
	}
	f.Frames, f.Bins, f.Data = frames, bins, f.Data[:n]
}

// check reports whether the shape and the data agree.
func (f *Features) check() error {
	if f == nil {
		return fmt.Errorf("nil features")
	}
	if f.Frames < 0 || f.Bins < 0 || len(f.Data) != f.Frames*f.Bins {
		return fmt.Errorf("features of %d frames × %d bins hold %d values", f.Frames, f.Bins, len(f.Data))
	}
	return nil
}
