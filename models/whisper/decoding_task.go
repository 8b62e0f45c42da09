package whisper

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// chunkSeconds is the length of one window (openai/whisper's CHUNK_LENGTH).
const chunkSeconds = 30

// Decode decodes one 30-second window's audio features as openai/whisper's
// decode(model, mel, options) does: the start-of-transcript sequence (after
// <|startofprev|> and the prompt, followed by the prefix), language
// detection when opts.Language is "", the logit filters, greedy or beam
// search, and the ranking of the candidates. r drives sampling at
// temperatures above 0 (it may be nil at temperature 0).
func Decode(net Network, tok TextTokenizer, audio *AudioFeatures, opts DecodingOptions, r *rand.Rand) (*DecodingResult, error) {
	t, err := newDecodingTask(net.Dims(), tok, opts, r)
	if err != nil {
		return nil, err
	}
	return t.run(net, audio)
}

// decodingTask is openai/whisper's DecodingTask for one window.
type decodingTask struct {
	dims    Dims
	tok     TextTokenizer
	sp      Specials
	opts    DecodingOptions
	nGroup  int
	nCtx    int
	sample  int // sample_len
	initial []int
	begin   int // sample_begin
	sotIdx  int
	filters []LogitFilter
	decoder TokenDecoder
	ranker  SequenceRanker
}

func newDecodingTask(d Dims, tok TextTokenizer, opts DecodingOptions, r *rand.Rand) (*decodingTask, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.Temperature > 0 && r == nil {
		return nil, errors.New("whisper: sampling at a temperature above 0 needs a random source")
	}
	t := &decodingTask{dims: d, tok: tok, sp: tok.Specials(), opts: opts, nCtx: d.NTextCtx}
	t.nGroup = max(opts.BeamSize, opts.BestOf, 1)
	t.sample = opts.SampleLen
	if t.sample == 0 {
		t.sample = d.NTextCtx / 2
	}
	language := opts.Language
	if language == "" {
		language = "en"
	}
	sot, err := tok.SOTSequence(language, opts.Task)
	if err != nil {
		return nil, fmt.Errorf("whisper: decoding: %w", err)
	}
	if opts.WithoutTimestamps {
		sot = append(sot[:len(sot):len(sot)], t.sp.NoTimestamps)
	}
	t.initial = initialTokens(sot, opts.Prefix, opts.Prompt, t.sp.SOTPrev, t.nCtx, t.sample)
	t.begin = len(t.initial)
	for i, id := range t.initial {
		if id == t.sp.SOT {
			t.sotIdx = i
			break
		}
	}

	if opts.BeamSize > 0 {
		t.decoder = &BeamSearchDecoder{BeamSize: opts.BeamSize, EOT: t.sp.EOT, Patience: opts.Patience}
	} else {
		t.decoder = &GreedyDecoder{Temperature: opts.Temperature, EOT: t.sp.EOT, Rand: r}
	}
	t.ranker = MaximumLikelihoodRanker{LengthPenalty: opts.LengthPenalty}

	if opts.SuppressBlank {
		t.filters = append(t.filters, NewSuppressBlank(tok, t.begin))
	}
	if ids := suppressList(opts.SuppressTokens, tok); len(ids) > 0 {
		t.filters = append(t.filters, SuppressTokens(ids))
	}
	if !opts.WithoutTimestamps {
		precision := float64(chunkSeconds) / float64(d.NAudioCtx) // 0.02 s
		maxIdx := -1
		if opts.MaxInitialTimestamp != 0 {
			maxIdx = int(math.RoundToEven(opts.MaxInitialTimestamp / precision))
		}
		t.filters = append(t.filters, &ApplyTimestampRules{
			EOT: t.sp.EOT, NoTimestamps: t.sp.NoTimestamps, TimestampBegin: t.sp.TimestampBegin,
			SampleBegin: t.begin, MaxInitialTimestampIndex: maxIdx,
		})
	}
	return t, nil
}

// initialTokens is openai/whisper's _get_initial_tokens: [<|startofprev|>,
// the last nCtx/2−1 prompt tokens] + sot + the prefix's last
// nCtx/2−sampleLen tokens (Python slicing: a limit of 0 keeps all).
func initialTokens(sot, prefix, prompt []int, sotPrev, nCtx, sampleLen int) []int {
	tokens := append([]int(nil), sot...)
	if len(prefix) > 0 {
		tokens = append(tokens, pyTail(prefix, nCtx/2-sampleLen)...)
	}
	if len(prompt) > 0 {
		head := append([]int{sotPrev}, pyTail(prompt, nCtx/2-1)...)
		tokens = append(head, tokens...)
	}
	return tokens
}

// pyTail is Python's x[-n:]: the last n items for 0 < n, all of x for
// n = 0, and x[-n:] (dropping the first −n items) for n < 0.
func pyTail(x []int, n int) []int {
	start := len(x) - n
	if n == 0 {
		start = 0
	} else if n < 0 {
		start = -n
	}
	start = max(0, min(start, len(x)))
	return x[start:]
}

func (t *decodingTask) run(net Network, audio *AudioFeatures) (*DecodingResult, error) {
	t.decoder.Reset()
	tokens := append([]int(nil), t.initial...)
	res := &DecodingResult{Audio: audio, Language: t.opts.Language, Temperature: t.opts.Temperature}
	if t.opts.Language == "" {
		probs, err := DetectLanguage(net, t.tok, audio)
		if err != nil {
			return nil, err
		}
		lang := probs.Best()
		id := probs.Tokens[lang]
		if t.sotIdx+1 >= len(tokens) {
			return nil, errors.New("whisper: the start-of-transcript sequence has no language token to overwrite")
		}
		tokens[t.sotIdx+1] = id
		res.Language, res.LanguageProbs = lang, probs.Probs
	}

	seqs, sum, noSpeech, err := t.mainLoop(net, audio, tokens, &res.DecodedTokens)
	if err != nil {
		return nil, err
	}
	res.NoSpeechProb = noSpeech

	cands, scores := t.decoder.Finalize(seqs, sum)
	sampled := make([][]int, len(cands))
	for i, c := range cands {
		end := len(c)
		for j := t.begin; j < len(c); j++ {
			if c[j] == t.sp.EOT {
				end = j
				break
			}
		}
		sampled[i] = c[t.begin:end]
	}
	best := t.ranker.Rank(sampled, scores)
	res.Tokens = append([]int(nil), sampled[best]...)
	res.Text = pyStrip(t.tok.Decode(res.Tokens))
	res.AvgLogprob = scores[best] / float64(len(res.Tokens)+1)
	res.CompressionRatio = CompressionRatio(res.Text)
	return res, nil
}

// mainLoop is _main_loop: it feeds the initial tokens once, then one token
// per sequence per step (all sequences' together, forwardEach), with a
// key/value cache per sequence that follows the decoder's sources
// (rearrange_kv_cache).
func (t *decodingTask) mainLoop(net Network, audio *AudioFeatures, initial []int, forwarded *int) ([][]int, []float32, float64, error) {
	n := t.nGroup
	seqs := make([][]int, n)
	for k := range seqs {
		seqs[k] = initial
	}
	sum := make([]float32, n)
	decs := make([]TextDecoder, n)
	decs[0] = net.NewDecoder(audio, nil)
	defer func() { releaseDecoders(decs) }()
	// Only two rows' logits are read: the start of transcript's (no
	// speech) and the last's (the first token).
	keep := []int{t.sotIdx, len(initial) - 1}
	if t.sotIdx == len(initial)-1 {
		keep = keep[1:]
	}
	rows, err := forwardRows(decs[0], initial, keep)
	*forwarded += len(initial)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("whisper: decoding: %w", err)
	}
	noSpeech := softmaxAt(rows[0], t.sp.NoSpeech)
	logits := make([][]float32, n)
	logits[0] = append([]float32(nil), rows[len(rows)-1]...)
	for k := 1; k < n; k++ {
		decs[k] = decs[0].Clone()
		logits[k] = append([]float32(nil), logits[0]...)
	}

	for i := 0; i < t.sample; i++ {
		if i > 0 {
			last := make([]int, len(seqs))
			for k, seq := range seqs {
				last[k] = seq[len(seq)-1]
			}
			rows, err := forwardEach(decs, last)
			*forwarded += len(decs)
			if err != nil {
				return nil, nil, 0, fmt.Errorf("whisper: decoding: %w", err)
			}
			for k, row := range rows {
				logits[k] = append(logits[k][:0], row...)
			}
		}
		for k := range logits {
			for _, f := range t.filters {
				f.Apply(logits[k], seqs[k])
			}
		}
		next, sources, completed := t.decoder.Update(seqs, logits, sum)
		decs = rearrange(decs, sources)
		seqs = next
		if completed || len(seqs[0]) > t.nCtx {
			break
		}
	}
	return seqs, sum, noSpeech, nil
}

// rearrange returns the caches for the new sequences: each source's cache
// goes to the first sequence that continues it, copies to the others,
// made where it can in the cache of a source no sequence continues
// (cacheCopier: no new memory per step), else by Clone.
func rearrange(decs []TextDecoder, sources []int) []TextDecoder {
	out := make([]TextDecoder, len(sources))
	used := make([]bool, len(decs))
	for k, s := range sources {
		if !used[s] {
			out[k], used[s] = decs[s], true
		}
	}
	var spare []TextDecoder
	for i, d := range decs {
		if !used[i] {
			spare = append(spare, d)
		}
	}
	for k, s := range sources {
		if out[k] != nil {
			continue
		}
		if n := len(spare); n > 0 {
			if c, ok := spare[n-1].(cacheCopier); ok && c.copyFrom(decs[s]) {
				out[k], spare = spare[n-1], spare[:n-1]
				continue
			}
		}
		out[k] = decs[s].Clone()
	}
	return out
}

// cacheCopier is a TextDecoder that can become a copy of another in its
// own memory: copyFrom makes it equal to src, as src.Clone() would be, and
// reports whether it could (src of the same kind and network).
type cacheCopier interface {
	copyFrom(src TextDecoder) bool
}

// softmaxAt returns softmax(x)[i] (float32 logits, float64 arithmetic).
func softmaxAt(x []float32, i int) float64 {
	if i < 0 || i >= len(x) {
		return math.NaN()
	}
	return math.Exp(float64(x[i]) - logSumExp(x))
}
