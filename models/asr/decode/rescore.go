package decode

import (
	"github.com/attend-go/attend/models/asr"
)

// joint is one complete hypothesis of joint rescoring with its terms.
type joint struct {
	forced   *asr.Forced
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
// (γ: Options.CharBonus per character; λ_ph and π: PhoneWeight and
// PhoneOOVPenalty, with the model's phone head)
// and returns the best as a Result. Every term is of the whole
// transcript, so hypotheses of the two searches compete on equal terms:
// an attention hypothesis that loops or stops early scores badly under
// CTC, and the CTC hypothesis wins (no separate fallback is needed).
func rescore(m *asr.Model, ws *asr.Workspace, e *asr.Encoded, o Options, cands [][]int) (*Result, error) {
	forced, err := m.ForceBatch(ws, e, unique(cands))
	if err != nil {
		return nil, err
	}
	sc := scorer{m: m, e: e, o: o}
	if e.CTCLogProbs != nil && o.CTCWeight > 0 {
		sc.prefix = &ctcPrefix{T: e.T, V: m.Vocab.Size(), logp: e.CTCLogProbs}
	}
	sc.phones = o.PhoneWeight > 0 && e.PhoneLogProbs != nil && o.PhoneDict != nil
	var ctc []float64
	if sc.prefix != nil {
		seqs := make([][]int, len(forced))
		for i, f := range forced {
			seqs[i] = f.Tokens
		}
		ctc = ctcSequences(sc.prefix, seqs)
	}
	var best *joint
	for i, f := range forced {
		var c float64
		if ctc != nil {
			c = ctc[i]
		}
		if j := sc.score(f, c); best == nil || j.score > best.score {
			best = j
		}
	}
	f := best.forced
	return &Result{Tokens: f.Tokens, Text: m.Vocab.Decode(f.Tokens), Score: best.score,
		Alignment: f.Alignment, LogProbs: f.LogProbs}, nil
}

// unique returns cands without repeats, in order; no candidates give the
// empty transcript.
func unique(cands [][]int) [][]int {
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
	return hyps
}

// scorer computes the terms of joint rescoring for one utterance.
type scorer struct {
	m       *asr.Model
	e       *asr.Encoded
	o       Options
	prefix  *ctcPrefix // nil without the CTC term
	phones  bool       // whether the phone term counts
	lattice phoneLattice
	alpha   []float64
}

// score returns the joint score of a forced transcript with its terms,
// given its CTC term ctc (log p_ctc(y|x), ctcSequence; 0 without one).
func (sc *scorer) score(f *asr.Forced, ctc float64) *joint {
	o := sc.o
	j := &joint{forced: f, att: f.LogLikelihood(), ctc: ctc}
	if sc.phones {
		j.phone = sc.phoneScore(f.Tokens)
	}
	if o.WordLM != nil {
		j.lm, j.words = o.WordLM.sentence(f.Tokens)
	}
	j.score = (1-o.CTCWeight)*j.att + o.CTCWeight*j.ctc + o.WordLMWeight*j.lm + o.WordBonus*float64(j.words) + o.CharBonus*float64(len(f.Tokens)) + o.PhoneWeight*j.phone
	return j
}

// phoneScore is a transcript's phone term in rescore: the phone head's
// CTC log-probability of its words' pronunciations, any of each word's
// (phoneCTCScore), less o.PhoneOOVPenalty per word that o.PhoneDict lacks
// and the user did not give the word LM's lexicon (phoneWords).
// Pronunciations longer than the frames allow score minPhoneScore, not
// −∞, so that the other terms still rank such transcripts.
func (sc *scorer) phoneScore(tokens []int) float64 {
	o := sc.o
	var known *Lexicon
	if o.WordLM != nil {
		known = o.WordLM.Lexicon
	}
	words, unknown := phoneWords(o.PhoneDict, known, sc.m.Vocab.Decode(tokens))
	sc.lattice.build(words)
	var lp float64
	lp, sc.alpha = phoneCTCScore(sc.e.PhoneLogProbs, sc.e.PhoneT, asr.PhoneSetSize, &sc.lattice, sc.alpha)
	return max(lp, minPhoneScore) - o.PhoneOOVPenalty*float64(unknown)
}

// minPhoneScore floors the phone term of a transcript whose phones do not
// fit in the frames: about 10 nats per frame of a 100 s utterance.
const minPhoneScore = -3e4
