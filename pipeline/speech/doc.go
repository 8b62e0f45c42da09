// Package speech transcribes recordings with any speech model of package
// speechmodel: audio files in, transcripts with word times out, and the
// jobs around it — voice activity detection and chunking, the output
// formats (txt, json, srt, vtt), forced alignment of a known text,
// batches and live segments. It reaches a network only through the
// speechmodel.Model interface and never asks which family it holds
// (models/layering_test.go enforces it: this package imports no model).
// Evaluation is package speecheval, training speechtrain and speechlm.
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
// # Transcription
//
// A Transcriber (one per goroutine; the model may be shared) decodes a
// recording chunk by chunk, so memory stays bounded whatever its length:
//
//	File / Stream     any rate and channel count → 16 kHz mono; the voice
//	                  activity detector (audio.VAD) marks non-speech, which
//	                  is skipped, and speech is cut at pauses into chunks of
//	                  ≤ 12 s (audio.Segmenter; below)
//	Decoder.Encode    the model's front end and encoder over one chunk
//	Decoder.Decode    its search → a speechmodel.Hypothesis: text, timed
//	                  words, scored tokens (for the LAS model, see
//	                  package speechmodel's "LAS": log-mel, listener, joint
//	                  CTC/attention beam search, word times)
//
// The Transcript holds the text and, per chunk, its span, text and Words;
// Fallback says why the CTC best path replaced the attention output of a
// chunk, if it did, and FromCTC that joint rescoring preferred a
// transcript only the CTC prefix or phone beam found. WriteTranscript prints it as
// txt, json (the Transcript itself: see Transcript, Chunk and Word for
// the fields), srt or vtt (Cues: ≤ 10 words and ≤ 6 s per subtitle).
// BatchFactory runs transcription over many files with package batch;
// speecheval.Evaluate scores a manifest with the same Transcriber, so
// that its figures are those of the text "asr transcribe" prints.
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
//
// # Forced alignment
//
// Transcriber.Align and AlignStream time the words of a known text
// (subtitles for a script): the text is normalized (speechdata.Normalize)
// and forced through the model (speechmodel.Decoder.Align), which times
// each word as it times the words of a transcript. Long audio is cut into
// chunks of ≤ AlignChunkLength (8 s), without voice activity detection,
// and the model shares the words out among them (for LAS, see package
// speechmodel). The transcript shows the script's words as written, each
// with the normalized words it was aligned as, and scores how well the
// script fits the audio (Transcript.ScriptScore, MismatchScore).
// AlignmentPlots draws the spectrogram under the attention with the word
// starts marked; speecheval.TimingAccuracy measures both kinds of
// alignment against the true word starts of synthetic clips.
package speech
