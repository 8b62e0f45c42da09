package speech

// Decoding holds the decoding options of every model family; Open gives
// a model those of its family and ignores the others.
type Decoding struct {
	// Search and LM configure a LAS model's beam search and the
	// language model fused in it (LanguageModel.Apply loads it for the
	// model's vocabulary).
	Search SearchOptions
	LM     LanguageModel
}

// DefaultDecoding returns what "asr transcribe" decodes with unless told
// otherwise: DefaultSearchOptions and DefaultLanguageModel.
func DefaultDecoding() Decoding {
	return Decoding{Search: DefaultSearchOptions(), LM: DefaultLanguageModel()}
}

// Open opens the speech model at path ("": the embedded default model)
// for transcription, with its family's options of d (nil:
// DefaultDecoding). It is where a model file's family is chosen, and so
// where a new family joins: today every file is a LAS model (a
// safetensors file of "asr train", see OpenModel); a Whisper file
// (whisper.cpp's ggml .bin, Hugging Face safetensors) will be recognized
// here and opened by its own Model. Commands that take -model call it.
func Open(path string, d *Decoding) (Model, error) {
	if d == nil {
		def := DefaultDecoding()
		d = &def
	}
	m, err := OpenModel(path)
	if err != nil {
		return nil, err
	}
	search := d.Search
	if err := d.LM.Apply(m, &search); err != nil {
		return nil, err
	}
	return NewLAS(m, &search), nil
}
