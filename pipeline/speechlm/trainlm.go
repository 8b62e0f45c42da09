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

// TrainLM trains a character language model for shallow fusion and
// returns its best held-out bits per character: Adam over batches of
// sentences of similar length, the held-out sentences scored every 1,000
// steps and at each epoch's end, and the best model written to o.Out (in
// float16) each time it improves.
func TrainLM(ctx context.Context, o LMOptions) (bpc float64, err error) {
	if len(o.Text) == 0 || o.Out == "" {
		return 0, errors.New("speechlm: TrainLM: need text files and an output file")
	}
	o.defaults()
	t := &charTrainer{o: o, lm: charlm.NewChar(o.Config, nil, o.Seed), best: math.Inf(1)}
	train, err := t.split()
	if err != nil {
		return 0, err
	}
	t.logf("language model: %d parameters; %d training sentences, %d held out", t.lm.Params.Count(), len(train), len(t.dev))
	t.bs = models.NewBuckets(t.lm.Params, t.lm.BuildFunc())
	t.bs.MaxGraphs = 8
	defer t.bs.Close()
	t.opt = models.NewAdam(t.lm.Params, &models.AdamOptions{LR: o.LR})
	step := 0
	for epoch := 1; epoch <= o.Epochs; epoch++ {
		start, sum, cnt := time.Now(), 0.0, 0
		batches := lengthBatches(train, o.BatchSize, rand.New(rand.NewPCG(o.Seed, uint64(epoch))))
		for bi, b := range batches {
			if err := ctx.Err(); err != nil {
				return t.best, err
			}
			loss, _, err := t.run(b)
			if err != nil {
				return t.best, fmt.Errorf("speechlm: TrainLM: %w", err)
			}
			if _, err := t.opt.Step(); err != nil {
				return t.best, err
			}
			sum, cnt = sum+loss, cnt+1
			step++
			if step%100 == 0 {
				t.logf("epoch %d batch %d/%d: %.3f bits/char, ETA %v", epoch, bi+1, len(batches), sum/float64(cnt)/math.Ln2,
					(time.Since(start) / time.Duration(bi+1) * time.Duration(len(batches)-bi-1)).Round(time.Second))
				sum, cnt = 0, 0
			}
			done := o.MaxSteps > 0 && step >= o.MaxSteps
			if done || step%1000 == 0 || bi == len(batches)-1 {
				if err := t.evaluate(step); err != nil || done {
					return t.best, err
				}
			}
		}
	}
	return t.best, nil
}

// defaults fills the zero fields of o with the values LMOptions notes.
func (o *LMOptions) defaults() {
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
}

// charTrainer is one TrainLM run: the model, its graphs and optimizer,
// the held-out sentences and the best held-out bits per character so far.
type charTrainer struct {
	o    LMOptions
	lm   *charlm.Char
	bs   *models.Buckets[charlm.Key, charlm.Inputs]
	opt  *models.Adam
	dev  [][]int
	best float64
}

func (t *charTrainer) logf(format string, args ...any) {
	if t.o.Log != nil {
		fmt.Fprintf(t.o.Log, time.Now().Format("15:04:05 ")+format+"\n", args...)
	}
}

// split reads the sentences of the text files, shuffles them with the
// seed and holds out DevFraction of them (at least a batch) as t.dev; it
// returns the others.
func (t *charTrainer) split() (train [][]int, err error) {
	var sents [][]int
	for _, path := range t.o.Text {
		if err := readSentences(path, t.lm.Vocab, t.o.MaxChars, func(s []int) { sents = append(sents, s) }); err != nil {
			return nil, err
		}
	}
	if len(sents) < 2*t.o.BatchSize {
		return nil, fmt.Errorf("speechlm: TrainLM: %d usable sentences, want at least %d", len(sents), 2*t.o.BatchSize)
	}
	rng := rand.New(rand.NewPCG(t.o.Seed, 11))
	rng.Shuffle(len(sents), func(i, j int) { sents[i], sents[j] = sents[j], sents[i] })
	nDev := max(t.o.BatchSize, int(t.o.DevFraction*float64(len(sents))))
	t.dev = sents[:nDev]
	return sents[nDev:], nil
}

// run runs one batch forward and backward (gradients accumulate until
// the optimizer steps) and returns its mean loss per character (nats) and
// its number of characters.
func (t *charTrainer) run(batch [][]int) (float64, int, error) {
	S := 0
	for _, s := range batch {
		S = max(S, len(s)+1)
	}
	k := charlm.Key{B: len(batch), S: (S + 15) / 16 * 16} // lengths in steps of 16: fewer graphs
	in, lens, tg, w, n, err := charlm.Batch(k, batch)
	if err != nil {
		return 0, 0, err
	}
	gr, err := t.bs.Get(k)
	if err != nil {
		return 0, 0, err
	}
	if err := gr.Inputs.Bind(k, in, lens, tg, w); err != nil {
		return 0, 0, err
	}
	loss, err := gr.Run()
	return loss, n, err
}

// evaluate scores the held-out sentences in bits per character and
// writes the model to Out when they beat the best so far.
func (t *charTrainer) evaluate(step int) error {
	total, count := 0.0, 0
	for _, b := range lengthBatches(t.dev, t.o.BatchSize, nil) {
		loss, n, err := t.run(b)
		if err != nil {
			return err
		}
		total += loss * float64(n)
		count += n
	}
	t.lm.Params.ZeroGrads()
	bpc := total / float64(count) / math.Ln2
	t.logf("step %d: held-out %.3f bits/char", step, bpc)
	if bpc >= t.best {
		return nil
	}
	t.best = bpc
	f, err := t.lm.File()
	if err != nil {
		return err
	}
	return safetensors.WriteFile(t.o.Out, f, safetensors.F16)
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
