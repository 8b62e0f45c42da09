package asr

import (
	"fmt"
	"slices"

	"github.com/attend-go/attend/attention"
)

// rowKeys prepares the attention keys of k decoder rows over one encoded
// utterance: its memory repeated k times (in ws.rep; used as is for k = 1).
func (m *Model) rowKeys(ws *Workspace, e *Encoded, k int) (*attention.Keys, error) {
	T, D := e.T, e.D
	mem := e.Memory[:T*D]
	if k > 1 {
		if cap(ws.rep) < k*T*D {
			ws.rep = make([]float32, k*T*D)
		}
		ws.rep = ws.rep[:k*T*D]
		for r := range k {
			copy(ws.rep[r*T*D:], mem)
		}
		mem = ws.rep
	}
	keys, err := m.Speller.Attention.Prepare(mem, nil, k, T)
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	return keys, nil
}

// forceBatch forces k transcripts through the speller at once (teacher
// forcing, one decoder row each; Align is its k = 1) and returns each one's
// Forced: per-token attention rows and log-probabilities, and the
// log-probability of the end of sentence after it.
func (m *Model) forceBatch(ws *Workspace, e *Encoded, hyps [][]int) ([]*Forced, error) {
	k, T, V := len(hyps), e.T, m.Vocab.Size()
	if k == 0 {
		return nil, nil
	}
	keys, err := m.rowKeys(ws, e, k)
	if err != nil {
		return nil, err
	}
	out := make([]*Forced, k)
	longest := 0
	for r, h := range hyps {
		out[r] = &Forced{Tokens: slices.Clone(h), Alignment: make([][]float32, len(h)), LogProbs: make([]float32, len(h))}
		longest = max(longest, len(h))
	}
	cur, next := m.Speller.Start(k), m.Speller.Start(k)
	prev := make([]int, k) // EOS first
	for i := 0; i <= longest; i++ {
		logits, err := m.Speller.Step(&ws.dec, next, cur, keys, prev)
		if err != nil {
			return nil, fmt.Errorf("asr: speller step %d: %w", i, err)
		}
		ws.logp = append(ws.logp[:0], logits[:k*V]...)
		for r, h := range hyps {
			if i > len(h) {
				continue
			}
			lp := ws.logp[r*V : (r+1)*V]
			logSoftmax(lp)
			if i == len(h) {
				out[r].EndLogProb = lp[EOS]
				prev[r] = EOS
				continue
			}
			out[r].Alignment[i] = slices.Clone(next.Attention.Weights[r*T : (r+1)*T])
			out[r].LogProbs[i] = lp[h[i]]
			prev[r] = h[i]
		}
		cur, next = next, cur
	}
	return out, nil
}

// joint is one complete hypothesis of joint rescoring with its terms.
type joint struct {
	forced   *Forced
	att, ctc float64 // log p_att(y, EOS | x), log p_ctc(y | x)
	lm       float64 // word LM log-probability of the words, </s> included
	phone    float64 // log p_phone(phones(y) | x) − penalty·|unknown words|
	words    int
	score    float64
}

// rescore scores complete transcripts (from the attention beam and the
// CTC prefix beam search, duplicates removed) with the full objective
//
//	(1−μ)·log p_att(y|x) + μ·log p_ctc(y|x) + β_w·log p_LM(words) + bonus·|words| + γ·|y|
//	  + λ_ph·(log p_phone(phones(y)|x) − π·|unknown words|)
//
// (γ: SearchOptions.CharBonus per character; λ_ph and π: PhoneWeight and
// PhoneOOVPenalty, with the model's phone head)
// and returns the best as a Result. Every term is of the whole
// transcript, so hypotheses of the two searches compete on equal terms:
// an attention hypothesis that loops or stops early scores badly under
// CTC, and the CTC hypothesis wins (no separate fallback is needed).
func (m *Model) rescore(ws *Workspace, e *Encoded, o SearchOptions, cands [][]int) (*Result, error) {
	seen := map[string]bool{}
	var hyps [][]int
	for _, c := range cands {
		if k := tokenKey(c); !seen[k] {
			seen[k] = true
			hyps = append(hyps, c)
		}
	}
	if len(hyps) == 0 {
		hyps = [][]int{nil}
	}
	forced, err := m.forceBatch(ws, e, hyps)
	if err != nil {
		return nil, err
	}
	var prefix *ctcPrefix
	if e.CTCLogProbs != nil && o.CTCWeight > 0 {
		prefix = &ctcPrefix{T: e.T, V: m.Vocab.Size(), logp: e.CTCLogProbs}
	}
	phones := o.PhoneWeight > 0 && e.PhoneLogProbs != nil && o.PhoneDict != nil
	var best *joint
	for _, f := range forced {
		j := &joint{forced: f, att: f.LogLikelihood()}
		if prefix != nil {
			j.ctc = ctcSequence(prefix, f.Tokens)
		}
		if phones {
			j.phone = m.phoneScore(ws, e, o, f.Tokens)
		}
		if o.WordLM != nil {
			s := o.WordLM.start()
			j.lm = float64(s.la)
			for _, tok := range append(slices.Clip(f.Tokens), EOS) {
				var d float32
				s, d, _ = o.WordLM.extend(s, tok)
				j.lm += float64(d)
			}
			j.words = int(s.words)
		}
		j.score = (1-o.CTCWeight)*j.att + o.CTCWeight*j.ctc + o.WordLMWeight*j.lm + o.WordBonus*float64(j.words) + o.CharBonus*float64(len(f.Tokens)) + o.PhoneWeight*j.phone
		if best == nil || j.score > best.score {
			best = j
		}
	}
	f := best.forced
	return &Result{Tokens: f.Tokens, Text: m.Vocab.Decode(f.Tokens), Score: best.score,
		Alignment: f.Alignment, LogProbs: f.LogProbs}, nil
}

// phoneScore is a transcript's phone term in rescore: the phone head's
// CTC log-probability of its words' pronunciations, any of each word's
// (phoneCTCScore), less o.PhoneOOVPenalty per word that o.PhoneDict lacks
// and the user did not give the word LM's lexicon (phoneWords).
// Pronunciations longer than the frames allow score minPhoneScore, not
// −∞, so that the other terms still rank such transcripts.
func (m *Model) phoneScore(ws *Workspace, e *Encoded, o SearchOptions, tokens []int) float64 {
	var known *Lexicon
	if o.WordLM != nil {
		known = o.WordLM.Lexicon
	}
	words, unknown := phoneWords(o.PhoneDict, known, m.Vocab.Decode(tokens))
	ws.phoneLattice.build(words)
	var lp float64
	lp, ws.phoneAlpha = phoneCTCScore(e.PhoneLogProbs, e.PhoneT, PhoneSetSize, &ws.phoneLattice, ws.phoneAlpha)
	return max(lp, minPhoneScore) - o.PhoneOOVPenalty*float64(unknown)
}

// minPhoneScore floors the phone term of a transcript whose phones do not
// fit in the frames: about 10 nats per frame of a 100 s utterance.
const minPhoneScore = -3e4
