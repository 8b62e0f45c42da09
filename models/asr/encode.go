package asr

import (
	"errors"
	"fmt"

	"github.com/attend-go/attend/models"
)

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
	rep     []float32
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
	// phone head. Joint rescoring reads them (SearchOptions.PhoneWeight).
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
