//go:build unix

package stream_test

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/pipeline/metrics"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechdata"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/stream"
	"github.com/attend-go/attend/pipeline/synth"
)

// TestMeasureLive measures live transcription with the default model
// and decoding ("asr transcribe"'s) on speechocean762 dev speakers'
// utterances joined by pauses, as if they arrived in real time in
// pieces of 100 ms: a simulated clock advances with the audio and with
// the CPU time of each Write (the process's, so that other programs on a
// shared machine do not count), so decoding that falls behind delays
// what follows, as it would live. It reports the latency from the end of
// each utterance (its chunk's end) to its final, the time from its first
// word to its first partial, the intervals between partials, the
// real-time factor, and whether the finals are the offline transcript's
// chunks. It runs only with ATTEND_STREAM_MEASURE=N (N clips; run it on
// one core: taskset -c 0, GOMAXPROCS=1); ATTEND_STREAM_NATIVE=1 takes the
// native dev clips (native-speech's VoxForge speakers) instead,
// ATTEND_STREAM_MODEL=FILE another model (a Whisper ggml file, say;
// ATTEND_STREAM_NOFALLBACK=1 turns its temperature fallback off),
// ATTEND_STREAM_END=DURATION another Options.EndSilence (negative: the
// decided cuts), ATTEND_STREAM_LOAD=F an Options.PartialLoad (0 by
// default: a partial every interval, whatever it costs; live callers use
// 0.5, which a Whisper model needs to keep up), and ATTEND_STREAM_WAV=PATH also writes the joined
// recording there. ATTEND_STREAM_COST=1 bounds a random-weight Whisper
// model's decodings at the tokens a real model would sample (whisperCost:
// such a model samples 224 tokens a window), so that its cost is a real
// model's. The word error rates compare the finals and the
// offline transcript with the clips' texts, and the finals with the
// offline transcript.
func TestMeasureLive(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("ATTEND_STREAM_MEASURE"))
	if err != nil || n <= 0 {
		t.Skip("skipping: set ATTEND_STREAM_MEASURE=N (clips) to measure")
	}
	var dev []speechdata.Utterance
	if os.Getenv("ATTEND_STREAM_NATIVE") != "" { // the native dev set: VoxForge's speakers
		utts, err := speechdata.Read(shareddata.Path(t, "native-speech/manifest.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range utts {
			if strings.Contains(u.Path, "/voxforge/") {
				dev = append(dev, u)
			}
		}
	} else {
		utts, err := speechdata.Read(shareddata.Path(t, "speechocean762/train.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		if _, dev, err = speechdata.SplitBySpeaker(utts, 12, 1); err != nil {
			t.Fatal(err)
		}
	}
	var x []float32
	var refs, texts []string
	var clips []*audio.Signal
	for i := 0; len(x) < math.MaxInt32 && i < n; i++ {
		u := dev[i%len(dev)]
		sig, err := speechmodel.Load(u.Path, nil)
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, speechdata.Normalize(u.Text))
		texts, clips = append(texts, u.Text), append(clips, sig)
		pause := rate + (i%5)*rate/4 // 1–2 s
		x = append(append(x, sig.Samples...), make([]float32, pause)...)
	}
	if path := os.Getenv("ATTEND_STREAM_WAV"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := synth.WriteWAV(f, x, rate); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	dec := speechmodel.DefaultDecoding()
	dec.Whisper.NoFallback = os.Getenv("ATTEND_STREAM_NOFALLBACK") != ""
	m, err := speechmodel.Open(os.Getenv("ATTEND_STREAM_MODEL"), &dec)
	if err != nil {
		t.Fatal(err)
	}
	var cost *whisperCost
	if os.Getenv("ATTEND_STREAM_COST") != "" {
		w, ok := m.(*speechmodel.Whisper)
		if !ok {
			t.Fatal("ATTEND_STREAM_COST=1 is the cost model of random-weight Whisper models: set ATTEND_STREAM_MODEL to one")
		}
		if cost, err = newWhisperCost(w, clips, texts); err != nil {
			t.Fatal(err)
		}
		if m, err = speechmodel.NewWhisper(cost, &dec.Whisper); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := speech.NewTranscriber(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	offStart := cpuTime(t)
	offline, err := tr.Stream("joined", (&audio.Signal{Rate: rate, Channels: 1, Samples: x}).Stream())
	if err != nil {
		t.Fatal(err)
	}
	offTime := cpuTime(t) - offStart

	opts := stream.Options{Clock: func() time.Duration { return cpuTime(t) }}
	if v := os.Getenv("ATTEND_STREAM_LOAD"); v != "" {
		if opts.PartialLoad, err = strconv.ParseFloat(v, 64); err != nil {
			t.Fatal(err)
		}
	}
	if v := os.Getenv("ATTEND_STREAM_END"); v != "" {
		if opts.EndSilence, err = time.ParseDuration(v); err != nil {
			t.Fatal(err)
		}
	}
	s, err := stream.New(m, &opts)
	if err != nil {
		t.Fatal(err)
	}
	type timed struct {
		stream.Event
		wall float64 // simulated wall time of the event, s from the start
	}
	var events []timed
	var busy time.Duration
	now, piece := 0.0, rate/10
	for i := 0; i <= len(x); i += piece {
		var ev []stream.Event
		var err error
		start := cpuTime(t)
		if i < len(x) {
			end := min(i+piece, len(x))
			now = max(now, float64(end)/rate) // the piece has arrived
			ev, err = s.Write(x[i:end])
		} else {
			ev, err = s.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
		d := cpuTime(t) - start
		busy += d
		now += d.Seconds()
		for _, e := range ev {
			events = append(events, timed{e, now})
		}
	}
	audioSec := float64(len(x)) / rate

	var finals []timed
	var lat, fromWord, look, firstPartial, gaps []float64
	var fromSpeech, spanGaps []float64 // by the chunk's span, for models whose word times mean nothing
	var decodes []float64              // the finals' decoding (wall clock)
	var partials []float64             // simulated times of the partials since the last final
	for _, e := range events {
		if !e.Final {
			partials = append(partials, e.wall)
			continue
		}
		finals = append(finals, e)
		lat = append(lat, e.wall-e.End)
		decodes = append(decodes, e.Decode.Seconds())
		look = append(look, e.At-e.End)
		if len(e.Words) > 0 {
			fromWord = append(fromWord, e.wall-e.Words[len(e.Words)-1].End)
		}
		if len(partials) > 0 {
			// The chunk is padded by 200 ms (the speech pad) on each
			// side of what the detector called speech.
			speechStart, speechEnd := e.Start+0.2, e.End-0.2
			fromSpeech = append(fromSpeech, partials[0]-speechStart)
			last := partials[0]
			for _, p := range partials[1:] {
				if p > speechEnd {
					break
				}
				spanGaps = append(spanGaps, p-last)
				last = p
			}
		}
		if len(partials) > 0 && len(e.Words) > 0 {
			firstPartial = append(firstPartial, partials[0]-e.Words[0].Start)
			if os.Getenv("ATTEND_STREAM_DEBUG") != "" {
				t.Logf("DEBUG final [%.2f, %.2f] first word %.2f first partial %.2f (%+.2f) partials %d lat %.2f decode %v %q", e.Start, e.End, e.Words[0].Start, partials[0], partials[0]-e.Words[0].Start, len(partials), e.wall-e.End, e.Decode, e.Text)
			}
			// While the utterance is spoken: from its first partial to
			// its last word's end (a partial is due every 400 ms, and
			// shown when its text changed).
			last := partials[0]
			for _, p := range partials[1:] {
				if p > e.Words[len(e.Words)-1].End {
					break
				}
				gaps = append(gaps, p-last)
				last = p
			}
		}
		partials = partials[:0]
	}
	var want []speech.Chunk
	for _, c := range offline.Chunks {
		if !c.NoSpeech && c.Text != "" {
			want = append(want, c)
		}
	}
	same := 0
	var streamed, off []string
	for _, f := range finals {
		streamed = append(streamed, f.Text)
		found := false
		for _, w := range want {
			if f.Text == w.Text && f.Start == w.Start && f.End == w.End {
				same++
				found = true
				break
			}
		}
		if !found {
			var over []string
			for _, w := range want {
				if w.End > f.Start && w.Start < f.End {
					over = append(over, fmt.Sprintf("[%.2f, %.2f] %q", w.Start, w.End, w.Text))
				}
			}
			t.Logf("final [%.2f, %.2f] %q; offline %s", f.Start, f.End, f.Text, strings.Join(over, ", "))
		}
	}
	for _, w := range want {
		off = append(off, w.Text)
	}
	ref, hyp, offHyp := strings.Join(refs, " "), normalized(streamed), normalized(off)
	streamWER, offWER := metrics.WordErrors(ref, hyp), metrics.WordErrors(ref, offHyp)
	t.Logf("%d clips, %.1f s of audio; GOMAXPROCS=%s", n, audioSec, os.Getenv("GOMAXPROCS"))
	t.Logf("finals %d, offline chunks with text %d, identical (text, start, end) %d", len(finals), len(want), same)
	t.Logf("WER against the clips' texts: streamed %.2f %%, offline %.2f %% (%+.2f points); streamed against offline %.2f %%",
		100*streamWER.Rate(), 100*offWER.Rate(), 100*(streamWER.Rate()-offWER.Rate()), 100*metrics.WordErrors(offHyp, hyp).Rate())
	t.Logf("real-time factor (CPU time): live %.3f (%.1f s), offline %.3f; peak RSS %d MiB", busy.Seconds()/audioSec, busy.Seconds(), offTime.Seconds()/audioSec, peakRSS(t)>>20)
	t.Logf("end of utterance (its chunk's end) → final: %s; of which the endpointer's look-ahead (audio) %s", quantiles(lat), quantiles(look))
	t.Logf("end of its last word → final: %s", quantiles(fromWord))
	t.Logf("the finals' decoding (wall clock, speculative or at the cut): %s", quantiles(decodes))
	t.Logf("first word → first partial: %s", quantiles(firstPartial))
	t.Logf("between partials while speaking: %s", quantiles(gaps))
	t.Logf("by the detector's speech (the chunk less its 200 ms pads): start → first partial %s; between partials until its end %s", quantiles(fromSpeech), quantiles(spanGaps))
	if cost != nil {
		t.Log(cost)
	}
}

// normalized joins texts normalized as the references are.
func normalized(texts []string) string {
	for i, s := range texts {
		texts[i] = speechdata.Normalize(s)
	}
	return strings.Join(texts, " ")
}

// peakRSS is the process's peak resident set size in bytes (Linux
// reports it in KiB).
func peakRSS(t *testing.T) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return int64(ru.Maxrss) << 10
}

// cpuTime is the CPU time the process has used.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// quantiles formats the median, 95th percentile and maximum of v.
func quantiles(v []float64) string {
	if len(v) == 0 {
		return "none"
	}
	v = slices.Sorted(slices.Values(v))
	q := func(p float64) float64 { return v[min(len(v)-1, int(math.Ceil(p*float64(len(v))))-1)] }
	return fmt.Sprintf("p50 %.2f s, p95 %.2f s, max %.2f s (n=%d)", q(0.5), q(0.95), v[len(v)-1], len(v))
}
