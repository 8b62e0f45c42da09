// Package stream transcribes speech while it arrives: from a microphone
// through a pipe, a WebSocket or an HTTP upload still being sent.
//
// # How it decodes
//
// A Streamer is fed 16 kHz mono samples in pieces of any size (Write; a
// PCM decoder turns raw 16-bit PCM of any rate and channel count into
// them). Behind it:
//
//   - the voice activity detector endpoints utterances as audio arrives
//     (speech.Transcriber.LiveSegmenter over a live audio.Stream): the
//     same cuts as "asr transcribe" makes of the whole recording, each
//     known once its pause is (about 1.5 s of audio after the cut: the
//     detector decides a frame 1 s later, and a pause is 300 ms of
//     non-speech past 200 ms of padding);
//   - while an utterance is open, every PartialInterval of audio the
//     audio since the last cut, once the detector calls some of it
//     speech (or would, were the stream to end there:
//     audio.Segmenter.HeardSpeech), is re-decoded with the model's cheap
//     search (speechmodel.DecodeOptions.Partial: the LAS CTC head's best
//     path) into a Partial event when its text changes;
//   - when the detector closes an utterance, it is decoded with the
//     model's full search exactly as a file's chunk is
//     (speech.Transcriber.Segment): a Final event with its text, times
//     and words, the same as the offline transcript of that chunk.
//
// The clock is the audio itself: a partial falls due after each
// PartialInterval of samples written, so tests feed a file in pieces
// and get the same events however fast they run. A caller that falls
// behind real time hands the Streamer everything that arrived meanwhile
// in one Write: it then decodes one partial for it, not one per
// interval, and catches up; Options.PartialLoad also spaces partials out
// when each costs more than its share of real time.
//
// Memory is bounded: the Streamer holds the audio since the last cut
// (at most the longest chunk plus the detector's 1.6 s look-ahead)
// however long the stream.
package stream
