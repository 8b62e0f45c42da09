package stream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/internal/input"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// Play decodes the audio file at path ("-": stdin) and hands its
// samples, mono at speechmodel.SampleRate, to send in pieces of 100 ms, each
// when its time comes at speed times real time (0: as fast as it
// decodes): a file played as if it arrived from a microphone, for
// demonstrations and tests of the live path. It stops when ctx is done
// (returning nil) or send fails (returning its error).
func Play(ctx context.Context, path string, stdin io.Reader, speed float64, send func([]float32) error) error {
	r, closeFn, err := input.Open(path, stdin)
	if err != nil {
		return err
	}
	defer closeFn()
	s, _, err := audio.Open(r)
	if err == nil {
		if s, err = audio.DownmixStream(s); err == nil {
			s, err = audio.ResampleStream(s, speechmodel.SampleRate)
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", input.DisplayName(path), err)
	}
	start, sent := time.Now(), 0
	for {
		piece := make([]float32, speechmodel.SampleRate/10)
		n, err := fill(s, piece)
		if n > 0 {
			sent += n
			if speed > 0 {
				due := time.Duration(float64(sent) / speechmodel.SampleRate / speed * float64(time.Second))
				select {
				case <-time.After(time.Until(start.Add(due))):
				case <-ctx.Done():
					return nil
				}
			}
			if ctx.Err() != nil {
				return nil
			}
			if err := send(piece[:n]); err != nil {
				return err
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", input.DisplayName(path), err)
		}
	}
}

// fill reads s until dst is full, the stream ends (io.EOF, with what was
// read) or fails.
func fill(s audio.Stream, dst []float32) (int, error) {
	n, empty := 0, 0
	for n < len(dst) {
		k, err := s.Read(dst[n:])
		n += k
		switch {
		case err != nil:
			return n, err
		case k == 0:
			if empty++; empty > 100 {
				return n, io.ErrNoProgress
			}
		default:
			empty = 0
		}
	}
	return n, nil
}
