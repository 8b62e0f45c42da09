package audio

import "errors"

// ErrPending is what a live Stream's Read returns when it has no samples
// yet but the stream goes on: audio arriving from a microphone, a pipe
// or a socket. A Segmenter reading such a stream returns ErrPending from
// Next instead of waiting for the look-ahead a cut needs; calling Next
// again once more samples have arrived goes on where it stopped.
//
// The segments are the same as over the whole recording at once: a
// speech segment is returned once the detector has seen the pause that
// ends it (MinNoSpeech of non-speech, decided 1 s of audio later, see
// VAD), and only the NoSpeech stretches come in more pieces, each
// returned as soon as it is known to be quiet. With voice activity
// detection, a speech segment therefore ends about SpeechPad +
// MinNoSpeech + 1 s (1.5 s by default) of audio before Next returns it.
var ErrPending = errors.New("audio: no samples yet")

// HeardSpeech reports whether the voice activity detector called any
// frame speech in the audio the Segmenter holds (not yet returned in a
// segment): a decided frame, or a run of provisionalRun frames among the
// undecided ones that it would call speech if the stream ended there
// (VAD.Provisional); true without a detector. Live transcription shows a
// partial transcript only then, so that noise costs no decoding and shows
// no text, without waiting the second the detector's decisions take.
func (sg *Segmenter) HeardSpeech() bool {
	if sg.vad == nil {
		return true
	}
	v := sg.vad
	from := max(sg.offset/VADHop, v.Forgotten())
	for j := from; j < v.Decided(); j++ {
		if v.Speech(j) {
			return true
		}
	}
	run := 0
	for j := max(from, v.Decided()); j < v.Analyzed(); j++ {
		if v.Provisional(j) <= v.threshold {
			run = 0
		} else if run++; run >= provisionalRun {
			return true
		}
	}
	return false
}

// provisionalRun is how many consecutive undecided frames (100 ms) must
// look like speech for HeardSpeech.
const provisionalRun = 5
