package asr

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models"
)

// This file is the model's eager face: plain Go over the parameter
// tensors, no graph. Encode runs the listener and the CTC heads; RowKeys,
// StepLogProbs and ForceBatch are the speller as the searches of package
// decode use it (k rows at a time); Align forces one known transcript
// through it.

// ErrNoCTC marks a request that needs the model's CTC head from a model
// trained without one.
var ErrNoCTC = errors.New("asr: the model has no CTC head")

// Workspace is one goroutine's working memory for eager inference, reused
// from utterance to utterance.
type Workspace struct {
	lstm    models.LSTMWorkspace
	stacked []float32
	memory  []float32
	ctc     []float32
	phone   []float32 // the phone head's listener layer output
	phoneLP []float32 // its log-probabilities
	dec     SpellerWorkspace
	logp    []float32
}

// Encoded is one utterance after the listener.
type Encoded struct {
	T      int       // encoder frames
	D      int       // encoder width, 2·ListenerHidden
	Memory []float32 // (T, D)
	// CTCLogProbs (T, V) are the CTC head's per-frame log-probabilities;
	// nil without a CTC head. Blank is EOS.
	CTCLogProbs []float32
	// PhoneLogProbs (PhoneT, PhoneSetSize) are the phone CTC head's
	// per-frame log-probabilities over PhoneBlank and Phones, on listener
	// layer Config.PhoneCTCLayer (PhoneT ≥ T frames); nil without a
	// phone head. Joint rescoring reads them (decode.Options.PhoneWeight).
	PhoneLogProbs []float32
	PhoneT        int
}

// Encode runs the listener (and the CTC head) over one utterance's
// normalized log-mel frames (frames, MelBins). The result's slices belong
// to ws until its next Encode.
func (m *Model) Encode(ws *Workspace, features []float32, frames int) (*Encoded, error) {
	bins := m.Config.MelBins
	if frames < 1 {
		return nil, fmt.Errorf("asr: no frames to encode")
	}
	if len(features) != frames*bins {
		return nil, fmt.Errorf("asr: %d feature values for %d frames of %d bins", len(features), frames, bins)
	}
	ws.stacked = Stack(ws.stacked, features, frames, bins, m.Config.Stack) // z (T₀, s·M)
	n := StackedLength(frames, m.Config.Stack)                             // T₀
	var (
		T   int
		err error
	)
	var phoneT int
	if m.PhoneCTC != nil { // h (T', D) and hʲ (Tʲ, D) of the phone head's layer j
		ws.memory, T, _, ws.phone, phoneT, err = m.Listener.ForwardTap(&ws.lstm, ws.memory, ws.stacked, 1, n, []int{n}, m.Config.PhoneCTCLayer, ws.phone)
	} else { // h (T', D)
		ws.memory, T, _, err = m.Listener.Forward(&ws.lstm, ws.memory, ws.stacked, 1, n, []int{n})
	}
	if err != nil {
		return nil, fmt.Errorf("asr: listener: %w", err)
	}
	e := &Encoded{T: T, D: 2 * m.Config.ListenerHidden, Memory: ws.memory}
	if m.PhoneCTC != nil {
		ws.phoneLP = m.phoneHead(ws.phoneLP, ws.phone, phoneT)
		e.PhoneLogProbs, e.PhoneT = ws.phoneLP, phoneT
	}
	if m.CTC != nil {
		V := m.Vocab.Size()
		ws.ctc = m.CTC.Forward(ws.ctc, ws.memory, T) // h·W_c + b_c (T', V)
		for t := range T {
			row := ws.ctc[t*V : (t+1)*V]
			models.LogSoftmax(row, row, V) // log p_ctc(·|t) (V)
		}
		e.CTCLogProbs = ws.ctc
	}
	return e, nil
}

// CTCGreedy returns the CTC head's best-path transcript of e, or nil
// without a CTC head.
func (m *Model) CTCGreedy(e *Encoded) []int {
	if e.CTCLogProbs == nil {
		return nil
	}
	return models.CTCGreedy(nil, e.CTCLogProbs, e.T, m.Vocab.Size(), EOS)
}

// PhoneLogProbs runs the listener up to layer PhoneCTCLayer and the phone
// CTC head over one utterance's normalized log-mel frames (frames,
// MelBins): logProbs (T, P) are per-frame log-posteriors over the blank
// (PhoneBlank) and Phones, T = ⌈frames/Stack⌉ halved once per pyramidal
// layer below the head's. Encode computes them too (Encoded.PhoneLogProbs). The slice
// belongs to ws until its next PhoneLogProbs or Encode. A model without the head is an error.
func (m *Model) PhoneLogProbs(ws *Workspace, features []float32, frames int) (logProbs []float32, T int, err error) {
	if m.PhoneCTC == nil {
		return nil, 0, fmt.Errorf("asr: the model has no phone CTC head (phone_ctc_weight 0)")
	}
	bins := m.Config.MelBins
	if frames < 1 {
		return nil, 0, fmt.Errorf("asr: no frames to encode")
	}
	if len(features) != frames*bins {
		return nil, 0, fmt.Errorf("asr: %d feature values for %d frames of %d bins", len(features), frames, bins)
	}
	ws.stacked = Stack(ws.stacked, features, frames, bins, m.Config.Stack)              // z (T₀, s·M)
	n := StackedLength(frames, m.Config.Stack)                                          // T₀
	lower := m.Listener.Lower(m.Config.PhoneCTCLayer + 1)                               // layers 0 … PhoneCTCLayer
	ws.phone, T, _, err = lower.Forward(&ws.lstm, ws.phone, ws.stacked, 1, n, []int{n}) // hʲ (T, D)
	if err != nil {
		return nil, 0, fmt.Errorf("asr: listener: %w", err)
	}
	ws.phoneLP = m.phoneHead(ws.phoneLP, ws.phone, T)
	return ws.phoneLP, T, nil
}

// phoneHead applies the phone CTC head to layer output h (T, D): dst
// (T, P) holds log p_phone(·|t) = log softmax(hʲ·W_p + b_p), grown when
// short and returned.
func (m *Model) phoneHead(dst, h []float32, T int) []float32 {
	dst = m.PhoneCTC.Forward(dst, h, T) // hʲ·W_p + b_p (T, P)
	for t := range T {
		row := dst[t*PhoneSetSize : (t+1)*PhoneSetSize]
		models.LogSoftmax(row, row, PhoneSetSize) // log p_phone(·|t) (P)
	}
	return dst
}

// PhoneGreedy is the best-path decoding of the phone CTC head over one
// utterance's features (frames, MelBins): the phone ids (1…len(Phones))
// of PhoneLogProbs' most probable labels, repeats merged and blanks
// dropped (models.CTCGreedy). It errs like PhoneLogProbs.
func (m *Model) PhoneGreedy(ws *Workspace, features []float32, frames int) ([]int, error) {
	lp, T, err := m.PhoneLogProbs(ws, features, frames)
	if err != nil {
		return nil, err
	}
	return models.CTCGreedy(nil, lp, T, PhoneSetSize, PhoneBlank), nil
}

// RowKeys prepares the attention keys of k decoder rows over one encoded
// utterance: its memory prepared once and broadcast to the k rows
// (attention.Keys.Broadcast: shared, not copied, by the speller's
// location-aware attention). A beam search of width k steps its rows
// over them.
func (m *Model) RowKeys(e *Encoded, k int) (*attention.Keys, error) {
	T, D := e.T, e.D
	keys, err := m.Speller.Attention.Prepare(e.Memory[:T*D], nil, 1, T)
	if err == nil && k > 1 {
		keys, err = keys.Broadcast(k)
	}
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	return keys, nil
}

// ForceBatch forces k transcripts through the speller at once (teacher
// forcing; Align is its k = 1) and returns each one's Forced: per-token
// attention rows and log-probabilities, and the log-probability of the end
// of sentence after it.
//
// Transcripts that share a prefix share its steps: step i runs one
// decoder row per distinct prefix of i tokens (a prefix trie, see
// prefixRows), so the hypotheses of a beam, which differ mostly in their
// last characters, cost little more than the longest of them.
func (m *Model) ForceBatch(ws *Workspace, e *Encoded, hyps [][]int) ([]*Forced, error) {
	k, T, V := len(hyps), e.T, m.Vocab.Size()
	if k == 0 {
		return nil, nil
	}
	out := make([]*Forced, k)
	for r, h := range hyps {
		out[r] = &Forced{Tokens: slices.Clone(h), Alignment: make([][]float32, len(h)), LogProbs: make([]float32, len(h))}
	}
	steps := prefixRows(hyps)
	most := 0
	for _, st := range steps {
		most = max(most, len(st.parent))
	}
	all, err := m.RowKeys(e, most)
	if err != nil {
		return nil, err
	}
	cur, next := m.Speller.Start(1), m.Speller.Start(1)
	for i, st := range steps {
		n := len(st.parent)
		if i > 0 {
			if err := cur.Gather(next, st.parent); err != nil {
				return nil, fmt.Errorf("asr: speller step %d: %w", i, err)
			}
		}
		keys, err := all.Rows(n)
		if err != nil {
			return nil, err
		}
		logp, err := m.StepLogProbs(ws, next, cur, keys, st.prev)
		if err != nil {
			return nil, fmt.Errorf("asr: speller step %d: %w", i, err)
		}
		for r, h := range hyps {
			if i > len(h) {
				continue
			}
			row := st.row[r]
			lp := logp[row*V : (row+1)*V]
			if i == len(h) {
				out[r].EndLogProb = lp[EOS]
				continue
			}
			out[r].Alignment[i] = slices.Clone(next.Attention.Weights[row*T : (row+1)*T])
			out[r].LogProbs[i] = lp[h[i]]
		}
	}
	return out, nil
}

// StepLogProbs runs one speller step for the k rows of cur (as
// Speller.Step, in ws) and returns the log-probabilities of the next
// token, (k, V) row-major, in ws's memory until the next call: the
// searches' view of the speller.
func (m *Model) StepLogProbs(ws *Workspace, next, cur *SpellerState, keys *attention.Keys, tokens []int) ([]float32, error) {
	k, V := len(tokens), m.Vocab.Size()
	logits, err := m.Speller.Step(&ws.dec, next, cur, keys, tokens)
	if err != nil {
		return nil, err
	}
	ws.logp = append(ws.logp[:0], logits[:k*V]...)
	for r := range k {
		logSoftmax(ws.logp[r*V : (r+1)*V])
	}
	return ws.logp, nil
}

// logSoftmax normalizes x in place to log-probabilities, accumulating
// in float64.
func logSoftmax(x []float32) {
	mx := float32(math.Inf(-1))
	for _, v := range x {
		mx = max(mx, v)
	}
	s := 0.0
	for _, v := range x {
		s += math.Exp(float64(v - mx))
	}
	l := mx + float32(math.Log(s))
	for i := range x {
		x[i] -= l
	}
}

// ErrTokens marks a forced transcript the model cannot spell: a token id
// out of the vocabulary, or EOS inside it.
var ErrTokens = errors.New("asr: invalid tokens")

// Forced is a known transcript forced through the speller (teacher
// forcing): step i reads the reference character i−1 (EOS before the
// first) instead of the model's own guess, so its attention shows where
// the model hears the reference character i.
type Forced struct {
	Tokens []int // the reference, without EOS
	// Alignment holds, per token, its attention weights over the T
	// encoder frames (each row sums to 1), as Result.Alignment does.
	Alignment [][]float32
	// LogProbs holds log p(token_i | tokens_<i, x) per token: low values
	// mark characters the model does not hear where it looked.
	LogProbs []float32
	// EndLogProb is log p(EOS | tokens, x): the model's belief that the
	// utterance ends after the reference.
	EndLogProb float32
}

// LogLikelihood is log p(tokens, EOS | x), the sum of the per-token
// log-probabilities and EndLogProb.
func (f *Forced) LogLikelihood() float64 {
	s := float64(f.EndLogProb)
	for _, lp := range f.LogProbs {
		s += float64(lp)
	}
	return s
}

// Align forces tokens (a normalized transcript encoded with Vocab, without
// EOS) through the speller over an encoded utterance and returns each
// token's attention weights and log-probability. It runs the eager
// speller with batch 1, as the searches do, and matches the training graph's
// teacher-forced forward (Speller.Unroll) step for step; the
// last step, which reads the last token, gives EndLogProb. An empty
// transcript has only that step.
func (m *Model) Align(ws *Workspace, e *Encoded, tokens []int) (*Forced, error) {
	V := m.Vocab.Size()
	for i, tok := range tokens {
		if tok <= EOS || tok >= V {
			return nil, fmt.Errorf("%w: token %d at position %d, want 1..%d", ErrTokens, tok, i, V-1)
		}
	}
	T, D := e.T, e.D
	if T < 1 || len(e.Memory) < T*D {
		return nil, fmt.Errorf("asr: Align: encoded utterance of %d frames holds %d values, want %d", T, len(e.Memory), T*D)
	}
	f, err := m.ForceBatch(ws, e, [][]int{tokens})
	if err != nil {
		return nil, err
	}
	return f[0], nil
}
