// Package speechmodel is the speech-model interface of attend's pipeline
// and the two families behind it: our Listen-Attend-Spell network
// (models/asr, searched by models/asr/decode with the language models of
// models/lm) and OpenAI's Whisper (models/whisper). The jobs that use a
// model — transcription, chunking, formats and forced alignment (package
// speech), evaluation (speecheval), live transcription (stream) and the
// server — see only the interface, as x/image/draw's users see only an
// Interpolator.
//
// # Speech models
//
// The pipeline talks to a Model (model.go): a family's network with its
// decoding options, which hands each goroutine a Decoder that encodes the
// 16 kHz samples of one chunk, decodes it into a Hypothesis (text, timed
// words, scored tokens, the attention to draw) and forces a known text
// through a recording's chunks. VAD, chunking, formats, batches, the
// server, its page and eval (packages speech, speecheval, stream, server)
// never ask which family they hold. NewLAS makes the Listen-Attend-Spell
// network of package asr a Model (model_las.go), NewWhisper and
// OpenWhisper a Whisper checkpoint (model_whisper.go); Open opens a model
// file or a published Whisper model's name, choosing its family by the
// file's content. A family that cuts recordings itself (Whisper's 30-s
// windows) says so in its ModelInfo and gets each recording whole.
//
// # LAS
//
// A LAS Decoder turns one chunk into a hypothesis in four steps:
//
//	Frontend          80 log-mel bins, 25 ms window, 10 ms hop, per-chunk CMVN
//	                  → x (frames, 80)
//	asr.Model.Encode  listener → h (T, 2H), one frame per r input frames
//	                  (r = 6, 60 ms, for the default model), and the CTC
//	                  head's log-posteriors (T, V)
//	decode.Decode     beam search → characters y_1…y_n, each with its
//	                  attention row α_i (T) and log p(y_i | y_<i, x)
//	word timing       characters → words with times and confidences (below)
//
// Its search and language model are fixed when it is made: SearchOptions
// (decode.Options) and a LanguageModel, whose Apply loads an ARPA or
// binary word n-gram with its lexicon, or a character LSTM LM, for the
// model's vocabulary. LoadModel, OpenModel and ExportModel read and write
// its model files (safetensors; training checkpoints too).
//
// # Word times
//
// Transcription and forced alignment time words the same way. Each
// character i of a chunk is placed on one encoder frame t_i, the frames
// of the best non-decreasing path (decode.MonotonicFrames):
//
//	t_0 ≤ t_1 ≤ … ≤ t_{n−1} = argmax Σ_i log(α_i(t_i) + ε) + log y_{t_i}(c_i)
//
// where α_i is the character's attention row, y_t(c) the CTC head's
// posterior of character c at frame t (the term is left out for a model
// trained without a CTC head) and ε = 1e-8. Words are the runs of
// characters between spaces; a word spans [t_first·Δ, (t_last+1)·Δ)
// relative to its chunk, Δ = 10 ms · r, pushed to start no
// earlier than the word before it ends and to last at least one frame.
// Its Confidence is exp((1/m) Σ log p(c_j)) over its m characters: the
// geometric mean of their probabilities under the speller (under the CTC
// head after a fallback, whose one-hot rows pin the path to the frames
// where the CTC best path emitted each character).
//
// Reading each character's attention peak instead fails on inputs unlike
// the training data (words separated by long pauses): a stray second
// peak stretches a word, and the speller runs ahead of the audio across a
// pause. On 50 synthetic clips of 6 espeak-ng words joined by 0.15–0.5 s
// pauses (asr timing -mode forced -clips 50, seeds 3 and 4; the first two
// rows with that derivation swapped in), the share of word starts within
// 100 ms of the truth is, with the default model:
//
//	first-character attention peak     45.0%, 48.0%  (median error 340, 240 ms)
//	monotonic path, attention alone    73.7%, 74.3%  (29, 32 ms)
//	monotonic path, attention + CTC    91.7%, 92.7%  (20, 19 ms)
//
// Free decoding gets no figure there: the default model recognizes none
// of those isolated words (asr timing -mode free compares 0 words, with
// beam 4 as with beam 1), and it falls back to CTC on 48 of seed 3's 50
// clips. On 209 speechocean762 training utterances (every 12th), the
// starts of the words it does recognize lie within 100 ms of where forced
// alignment of the reference puts them for 84.8% of 256 words with beam 4
// and 84.6% of 188 with beam 1, against 75.8% and 73.4% from attention
// peaks (half the utterances or more fall back to CTC, whose frames both
// share).
//
// # Forced alignment
//
// The LAS Decoder's Align forces a normalized text through the speller
// (asr.Model.Align, teacher forcing), whose attention rows and
// log-probabilities go through the word timing above. The words are
// shared out among a long recording's chunks by the most likely CTC
// alignment of the whole text to the whole recording (decode.CTCSplit): a
// word goes to the chunk holding its middle character; then the speller
// moves each boundary by up to two words to the sharing under which it
// finds the text most likely, which mends CTC's mistakes at the edges of
// chunks (align_share.go).
package speechmodel
