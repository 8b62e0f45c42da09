package whisper

import "math"

// sinusoids returns openai/whisper's encoder positional embedding
// (model.py sinusoids), (length, channels) in float32 as PyTorch computes
// it:
//
//	inc        = ln(10000) / (channels/2 − 1)
//	inv_j      = exp(−inc·j)                 j = 0 … channels/2 − 1
//	pos[t]     = [sin(t·inv) | cos(t·inv)]
func sinusoids(length, channels int) []float32 {
	half := channels / 2
	inc := math.Log(10000) / float64(half-1)
	inv := make([]float32, half)
	for j := range inv {
		inv[j] = float32(math.Exp(float64(float32(-inc) * float32(j))))
	}
	out := make([]float32, length*channels)
	for t := range length {
		row := out[t*channels : (t+1)*channels]
		for j, f := range inv {
			x := float64(float32(t) * f)
			row[j] = float32(math.Sin(x))
			row[half+j] = float32(math.Cos(x))
		}
	}
	return out
}

// exactSinusoids returns the float32 sinusoids in place of a stored
// encoder positional embedding that is the same table rounded (float16
// checkpoints round it to 11 bits, 5e-4 at ±1), so that such a file
// computes exactly what openai/whisper computes: its model always uses
// the float32 buffer. A table that differs by more than rounding is kept.
func exactSinusoids(stored []float32, length, channels int) []float32 {
	exact := sinusoids(length, channels)
	if len(stored) != len(exact) {
		return stored
	}
	for i, v := range stored {
		if math.Abs(float64(v-exact[i])) > 1e-3 {
			return stored
		}
	}
	return exact
}
