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
