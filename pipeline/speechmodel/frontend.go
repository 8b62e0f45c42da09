package speechmodel

import (
	"fmt"

	"github.com/attend-go/attend/audio"
)

// Frontend turns 16 kHz mono samples into the model's input: 80-bin
// log-mel filterbank frames (25 ms Povey window, 10 ms hop; Kaldi
// compatible) normalized per utterance to zero mean and unit variance
// (CMVN). One Frontend per goroutine.
type Frontend struct {
	fbank *audio.Fbank
	feats audio.Features
}

// NewFrontend returns the front end the ASR models were trained with.
func NewFrontend() (*Frontend, error) {
	fb, err := audio.NewFbank(nil)
	if err != nil {
		return nil, err
	}
	return &Frontend{fbank: fb}, nil
}

// SetWarp sets the VTLP factor of later Computes (audio.Fbank.SetWarp):
// 1 for the model's own features, others only to augment training data.
func (f *Frontend) SetWarp(alpha float64) error { return f.fbank.SetWarp(alpha) }

// FrameSeconds is the hop between frames.
const FrameSeconds = 0.010

// Compute returns the normalized frames (frames, 80) of samples at rate,
// owned by f until its next Compute.
func (f *Frontend) Compute(samples []float32, rate int) (*audio.Features, error) {
	if err := f.fbank.Compute(&f.feats, samples, rate); err != nil {
		return nil, err
	}
	if f.feats.Frames == 0 {
		return nil, fmt.Errorf("audio too short for one %d-sample frame", rate/40)
	}
	if err := audio.CMVN(&f.feats); err != nil {
		return nil, err
	}
	return &f.feats, nil
}
