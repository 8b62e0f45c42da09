package speech

import (
	"errors"
	"io"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// segmenter cuts a recording into the chunks a Transcriber decodes one
// by one: an audio.Segmenter, or a wholeRecording for a model that cuts
// recordings itself.
type segmenter interface {
	Next() (audio.Segment, error)
}

// segmenter returns the chunks of stream for t's model: cut with so
// (its zero MaxLength meaning the model's ModelInfo.ChunkLength, else
// fallback, else audio's 15 s) and with voice activity detection when
// vad, or the whole recording for a model with ModelInfo.OwnChunking.
func (t *Transcriber) segmenter(stream audio.Stream, so audio.SegmentOptions, vad bool, fallback time.Duration) (segmenter, error) {
	info := t.Model.Info()
	if info.OwnChunking {
		return newWholeRecording(stream)
	}
	if so.MaxLength == 0 {
		so.MaxLength = info.ChunkLength
	}
	if so.MaxLength == 0 {
		so.MaxLength = fallback
	}
	so.VAD = nil
	if vad {
		so.VAD = t.opts.Segment.VAD
		if so.VAD == nil {
			so.VAD = &audio.VADOptions{}
		}
	}
	return audio.NewSegmenter(stream, &so)
}

// wholeRecording is a recording as one segment, mono at SampleRate.
type wholeRecording struct {
	src  audio.Stream
	done bool
}

func newWholeRecording(s audio.Stream) (*wholeRecording, error) {
	s, err := audio.DownmixStream(s)
	if err != nil {
		return nil, err
	}
	if s, err = audio.ResampleStream(s, speechmodel.SampleRate); err != nil {
		return nil, err
	}
	return &wholeRecording{src: s}, nil
}

// Next returns the whole recording, then io.EOF; a recording without
// samples has no segment.
func (w *wholeRecording) Next() (audio.Segment, error) {
	if w.done {
		return audio.Segment{}, io.EOF
	}
	w.done = true
	var samples []float32
	buf := make([]float32, 1<<16)
	for {
		n, err := w.src.Read(buf)
		samples = append(samples, buf[:n]...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return audio.Segment{}, err
		}
	}
	if len(samples) == 0 {
		return audio.Segment{}, io.EOF
	}
	return audio.Segment{Samples: samples, Rate: speechmodel.SampleRate, End: len(samples), SpeechProbability: 1}, nil
}
