package speechlm

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	charlm "github.com/attend-go/attend/models/lm"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/pipeline/speechdata"
)

// LMOptions configures TrainLM; zero fields mean the defaults noted.
type LMOptions struct {
	// Text lists plain-text files, one sentence per line. Required.
	Text []string
	// Out is the model file written (the best on the held-out lines).
	Out    string
	Config charlm.CharConfig
	// BatchSize sentences per batch (0 means 32); Epochs (0 means 2);
	// MaxSteps stops early (0: no limit); LR (0 means 2e-3).
	BatchSize, Epochs, MaxSteps int
	LR                          float64
	// MaxChars drops longer sentences (0 means 200).
	MaxChars int
	// DevFraction of the sentences is held out to measure bits per
	// character (0 means 0.01).
	DevFraction float64
	Seed        uint64
	Log         io.Writer
}

// TrainLM trains a character language model for shallow fusion.
func TrainLM(ctx context.Context, o LMOptions) (bpc float64, err error) {
	if len(o.Text) == 0 || o.Out == "" {
		return 0, errors.New("speech: TrainLM: need text files and an output file")
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 32
	}
	if o.Epochs <= 0 {
		o.Epochs = 2
	}
	if o.LR <= 0 {
		o.LR = 2e-3
	}
	if o.MaxChars <= 0 {
		o.MaxChars = 200
	}
	if o.DevFraction <= 0 {
		o.DevFraction = 0.01
	}
	logf := func(format string, args ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, time.Now().Format("15:04:05 ")+format+"\n", args...)
		}
	}
	lm := charlm.NewChar(o.Config, nil, o.Seed)
	var sents [][]int
	for _, path := range o.Text {
		if err := readSentences(path, lm.Vocab, o.MaxChars, func(s []int) { sents = append(sents, s) }); err != nil {
			return 0, err
		}
	}
	if len(sents) < 2*o.BatchSize {
		return 0, fmt.Errorf("speech: TrainLM: %d usable sentences, want at least %d", len(sents), 2*o.BatchSize)
	}
	rng := rand.New(rand.NewPCG(o.Seed, 11))
	rng.Shuffle(len(sents), func(i, j int) { sents[i], sents[j] = sents[j], sents[i] })
	nDev := max(o.BatchSize, int(o.DevFraction*float64(len(sents))))
	dev, train := sents[:nDev], sents[nDev:]
	logf("language model: %d parameters; %d training sentences, %d held out", lm.Params.Count(), len(train), len(dev))
	bs := models.NewBuckets(lm.Params, lm.BuildFunc())
	bs.MaxGraphs = 8
	defer bs.Close()
	opt := models.NewAdam(lm.Params, &models.AdamOptions{LR: o.LR})
	run := func(batch [][]int) (float64, int, error) {
		S := 0
		for _, s := range batch {
			S = max(S, len(s)+1)
		}
		k := charlm.Key{B: len(batch), S: (S + 15) / 16 * 16} // lengths in steps of 16: fewer graphs
		in, lens, tg, w, n, err := charlm.Batch(k, batch)
		if err != nil {
			return 0, 0, err
		}
		gr, err := bs.Get(k)
		if err != nil {
			return 0, 0, err
		}
		if err := gr.Inputs.Bind(k, in, lens, tg, w); err != nil {
			return 0, 0, err
		}
		loss, err := gr.Run()
		return loss, n, err
	}
	evalDev := func() (float64, error) {
		total, count := 0.0, 0
		for _, b := range lengthBatches(dev, o.BatchSize, nil) {
			loss, n, err := run(b)
			if err != nil {
				return 0, err
			}
			total += loss * float64(n)
			count += n
		}
		lm.Params.ZeroGrads()
		return total / float64(count) / math.Ln2, nil
	}
	best := math.Inf(1)
	step := 0
	for epoch := 1; epoch <= o.Epochs; epoch++ {
		start, sum, cnt := time.Now(), 0.0, 0
		batches := lengthBatches(train, o.BatchSize, rand.New(rand.NewPCG(o.Seed, uint64(epoch))))
		for bi, b := range batches {
			if err := ctx.Err(); err != nil {
				return best, err
			}
			loss, _, err := run(b)
			if err != nil {
				return best, fmt.Errorf("speech: TrainLM: %w", err)
			}
			if _, err := opt.Step(); err != nil {
				return best, err
			}
			sum, cnt = sum+loss, cnt+1
			step++
			if step%100 == 0 {
				logf("epoch %d batch %d/%d: %.3f bits/char, ETA %v", epoch, bi+1, len(batches), sum/float64(cnt)/math.Ln2,
					(time.Since(start) / time.Duration(bi+1) * time.Duration(len(batches)-bi-1)).Round(time.Second))
				sum, cnt = 0, 0
			}
			if (o.MaxSteps > 0 && step >= o.MaxSteps) || (step%1000 == 0) || bi == len(batches)-1 {
				bpc, err := evalDev()
				if err != nil {
					return best, err
				}
				logf("step %d: held-out %.3f bits/char", step, bpc)
				if bpc < best {
					best = bpc
					f, err := lm.File()
					if err != nil {
						return best, err
					}
					if err := safetensors.WriteFile(o.Out, f, safetensors.F16); err != nil {
						return best, err
					}
				}
				if o.MaxSteps > 0 && step >= o.MaxSteps {
					return best, nil
				}
			}
		}
	}
	return best, nil
}

// readSentences normalizes each line of a text file and passes the
// encodable ones of at most maxChars characters to add.
func readSentences(path string, v *asr.Vocab, maxChars int, add func([]int)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		s := speechdata.Normalize(sc.Text())
		if s == "" || len(s) > maxChars {
			continue
		}
		if ids, err := v.Encode(s); err == nil {
			add(ids)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// lengthBatches groups sentences of similar length into batches of B
// (the last one dropped when partial), in shuffled order when rng is set.
func lengthBatches(sents [][]int, B int, rng *rand.Rand) [][][]int {
	sorted := slices.Clone(sents)
	slices.SortStableFunc(sorted, func(a, b []int) int { return len(a) - len(b) })
	var out [][][]int
	for i := 0; i+B <= len(sorted); i += B {
		out = append(out, sorted[i:i+B])
	}
	if rng != nil {
		rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	}
	return out
}
