package speechmodel

import "time"

// Model is a speech recognition model as the pipeline sees it: whatever
// its family (Listen-Attend-Spell, NewLAS; Whisper next), it turns the
// samples of one chunk of a recording into a hypothesis: text, words
// with times, tokens with their scores, and the attention to draw. The
// Transcriber (VAD, chunking, forced alignment), the output formats,
// batches, the server and its page talk to a Model and never ask which
// family they hold.
//
// A Model is shared read-only by every goroutine that decodes with it;
// the state of a search (front end buffers, encoder workspace, caches)
// lives in the Decoders it hands out, one per goroutine. A family's
// decoding options (beam width, language model, temperatures, …) are
// fixed when its Model is made (NewLAS takes the LAS search), so the
// interface carries only what the pipeline itself decides.
//
// To add a family: implement Model and Decoder over the network (in a
// file of its own here, as model_las.go does for the LAS model; the
// network itself stays in models/), and make Open recognize its files.
type Model interface {
	// Info describes what the pipeline must know of the model: the
	// time step of its attention and how it wants recordings cut.
	Info() ModelInfo
	// NewDecoder returns a Decoder for one goroutine. Decoders of one
	// Model may run at once.
	NewDecoder() (Decoder, error)
}

// ModelInfo is what the pipeline knows of a Model.
type ModelInfo struct {
	// Family names the model family ("las", "whisper"), for logs,
	// answers and clients that ask for a family by name (the server's
	// "whisper-1", OpenAI's name for Whisper); how a model is run never
	// depends on it.
	Family string
	// EncoderFrameSeconds is the time step of the columns of
	// Hypothesis.Alignment (the encoder frames attention reads): the
	// LAS listener's reduction × 10 ms, 20 ms for Whisper's encoder.
	EncoderFrameSeconds float64
	// ChunkLength is the longest chunk the Transcriber cuts for the
	// model; 0 means the pipeline's defaults, made for models trained on
	// utterances of a few seconds: DefaultChunkLength with voice
	// activity detection, 15 s cut at the quietest point without.
	ChunkLength time.Duration
	// OwnChunking says the family cuts a recording itself (Whisper's
	// seek loop over 30-s windows): the Transcriber then hands Encode
	// the whole recording as one chunk, VAD or not, untrimmed (digital
	// silence at its ends included), and reports one chunk. The recording is then held in memory (4 bytes a sample:
	// 230 MB an hour).
	OwnChunking bool
}

// Decoder decodes chunks with one Model, in one goroutine. The samples
// it takes are mono, at SampleRate (16 kHz), nominally in [-1, 1]; it
// computes its own features (log-mel frames, CMVN, windows) from them.
// Times in what it returns are in seconds from the first sample it was
// given.
type Decoder interface {
	// Encode runs the model's front end and encoder over the samples of
	// one chunk (at least 25 ms of them: the Transcriber hands shorter
	// chunks to no one). The Encoding stays valid after later calls:
	// forced alignment keeps a whole recording's before aligning any.
	Encode(samples []float32) (Encoding, error)
	// Decode searches an Encoding of this Model for its best transcript
	// with the Model's decoding options. With o.DetectNoSpeech it may
	// say the chunk holds no speech (Hypothesis.NoSpeech: then no text
	// and no words); with o.KeepAlignment it fills the drawing fields of
	// the Hypothesis. A nil o means the zero DecodeOptions.
	Decode(e Encoding, o *DecodeOptions) (*Hypothesis, error)
	// Align forces a known text through a recording cut into chunks, in
	// order. words are the text's words as written, each normalized
	// (speechdata.Normalize): one may be several normalized words joined
	// by spaces ("1999": "nineteen ninety nine"), which one chunk must
	// hold whole. It returns one Hypothesis per chunk whose Text is the
	// normalized words it got (joined by single spaces, "" for none),
	// whose Words time each of them and whose Tokens carry the model's
	// log-probability of the text. How the words are shared among the
	// chunks is the family's business (LAS: the CTC head's alignment of
	// the whole text, settled by the speller); every word goes to
	// exactly one chunk, in order. A text the model cannot spell is an
	// error.
	Align(chunks []Encoding, words []string, o *DecodeOptions) ([]*Hypothesis, error)
}

// Encoding is one chunk after a Decoder's encoder: opaque to the
// pipeline, handed back to the Decoder that made it.
type Encoding interface {
	// Seconds is the length of the audio encoded.
	Seconds() float64
}

// DecodeOptions is what the pipeline asks of one Decode or Align. The
// zero value means a plain transcript.
type DecodeOptions struct {
	// KeepAlignment fills Hypothesis.Alignment, CTC, Features and
	// Frames, for drawing.
	KeepAlignment bool
	// DetectNoSpeech lets the model say a chunk holds no speech
	// (Hypothesis.NoSpeech) from its own evidence: the LAS CTC head's
	// best path all blank, Whisper's no-speech probability. The
	// Transcriber sets it when voice activity detection is on.
	DetectNoSpeech bool
	// Partial asks for a quick hypothesis of audio that is still
	// arriving: live transcription re-decodes the utterance being spoken
	// every few hundred milliseconds to show what it has heard so far,
	// and decodes it with the full search once it ends. Only Text counts
	// (Words and Tokens may be empty). A family serves it with a cheaper
	// search (LAS: the CTC head's best path, no speller) or ignores it
	// and decodes as usual; either way it must cost no more than Decode.
	Partial bool
}

// Hypothesis is a Decoder's transcript of one chunk.
type Hypothesis struct {
	// Text is the transcript, words separated by single spaces.
	Text string
	// Words are its words with their spans and confidences (Word), in
	// seconds from the chunk's first sample.
	Words []Word
	// Tokens are the units the model spelled Text in (LAS: characters,
	// spaces included; Whisper: BPE pieces), each with its score.
	Tokens []Token
	// NoSpeech says the model heard no speech (DecodeOptions.DetectNoSpeech):
	// Text, Words and Tokens are empty.
	NoSpeech bool
	// Fallback, when not empty, says why the text came from another
	// search than attention (LAS: the CTC fallback; Chunk.Fallback).
	Fallback string
	// FromCTC says joint rescoring chose the CTC or phone beam's
	// transcript (Chunk.FromCTC); its words are still timed by attention.
	FromCTC bool
	// Stages is where the time of Encode and Decode went.
	Stages Stages

	// The drawing fields, filled with DecodeOptions.KeepAlignment.

	// Alignment is (len(Tokens), encoder frames): the attention weights
	// each token was spelled with, one column per
	// ModelInfo.EncoderFrameSeconds
	// (after a Fallback, one-hot at the frames the text came from).
	Alignment [][]float32
	// CTC is, after a Fallback, per token the CTC posterior at each
	// encoder frame (the same shape as Alignment): what the text came
	// from. Nil otherwise.
	CTC [][]float32
	// Features is the spectrogram the model heard, (Frames, bins)
	// row-major, one row per FrameSeconds (10 ms), the log-mel bins as
	// the model sees them, for drawing under the alignment.
	Features []float32
	Frames   int
}

// Word is one word of a transcript: its span in the recording, in
// seconds, derived from the alignment (see the package comment's Word
// times), and the model's confidence in it.
type Word struct {
	Word string `json:"word"`
	// Normalized is, in forced alignment, the normalized words that Word,
	// a word of the script as written ("$5."), was aligned as ("five"):
	// its time spans theirs. Empty in transcription, where Word is itself
	// normalized.
	Normalized string  `json:"normalized,omitempty"`
	Start      float64 `json:"start"`
	End        float64 `json:"end"`
	// Confidence is the geometric mean of the probabilities the speller
	// gives the word's characters, exp(mean log p), in (0, 1]: of the
	// characters it chose when decoding (decode.Result.LogProbs; after a CTC
	// fallback, the CTC head's posteriors), of the text's characters in
	// forced alignment (asr.Forced.LogProbs). It ranks words by how
	// clearly the model heard them (with the default model on 209
	// speechocean762 training utterances, a correctly recognized word
	// outscores a wrong one 71–74% of the time) but is not calibrated: a
	// word of 0.6 is not right 60% of the time.
	Confidence float64 `json:"confidence"`
}

// Token is one unit of a Hypothesis.
type Token struct {
	// Text is how the token is written (" " for the LAS word boundary).
	Text string
	// LogProb is the log-probability the model gave the token where it
	// was spelled (natural log, ≤ 0).
	LogProb float32
}

// Languages is a Model that can decode a language chosen per request
// (Whisper's multilingual models; an English-only model takes English
// and refuses others). The server's language field uses it; a Model
// without it transcribes the language it was trained on.
type Languages interface {
	// WithLanguage returns the model decoding language, a code ("de") or
	// a name ("german"), or "" / "auto" to detect it; an error names a
	// language the model cannot take.
	WithLanguage(language string) (Model, error)
}
