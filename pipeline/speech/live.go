package speech

import (
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// Live transcription (pipeline/stream) decodes a recording while it
// arrives with the pieces of a Transcriber: LiveSegmenter cuts it where
// Stream would, Segment decodes each speech segment as Stream does (so
// the final text equals the file's transcript), and Partial re-decodes
// the utterance still being spoken with a cheap search.

// LiveSegmenter returns the voice-activity segmenter that cuts stream as
// Stream cuts a file with VAD on (TranscribeOptions.Segment, the model's
// ChunkLength or DefaultChunkLength): over a live stream (one whose Read
// returns audio.ErrPending while it waits) it returns each segment as
// soon as its end is known. A model that cuts recordings itself
// (ModelInfo.OwnChunking) is cut the same way here, at pauses, since a
// live recording cannot be held whole: its live transcript is then that
// of these cuts, not of its own.
func (t *Transcriber) LiveSegmenter(stream audio.Stream) (*audio.Segmenter, error) {
	so := t.opts.Segment
	if so.MaxLength == 0 {
		so.MaxLength = t.Model.Info().ChunkLength
	}
	if so.MaxLength == 0 {
		so.MaxLength = DefaultChunkLength
	}
	if so.VAD == nil {
		so.VAD = &audio.VADOptions{}
	}
	return audio.NewSegmenter(stream, &so)
}

// Segment decodes one segment as Stream does (a NoSpeech segment is not
// decoded) and returns its chunk, timed from the recording's start, and
// how long decoding it took.
func (t *Transcriber) Segment(s audio.Segment) (Chunk, time.Duration, error) {
	c, err := t.segment(s)
	if err != nil {
		return Chunk{}, 0, err
	}
	c.place(s, true)
	return c.Chunk, time.Duration(c.decode * float64(time.Second)), nil
}

// Partial returns a quick transcript of samples (mono, SampleRate): the
// model's Partial decode (DecodeOptions.Partial) of their audible part,
// "" for audio too short or without speech.
func (t *Transcriber) Partial(samples []float32) (string, error) {
	if len(samples) < speechmodel.SampleRate/40 {
		return "", nil
	}
	samples, _, silent := audible(samples, speechmodel.SampleRate)
	if silent {
		return "", nil
	}
	e, err := t.dec.Encode(samples)
	if err != nil {
		return "", err
	}
	h, err := t.dec.Decode(e, &speechmodel.DecodeOptions{Partial: true, DetectNoSpeech: true})
	if err != nil {
		return "", err
	}
	return h.Text, nil
}
