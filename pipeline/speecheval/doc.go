// Package speecheval measures a speech model (any family of package
// speechmodel) the way users meet it: through package speech's
// Transcriber, so that every figure is that of the text "asr transcribe"
// prints.
//
// Evaluate scores a manifest (package speechdata): WER and CER with
// substitution, deletion and insertion counts, and the real-time factor,
// per utterance (Scored) and summed (Scores). TimingAccuracy measures
// word times, of free transcription and of forced alignment, against the
// true word starts of synthetic clips (package synth).
package speecheval
