//go:build unix

package stream_test

import (
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/pipeline/speechdata"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/stream"
)

// TestStreamHour streams ATTEND_STREAM_HOUR minutes of audio (60 for an
// hour) through a Streamer with the default model and options as fast as
// it decodes (time-compressed: no real-time waits), and reports the
// process's peak resident set size and the Go heap in use after 10, 30
// and 60 minutes of audio (or those fractions of a shorter run): the
// Streamer holds only the audio since the last cut, so both stay level
// however long the stream. The audio is speechocean762 dev utterances
// cycled with 1–2 s pauses, and every 10 minutes a minute of faint white
// noise (a long stretch with no speech). ATTEND_STREAM_MODEL=FILE takes
// another model; ATTEND_STREAM_CHEAP=1 decodes greedily without partials
// (the Streamer's buffers are the same; an hour then costs a minute or
// two of CPU instead of ten). Not in the default suite.
func TestStreamHour(t *testing.T) {
	minutes, err := strconv.Atoi(os.Getenv("ATTEND_STREAM_HOUR"))
	if err != nil || minutes <= 0 {
		t.Skip("skipping: set ATTEND_STREAM_HOUR=MINUTES (60: an hour) to stream that much audio")
	}
	utts, err := speechdata.Read(shareddata.Path(t, "speechocean762/train.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	_, dev, err := speechdata.SplitBySpeaker(utts, 12, 1)
	if err != nil {
		t.Fatal(err)
	}
	clips := make([][]float32, min(len(dev), 50))
	for i := range clips {
		sig, err := speechmodel.Load(dev[i].Path, nil)
		if err != nil {
			t.Fatal(err)
		}
		clips[i] = sig.Samples
	}
	dec := speechmodel.DefaultDecoding()
	opts := stream.Options{PartialLoad: stream.DefaultPartialLoad}
	if os.Getenv("ATTEND_STREAM_CHEAP") != "" {
		dec.Search.Beam, opts.PartialInterval = 1, -1
	}
	m, err := speechmodel.Open(os.Getenv("ATTEND_STREAM_MODEL"), &dec)
	if err != nil {
		t.Fatal(err)
	}
	s, err := stream.New(m, &opts)
	if err != nil {
		t.Fatal(err)
	}
	total := minutes * 60 * rate
	marks := []int{total / 6, total / 2, total} // 10, 30, 60 min of an hour
	rng := rand.New(rand.NewPCG(1, 60))
	piece := make([]float32, rate/10)
	var written, finals, words, clip, pos int
	noise := 0 // samples of noise left to write
	start := time.Now()
	for written < total {
		// Fill a piece: the current clip, its pause, or noise.
		for i := range piece {
			switch {
			case noise > 0:
				piece[i] = float32(rng.NormFloat64() * 0.002)
				noise--
			case pos < len(clips[clip%len(clips)]):
				piece[i] = clips[clip%len(clips)][pos]
				pos++
			case pos < len(clips[clip%len(clips)])+rate+(clip%5)*rate/4:
				piece[i] = 0
				pos++
			default:
				clip, pos = clip+1, 0
				piece[i] = 0
			}
			if (written+i)%(10*60*rate) == 5*60*rate {
				noise = 60 * rate
			}
		}
		ev, err := s.Write(piece)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ev {
			if e.Final {
				finals++
				words += len(e.Words)
			}
		}
		before := written
		written += len(piece)
		for _, mk := range marks {
			if before < mk && written >= mk {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				t.Logf("%5.1f min of audio: %d finals (%d words), peak RSS %d MiB, heap in use %d MiB, %.0f s since the start",
					float64(written)/rate/60, finals, words, peakRSS(t)>>20, ms.HeapInuse>>20, time.Since(start).Seconds())
			}
		}
	}
	if _, err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if finals == 0 {
		t.Fatal("no finals")
	}
}
