package whisper

// Network is what decoding needs from a Whisper network (Model implements
// it; tests may use a fake). Encoding and decoding are separate so that
// one window's audio features serve every temperature, beam and the
// timing pass.
type Network interface {
	// Dims returns the model's hyper-parameters.
	Dims() Dims
	// Encode runs the audio encoder on one window of log-mel frames,
	// mel (NMels × 2n, row-major: NMels rows of 2n frames), and returns
	// its features (n × NAudioState). n is NAudioCtx (1500: 3000 frames,
	// 30 s) for a full window, or less for a reduced audio context
	// (TranscribeOptions.AudioCtx, whisper.cpp's audio_ctx).
	Encode(mel []float32) (*AudioFeatures, error)
	// NewDecoder starts a text decoder attending to audio, with an empty
	// key/value cache. The decoder may keep audio: it must not change
	// while the decoder (or a clone) is in use. For each (layer, head)
	// in record it keeps, for every position it processes, that head's
	// raw cross-attention scores (for word timestamps, timing.py's QKs,
	// which read the alignment heads only); nil records nothing.
	NewDecoder(audio *AudioFeatures, record [][2]int) TextDecoder
}

// AudioFeatures is the encoder's output for one window: Frames × Width,
// row-major (Frames = NAudioCtx = 1500 for a 30-second window; the
// audio context for a reduced one). Model.Encode also computes the
// decoder's cross-attention keys and values of the window (cross.go),
// outside the Go heap: Release returns them when the window is done.
type AudioFeatures struct {
	Data          []float32
	Frames, Width int
	kv            *crossKV // Model.Encode's cross-attention keys and values, or nil
}

// Release returns the memory of the cross-attention's keys and values
// (18 MB for tiny, 0.5 GB for large) at once, instead of after the
// collector finds them unreachable; decoders made from a must not be
// used after it. Calling it again, or on features without them, does
// nothing.
func (a *AudioFeatures) Release() {
	if a.kv != nil {
		a.kv.release()
		a.kv = nil
	}
}

// TextDecoder is the text decoder over a growing token sequence, with a
// key/value cache (openai/whisper's kv_cache hooks). It is not safe for
// concurrent use; Clone it for each beam.
type TextDecoder interface {
	// Forward appends tokens at positions Len()…Len()+len(tokens)−1 and
	// returns their logits, one row of NVocab per appended token. The
	// rows are valid until the next call to Forward.
	Forward(tokens []int) ([][]float32, error)
	// Len returns the number of tokens in the cache.
	Len() int
	// Clone returns an independent copy (cache included), as beam search's
	// rearrange_kv_cache needs.
	Clone() TextDecoder
	// CrossQK returns the raw (pre-softmax, scaled) cross-attention
	// scores of decoder layer l, head h for every position processed so
	// far, Len() rows of Frames, when NewDecoder was told to record that
	// head; else nil.
	CrossQK(l, h int) [][]float32
}
