// Package speech runs attend's speech recognizer (package asr) end to
// end: audio files in, transcripts with word times out, and the jobs
// around it — forced alignment of a known text, batches, training,
// evaluation and the measurement of timing accuracy.
//
// # Use from Go
//
// New opens a Recognizer: the embedded default model and word language
// model for nil Options, or the model file, search and language model
// they name. It is safe for concurrent use (each call decodes with its
// own Transcriber over the shared, read-only model):
//
//	rec, err := speech.New(nil)
//	…
//	t, err := rec.TranscribeFile(ctx, "talk.wav") // or rec.Transcribe(ctx, r) for any io.Reader
//	fmt.Println(t.Text)                            // t.Chunks: times, words, confidences
//
// Segments hands each chunk to a function as soon as it is decoded, in
// order, for text that streams while a long recording is decoded; an
// error from the function stops the transcription. All three stop
// between chunks (at most DefaultChunkLength of audio each) once the
// context is done, with an error wrapping context.Cause. A reader that
// can seek (*os.File) is decoded as it is read, in bounded memory; any
// other is read into memory first. Errors start with "speech: " or the
// file's path. The Transcriber below is the lower-level API the commands
// use (decoded streams, forced alignment, options per call).
//
// # Speech models
//
// Everything here talks to a Model (model.go): a family's network with
// its decoding options, which hands each goroutine a Decoder that
// encodes the 16 kHz samples of one chunk, decodes it into a Hypothesis
// (text, timed words, scored tokens, the attention to draw) and forces a
// known text through a recording's chunks. VAD, chunking, formats,
// batches, the server, its page and eval never ask which family they
// hold. NewLAS makes the Listen-Attend-Spell network of package asr a
// Model (model_las.go); Open opens a model file, choosing its family.
// A family that cuts recordings itself (Whisper's 30-s windows) says so
// in its ModelInfo and gets each recording whole.
//
// # Transcription
//
// A Transcriber (one per goroutine; the model may be shared) decodes a
// recording chunk by chunk, so memory stays bounded whatever its length.
// For the LAS model (the Frontend and the asr calls are its Decoder's):
//
//	File / Stream     any rate and channel count → 16 kHz mono; the voice
//	                  activity detector (audio.VAD) marks non-speech, which
//	                  is skipped, and speech is cut at pauses into chunks of
//	                  ≤ 12 s (audio.Segmenter; below)
//	Frontend          80 log-mel bins, 25 ms window, 10 ms hop, per-chunk CMVN
//	                  → x (frames, 80)
//	asr.Model.Encode  listener → h (T, 2H), one frame per r input frames
//	                  (r = 6, 60 ms, for the default model), and the CTC
//	                  head's log-posteriors (T, V)
//	decode.Decode  beam search → characters y_1…y_n, each with its
//	                  attention row α_i (T) and log p(y_i | y_<i, x)
//	word timing       characters → words with times and confidences (below)
//
// The Transcript holds the text and, per chunk, its span, text and Words;
// Fallback says why the CTC best path replaced the attention output of a
// chunk, if it did, and FromCTC that joint rescoring preferred a
// transcript only the CTC prefix or phone beam found. WriteTranscript prints it as
// txt, json (the Transcript itself: see Transcript, Chunk and Word for
// the fields), srt or vtt (Cues: ≤ 10 words and ≤ 6 s per subtitle).
// BatchFactory runs transcription over many files with package batch;
// Evaluate scores a manifest with the same Transcriber, so that its
// figures are those of the text "asr transcribe" prints.
//
// # Voice activity
//
// By default a Transcriber decodes only what audio.VAD calls speech
// (see the audio package comment for its features and classifier). The
// segmenter returns the stretches without speech as chunks of their own,
// which are not decoded: their Chunk has NoSpeech set, an empty text and
// no words, so they print nothing in txt (a file without speech prints an
// empty line), no subtitle in srt or vtt, and "no_speech": true in json.
// Every chunk's NoSpeechScore is 1 minus the detector's highest speech
// probability in it. The model's own evidence is added where the
// detector lets something through: a chunk whose CTC best path is all
// blank is NoSpeech too. Speech chunks are at most DefaultChunkLength
// (12 s), the length of the longest utterances the default model learnt from,
// and cut in the pauses the detector finds (the longest one in the last
// 3 s before the limit), with 200 ms of context kept on each side of the
// speech; a chunk longer than 6 s is also cut at its longest pause of at
// least 0.3 s that leaves 3 s on each side (audio.SegmentOptions
// SentencePause, SentenceLength), since sentences read one after the
// other are often parted by pauses too short to end a chunk, and the
// speller, trained on single sentences, stops at the first one's end.
// Digital silence at a chunk's ends (muted or inserted pauses, zero
// padding) is not decoded: at the log-mel floor, it skewed the chunk's
// normalization (see audible). TranscribeOptions.NoVAD (asr transcribe
// -vad=false) decodes everything as before, in chunks of ≤ 15 s cut at
// the quietest point.
//
// Measured with the flag-gated tests of vad_eval_test.go (commands
// there), default model and beam: two hours of digital silence take
// 1.5 s through asr transcribe (4.5 minutes before, with 480 chunks of
// invented letters); the detector drops the audio of 0.17 % of the words
// of the 360 speechocean762 dev utterances and none of the 25 native
// dev ones (TestVADWordLoss). On recordings of dev utterances joined by
// 0.3–1.5 s of digital silence, decoded by the stage 4 model as asr
// transcribe did by default before its beams grew from 8 to 12
// (TestJoinedWER -eval.beam 8 -eval.ctc-beam 8 -eval.lm default, seed 1),
// WER and the share of chunks whose text came from CTC (Chunk.FromCTC)
// are (the README has the figures of the shipped model):
//
//	                               2 × 60 s          2 × 300 s
//	one by one, no VAD             50.7 %, 5 %       58.2 %, 8 %
//	one by one, VAD                52.7 %, 19 %      60.3 %, 13 %
//	joined, no VAD (15 s chunks)   70.3 %, 0 %       80.2 %, 24 %
//	joined, VAD (≤ 12 s chunks)    48.0 %, 25 %      58.9 %, 12 %
//
// Joined speech scores within 5 points of the same utterances one by one
// (seed 2: 60.2 % against 57.8 % at 60 s, 61.8 % against 60.2 % at
// 300 s; the 360 dev utterances as one 32-minute recording: 63.6 %
// against 62.1 %), and so with white noise at the clips' level in
// the pauses (-eval.pause-noise 0.0014 -eval.seconds 300: 61.9 % against
// 60.2 %; seed 2: 62.3 % against 57.9 %, 66.5 % with the previous model
// before the detector's steady-noise rule, when it called much of that
// noise speech and merged sentences). Chunks keep SpeechPad (200 ms) of the pauses
// around their speech, NoisePad (150 ms) of steady noise, and no more
// (audio.SegmentOptions.Margin): the rest of a pause is noise the
// recognizer would decode.

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
// Transcriber.Align and AlignStream time the words of a known text
// (subtitles for a script): the text is normalized (speechdata.Normalize)
// and forced through the speller (asr.Model.Align, teacher forcing), whose
// attention rows and log-probabilities go through the word timing above.
// Long audio is cut into chunks of ≤ AlignChunkLength (8 s), and the words
// are shared out among them by the most likely CTC alignment of the whole
// text to the whole recording (decode.CTCSplit): a word goes to the chunk
// holding its middle character; then the speller moves each boundary by
// up to two words to the sharing under which it finds the text most
// likely, which mends CTC's mistakes at the edges of chunks. The
// transcript shows the script's words as written, each with the
// normalized words it was aligned as, and scores how well the script fits
// the audio (Transcript.ScriptScore, MismatchScore). TimingAccuracy measures both kinds of
// alignment against the true word starts of synthetic clips, and
// AlignmentPlots draws the spectrogram over the attention with the word
// starts marked.
//
// # Training and evaluation
//
// Train fits a model on speech manifests (package speechdata) with
// bucketed graphs, SpecAugment and checkpoints it can resume from (the
// loop is pipeline/trainloop's, shared with caption train; the best model
// is the one of lowest dev CER, and progress lines report hours of audio
// trained on per wall-clock hour). Loading can add speed-perturbed copies
// of the real speech and augmented ones (TrainOptions.Augment: VTLP,
// reverberation, babble or coloured noise, telephone line; see
// augment.go), seeded per utterance and copy so that they do not depend
// on the number of workers;
// TrainWordLM fits a word n-gram model (package ngram, ARPA) on normalized
// text or transcripts and LMPerplexity scores text with one; TrainLM fits
// the character language model for shallow fusion; Evaluate scores a
// manifest (WER, CER, real-time factor) by transcribing each utterance
// as "asr transcribe" does. The dev figure Train logs is quicker and
// not the same: greedy search over each utterance's features whole,
// without VAD, chunking or the trimming of digital silence.
package speech
