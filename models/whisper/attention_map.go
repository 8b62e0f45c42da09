package whisper

import "fmt"

// CrossAttention returns where the decoder listened while it read tokens
// in one window: for each token, the cross-attention weights of the
// alignment heads (softmax over the window's audio frames, averaged over
// the heads), Frames/2 = numFrames/2 columns of 20 ms — the picture
// openai/whisper's word timing starts from, before its normalization,
// filtering and warping. window is one pad_or_trim'd log-mel window
// (NMels × 3000); sot the start-of-transcript sequence; tokens are read
// after it (timestamps included, as decoded). For drawing.
func CrossAttention(net Network, window []float32, sot, tokens []int, numFrames int, heads [][2]int) ([][]float32, error) {
	frames := numFrames / 2
	if frames <= 0 || len(tokens) == 0 {
		return nil, nil
	}
	if len(heads) == 0 {
		return nil, fmt.Errorf("whisper: CrossAttention needs at least one alignment head")
	}
	audio, err := net.Encode(window)
	if err != nil {
		return nil, err
	}
	defer audio.Release()
	dec := net.NewDecoder(audio, heads)
	defer releaseDecoders([]TextDecoder{dec})
	if len(sot) == 0 {
		return nil, fmt.Errorf("whisper: CrossAttention needs the start-of-transcript sequence")
	}
	// Only the cross-attention is read: no row needs logits.
	if _, err := forwardRows(dec, append(append([]int(nil), sot...), tokens...), nil); err != nil {
		return nil, err
	}
	out := make([][]float32, len(tokens))
	w := make([]float32, frames)
	inv := 1 / float32(len(heads))
	for i := range out {
		out[i] = make([]float32, frames)
	}
	for _, lh := range heads {
		qk := dec.CrossQK(lh[0], lh[1])
		for i := range out {
			softmax32(w, qk[len(sot)-1+i][:frames]) // the position that predicted tokens[i]
			for f, v := range w {
				out[i][f] += v * inv
			}
		}
	}
	return out, nil
}
