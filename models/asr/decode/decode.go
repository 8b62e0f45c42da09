package decode

import (
	"slices"

	"github.com/attend-go/attend/models/asr"
)

// Decode transcribes an encoded utterance: the attention beam search
// (greedy for Beam 1) with optional joint CTC scoring and language-model
// fusion, then either joint rescoring of its transcripts with the CTC
// and phone beams' (Options.CTCBeam) or the attention result guarded
// against the loops and early stops attention decoders show on unusual
// input (the CTC best path replaces a broken one). ws is the workspace e
// was encoded in, or any other; a nil opts means DefaultOptions.
func Decode(m *asr.Model, ws *asr.Workspace, e *asr.Encoded, opts *Options) (*Result, error) {
	o := opts.withDefaults(e.CTCLogProbs != nil)
	finished, active, err := attentionBeam(m, ws, e, o)
	if err != nil {
		return nil, err
	}
	if o.CTCBeam > 0 && e.CTCLogProbs != nil {
		return jointResult(m, ws, e, o, finished)
	}
	return attentionResult(m, e, o, finished, active), nil
}

// jointResult picks the transcript by joint rescoring (rescore) among the
// attention beam's finished hypotheses and the transcripts of the CTC
// prefix beam and the phone beam.
func jointResult(m *asr.Model, ws *asr.Workspace, e *asr.Encoded, o Options, finished []*hypothesis) (*Result, error) {
	cands := make([][]int, 0, len(finished)+o.CTCBeam)
	for _, h := range finished {
		cands = append(cands, h.tokens)
	}
	cands = append(cands, ctcBeam(m, e, o, o.CTCBeam)...)
	cands = append(cands, phoneBeam(m, e, o, o.PhoneBeam)...)
	r, err := rescore(m, ws, e, o, cands)
	if err != nil {
		return nil, err
	}
	r.FromCTC = !slices.ContainsFunc(finished, func(h *hypothesis) bool { return slices.Equal(h.tokens, r.Tokens) })
	return r, nil
}

// attentionResult is the attention beam's transcript (pick), or the CTC
// head's best path when that looks broken (broken) and the model has the
// head, unless o.NoFallback.
func attentionResult(m *asr.Model, e *asr.Encoded, o Options, finished, active []*hypothesis) *Result {
	res := pick(m, finished, active, o)
	if !o.NoFallback {
		if reason := broken(m, res, finished, e); reason != "" && e.CTCLogProbs != nil {
			return ctcResult(m, e, reason)
		}
	}
	return res
}
