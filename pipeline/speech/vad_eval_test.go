package speech_test

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/audio/audiotest"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
	"github.com/attend-go/attend/pipeline/metrics"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechdata"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// The measurements behind the voice activity detector's defaults. They
// read real speech, so they run only when given manifests (never a test
// split; dev speakers only for the joined recordings) and not with
// -short:
//
//	go test ./pipeline/speech -run TestVADWordLoss -v -eval.manifests /work/data/so-dev.tsv,/work/data/native-dev.tsv
//	go test ./pipeline/speech -run TestVADWordLoss -v -eval.manifests /work/data/so-train.tsv -eval.limit 60 -eval.snr 10
//	go test ./pipeline/speech -run TestJoinedWER -v -timeout 1h -eval.manifests /work/data/so-dev.tsv -eval.seconds 60,300
var (
	evalManifests  = flag.String("eval.manifests", "", "comma-separated speech manifests for the VAD measurements (skipped when empty)")
	evalLimit      = flag.Int("eval.limit", 0, "utterances per manifest (0: all)")
	evalSNR        = flag.Float64("eval.snr", 0, "mix white, pink and brown noise in turn at this SNR in dB (0: none)")
	evalSeconds    = flag.String("eval.seconds", "60,300", "lengths of the joined recordings, seconds")
	evalRecordings = flag.Int("eval.recordings", 2, "joined recordings of each length")
	evalSeed       = flag.Uint64("eval.seed", 1, "seed of the joins and the noise")
	evalMaxLength  = flag.Duration("eval.max-length", 0, "chunk length limit with the VAD (0: speech.DefaultChunkLength)")
	evalThreshold  = flag.Float64("eval.threshold", 0, "VAD threshold (0: audio.DefaultVADThreshold)")
	evalPad        = flag.Duration("eval.pad", 0, "SpeechPad (0: the default)")
	evalNoisePad   = flag.Duration("eval.noise-pad", 0, "NoisePad (0: the default)")
	evalMinGap     = flag.Duration("eval.min-gap", 0, "MinNoSpeech (0: the default)")
	evalMargin     = flag.Duration("eval.margin", 0, "Margin (0: the default)")
	evalSentPause  = flag.Duration("eval.sentence-pause", 0, "SentencePause (0: the default, negative: no split)")
	evalSentLength = flag.Duration("eval.sentence-length", 0, "SentenceLength (0: the default)")
	evalPauseNoise = flag.Float64("eval.pause-noise", 0, "RMS of white noise in the pauses of joined recordings (0: digital silence)")
	evalVerbose    = flag.Bool("eval.verbose", false, "log every chunk and utterance")
	evalBaselines  = flag.Bool("eval.baselines", true, "also decode one by one and without the VAD")
	evalBeam       = flag.Int("eval.beam", 0, "SearchOptions.Beam of the joined-recording runs (0: the default)")
	evalCTCBeam    = flag.Int("eval.ctc-beam", 0, "SearchOptions.CTCBeam of the joined-recording runs")
	evalLM         = flag.String("eval.lm", "none", `language model of the joined-recording runs: "none", "default" (the embedded word LM) or an ARPA file`)
	evalCharBonus  = flag.Float64("eval.char-bonus", speechmodel.DefaultCharBonus, "SearchOptions.CharBonus of the joined-recording runs")
)

// evalSearch is the search of the joined-recording runs: the default
// search with -eval.beam, -eval.ctc-beam, -eval.char-bonus and -eval.lm.
func evalSearch(t *testing.T, model *asr.Model) decode.Options {
	t.Helper()
	so := speechmodel.DefaultSearchOptions()
	so.CTCBeam, so.CharBonus = *evalCTCBeam, *evalCharBonus
	if *evalBeam > 0 {
		so.Beam = *evalBeam
	}
	lm := speechmodel.DefaultLanguageModel()
	switch *evalLM {
	case "default":
	default:
		lm.Path = *evalLM
	}
	if err := lm.Apply(model, &so); err != nil {
		t.Fatal(err)
	}
	return so
}

type evalUtterance struct {
	path, text string
	samples    []float32 // 16 kHz mono
}

func evalUtterances(t *testing.T) [][]evalUtterance {
	t.Helper()
	if *evalManifests == "" || testing.Short() {
		t.Skip("a measurement on real speech: give -eval.manifests (and not -short)")
	}
	rng := rand.New(rand.NewPCG(*evalSeed, 2))
	var all [][]evalUtterance
	for _, m := range strings.Split(*evalManifests, ",") {
		utts, err := speechdata.Read(m)
		if err != nil {
			t.Fatal(err)
		}
		if *evalLimit > 0 && len(utts) > *evalLimit {
			rng.Shuffle(len(utts), func(i, j int) { utts[i], utts[j] = utts[j], utts[i] })
			utts = utts[:*evalLimit]
		}
		var out []evalUtterance
		for i, u := range utts {
			sig, err := speechmodel.Load(u.Path, nil)
			if err != nil {
				t.Fatal(err)
			}
			x := sig.Samples
			if *evalSNR != 0 {
				var noise []float32
				switch i % 3 {
				case 0:
					noise = audiotest.White(rng, len(x), 1)
				case 1:
					noise = audiotest.Pink(rng, len(x), 1)
				default:
					noise = audiotest.Brown(rng, len(x), 1)
				}
				x = audiotest.MixSNR(x, noise, *evalSNR)
			}
			out = append(out, evalUtterance{path: u.Path, text: u.Text, samples: x})
		}
		all = append(all, out)
	}
	return all
}

func evalSegmentOptions() audio.SegmentOptions {
	max := *evalMaxLength
	if max == 0 {
		max = speech.DefaultChunkLength
	}
	return audio.SegmentOptions{MaxLength: max, VAD: &audio.VADOptions{Threshold: *evalThreshold},
		SpeechPad: *evalPad, NoisePad: *evalNoisePad, MinNoSpeech: *evalMinGap, Margin: *evalMargin,
		SentencePause: *evalSentPause, SentenceLength: *evalSentLength}
}

// TestVADWordLoss measures how many reference words the VAD drops: each
// utterance's words are timed by forced alignment of its text (the whole
// utterance, no VAD), and a word is lost when less than half of its span
// lies in the speech segments the VAD segmenter returns.
func TestVADWordLoss(t *testing.T) {
	model, err := asr.Default()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := speech.NewTranscriber(speechmodel.NewLAS(model, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	for mi, utts := range evalUtterances(t) {
		var words, lost, uttsLost int
		for _, u := range utts {
			sig := &audio.Signal{Samples: u.samples, Rate: 16000, Channels: 1}
			al, err := tr.AlignStream(u.path, sig.Stream(), u.text)
			if err != nil {
				t.Logf("%s: %v", u.path, err)
				continue
			}
			opts := evalSegmentOptions()
			seg, err := audio.NewSegmenter(sig.Stream(), &opts)
			if err != nil {
				t.Fatal(err)
			}
			var speechSpans [][2]float64
			for {
				s, err := seg.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if !s.NoSpeech {
					speechSpans = append(speechSpans, [2]float64{s.StartTime().Seconds(), s.EndTime().Seconds()})
				}
			}
			var missed []string
			for _, c := range al.Chunks {
				for _, w := range c.Words {
					words++
					var in float64
					for _, sp := range speechSpans {
						in += max(0, min(w.End, sp[1])-max(w.Start, sp[0]))
					}
					if in < 0.5*(w.End-w.Start) {
						lost++
						missed = append(missed, fmt.Sprintf("%s@%.2f", w.Word, w.Start))
					}
				}
			}
			if len(missed) > 0 {
				uttsLost++
				t.Logf("%s: lost %v (speech %v)", u.path, missed, speechSpans)
			}
		}
		t.Logf("manifest %d: %d utterances, %d of %d words lost (%.2f%%), in %d utterances",
			mi, len(utts), lost, words, 100*float64(lost)/float64(max(1, words)), uttsLost)
	}
}

// TestJoinedWER joins dev utterances with random 0.3–1.5 s pauses into
// recordings of the given lengths and compares the WER of transcribing
// each recording whole (with the VAD, and without as before it) against
// decoding the same utterances one by one; it also counts how many chunks
// fall back to CTC (Chunk.Fallback, or Chunk.FromCTC under joint
// rescoring), and gives the shortest, median and longest chunk with
// speech.
func TestJoinedWER(t *testing.T) {
	model, err := asr.Default()
	if err != nil {
		t.Fatal(err)
	}
	all := evalUtterances(t)
	var utts []evalUtterance
	for _, u := range all {
		utts = append(utts, u...)
	}
	rng := rand.New(rand.NewPCG(*evalSeed, 3))
	search := evalSearch(t, model)
	withVAD, err := speech.NewTranscriber(speechmodel.NewLAS(model, &search), &speech.TranscribeOptions{Segment: evalSegmentOptions()})
	if err != nil {
		t.Fatal(err)
	}
	noVAD, err := speech.NewTranscriber(speechmodel.NewLAS(model, &search), &speech.TranscribeOptions{NoVAD: true})
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		wer               metrics.EditCounts
		chunks, fallbacks int
		decode            float64
		lengths           []float64 // of the chunks with speech, seconds
		// By how each utterance was cut (joined runs): its errors and
		// those of the same utterance decoded one by one.
		kinds map[string]*[2]metrics.EditCounts
	}
	run := func(tr *speech.Transcriber, x []float32, ref string, r *result) *speech.Transcript {
		sig := &audio.Signal{Samples: x, Rate: 16000, Channels: 1}
		got, err := tr.Stream("joined", sig.Stream())
		if err != nil {
			t.Fatal(err)
		}
		r.wer.Add(metrics.WordErrors(ref, speechdata.Normalize(got.Text)))
		for _, c := range got.Chunks {
			if !c.NoSpeech {
				r.chunks++
				r.lengths = append(r.lengths, c.End-c.Start)
			}
			if c.Fallback != "" || c.FromCTC {
				r.fallbacks++
			}
		}
		r.decode += got.Decode
		if *evalVerbose && len(x) > 20*16000 {
			for _, c := range got.Chunks {
				t.Logf("  chunk %6.2f–%6.2f no_speech %-5v from_ctc %-5v %q %s", c.Start, c.End, c.NoSpeech, c.FromCTC, c.Text, c.Fallback)
			}
		}
		return got
	}
	// byCut adds the errors of each utterance of a joined transcript to
	// r.kinds under how the chunks cut it (its words are those whose
	// middle lies between the middles of the pauses around it).
	byCut := func(r *result, got *speech.Transcript, utts []joinedUtterance) {
		if r.kinds == nil {
			r.kinds = map[string]*[2]metrics.EditCounts{}
		}
		for _, u := range utts {
			var words []string
			var cuts, merged bool
			for _, c := range got.Chunks {
				if c.NoSpeech {
					continue
				}
				if c.Start > u.speechStart && c.Start < u.speechEnd || c.End > u.speechStart && c.End < u.speechEnd {
					cuts = true
				}
				if c.Start < u.from-0.01 && c.End > u.speechStart || c.End > u.to+0.01 && c.Start < u.speechEnd {
					merged = true
				}
				for _, w := range c.Words {
					if m := (w.Start + w.End) / 2; m >= u.from && m < u.to {
						words = append(words, w.Word)
					}
				}
			}
			kind := map[[2]bool]string{{false, false}: "alone", {true, false}: "split", {false, true}: "merged", {true, true}: "split+merged"}[[2]bool{cuts, merged}]
			if r.kinds[kind] == nil {
				r.kinds[kind] = &[2]metrics.EditCounts{}
			}
			r.kinds[kind][0].Add(metrics.WordErrors(u.ref, speechdata.Normalize(strings.Join(words, " "))))
			r.kinds[kind][1].Add(u.single)
		}
	}
	noiseRNG := rand.New(rand.NewPCG(*evalSeed, 4))
	pause := func(rng *rand.Rand) []float32 {
		n := int((0.3 + 1.2*rng.Float64()) * 16000)
		if *evalPauseNoise > 0 {
			return audiotest.White(noiseRNG, n, *evalPauseNoise)
		}
		return make([]float32, n)
	}
	rate := func(e metrics.EditCounts) float64 {
		return 100 * float64(e.Sub+e.Del+e.Ins) / float64(max(1, e.Ref))
	}
	for _, secs := range strings.Split(*evalSeconds, ",") {
		var seconds int
		fmt.Sscan(secs, &seconds)
		var single, singleVAD, joinedVAD, joinedNoVAD, joinedOracle result
		for rec := range *evalRecordings {
			var x []float32
			var refs []string
			var spans []joinedUtterance
			perm := rng.Perm(len(utts))
			for _, i := range perm {
				if len(x) >= seconds*16000 {
					break
				}
				u := utts[i]
				p := pause(rng)
				if n := len(spans); n > 0 {
					spans[n-1].to = float64(len(x)+len(p)/2) / 16000
				}
				x = append(x, p...)
				if *evalVerbose {
					t.Logf("  utterance %6.2f–%6.2f %q", float64(len(x))/16000, float64(len(x)+len(u.samples))/16000, u.text)
				}
				j := joinedUtterance{from: float64(len(x)-len(p)/2) / 16000, speechStart: float64(len(x)) / 16000,
					speechEnd: float64(len(x)+len(u.samples)) / 16000, ref: speechdata.Normalize(u.text)}
				x = append(x, u.samples...)
				refs = append(refs, j.ref)
				if *evalBaselines {
					got := run(noVAD, u.samples, j.ref, &single)
					j.single = metrics.WordErrors(j.ref, speechdata.Normalize(got.Text))
					run(withVAD, u.samples, j.ref, &singleVAD)
				}
				spans = append(spans, j)
			}
			p := pause(rng)
			spans[len(spans)-1].to = float64(len(x)+len(p)/2) / 16000
			x = append(x, p...)
			ref := strings.Join(refs, " ")
			start := time.Now()
			got := run(withVAD, x, ref, &joinedVAD)
			t.Logf("%d s recording %d: %d utterances, %.1f s audio, VAD transcription took %.1f s", seconds, rec, len(refs), float64(len(x))/16000, time.Since(start).Seconds())
			if *evalBaselines {
				byCut(&joinedVAD, got, spans)
				run(noVAD, x, ref, &joinedNoVAD)
				for _, u := range spans {
					run(noVAD, x[int(u.from*16000):int(u.to*16000)], u.ref, &joinedOracle)
				}
			}
		}
		for _, r := range []struct {
			name string
			res  result
		}{
			{"one by one, no VAD", single},
			{"one by one, VAD", singleVAD},
			{"joined, VAD", joinedVAD},
			{"joined, no VAD (15 s chunks)", joinedNoVAD},
			{"joined, cut at the true pauses", joinedOracle},
		} {
			slices.Sort(r.res.lengths)
			var short, median, longest float64
			if n := len(r.res.lengths); n > 0 {
				short, median, longest = r.res.lengths[0], r.res.lengths[n/2], r.res.lengths[n-1]
			}
			t.Logf("%4d s × %d: %-30s WER %5.1f%% (%d words: sub %d del %d ins %d)  chunks %4d (%.1f/%.1f/%.1f s)  CTC fallbacks %4d (%.0f%%)  decode %.1f s",
				seconds, *evalRecordings, r.name, rate(r.res.wer), r.res.wer.Ref, r.res.wer.Sub, r.res.wer.Del, r.res.wer.Ins,
				r.res.chunks, short, median, longest, r.res.fallbacks, 100*float64(r.res.fallbacks)/float64(max(1, r.res.chunks)), r.res.decode)
		}
		for _, kind := range []string{"alone", "split", "merged", "split+merged"} {
			if e := joinedVAD.kinds[kind]; e != nil {
				t.Logf("%4d s × %d: utterances %-12s WER joined %5.1f%% (sub %d del %d ins %d), one by one %5.1f%% (%d words)",
					seconds, *evalRecordings, kind, rate(e[0]), e[0].Sub, e[0].Del, e[0].Ins, rate(e[1]), e[0].Ref)
			}
		}
	}
}

// joinedUtterance is one utterance of a joined recording: its audio
// (speechStart–speechEnd) and the span from the middle of the pause
// before it to the middle of the one after (from–to), in seconds, its
// normalized text and its errors decoded one by one.
type joinedUtterance struct {
	from, speechStart, speechEnd, to float64
	ref                              string
	single                           metrics.EditCounts
}
