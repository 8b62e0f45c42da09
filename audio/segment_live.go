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
// frame speech that it has decided in the audio the Segmenter holds (not
// yet returned in a segment); true without a detector. Live
// transcription shows a partial transcript only then, so that noise
// costs no decoding and shows no text; the detector decides a frame 1 s
// after it, so this comes about 1 s after speech starts.
func (sg *Segmenter) HeardSpeech() bool {
	if sg.vad == nil {
		return true
	}
	for j := max(sg.offset/VADHop, sg.vad.Forgotten()); j < sg.vad.Decided(); j++ {
		if sg.vad.Speech(j) {
			return true
		}
	}
	return false
}
