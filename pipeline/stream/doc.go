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
//     (speech.Transcriber.LiveSegmenter over a live audio.Stream) with
//     its live endpointer (audio.SegmentOptions.EndSilence, set by
//     Options.EndSilence): an utterance ends once EndSilence (600 ms)
//     of non-speech has followed its last speech by the detector's
//     provisional probabilities, and is cut where "asr transcribe" cuts
//     the whole recording (200 ms after that speech) unless its pause
//     is shorter than the whole recording's 700 ms rule, so the final
//     comes 0.4–0.5 s of audio after the cut instead of the 1.6 s the
//     detector's decisions take (EndSilence < 0 waits for them: the
//     cuts are then exactly the whole recording's);
//   - as soon as the non-speech after the speech covers the cut
//     (audio.Segmenter.Tentative), the segment is decoded with the full
//     search while the endpointer waits; when the endpointer cuts that
//     same segment, this decoding is the final, so the final's decoding
//     does not add to its latency (after a final whose decoding took
//     longer than the endpointer waits, as a Whisper model's whole
//     window does, it is not: a pause mistaken for an end would waste a
//     whole decoding);
//   - while an utterance is open, every PartialInterval of audio the
//     audio since the last cut, once the detector calls some of it
//     speech (or would, were the stream to end there:
//     audio.Segmenter.HeardSpeech), is re-decoded with the model's cheap
//     search (speechmodel.DecodeOptions.Partial: the LAS CTC head's best
//     path; for Whisper a greedy pass over a reduced audio context just
//     longer than the utterance) into a Partial event when its text
//     changes; once the speech has ended and its speculation (above)
//     found words, that text is the partial instead, and nothing decodes
//     the utterance again before the endpointer cuts it;
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
// however long the stream (TestStreamHour streams an hour).
package stream
