package asr

import (
	"fmt"

	"github.com/attend-go/attend/models"
)

// Phones is the phone CTC head's inventory after the blank: the 39
// ARPAbet phones of the CMU pronouncing dictionary without stress marks
// (15 vowels, 24 consonants). Phone id i+1 is Phones[i]; id PhoneBlank
// (0) is the CTC blank. There is no word-boundary symbol: the character
// CTC head and the speller already see the spaces, and a phone-only target
// keeps the auxiliary task the low-level one of Toshniwal et al. (2017).
var Phones = [...]string{
	"AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH",
	"EH", "ER", "EY", "F", "G", "HH", "IH", "IY", "JH", "K",
	"L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH",
	"T", "TH", "UH", "UW", "V", "W", "Y", "Z", "ZH",
}

// PhoneBlank is the phone CTC head's blank id.
const PhoneBlank = 0

// PhoneSetSize is P, the phone head's outputs: the blank and Phones.
const PhoneSetSize = len(Phones) + 1

var phoneIDs = func() map[string]int {
	ids := make(map[string]int, len(Phones))
	for i, p := range Phones {
		ids[p] = i + 1
	}
	return ids
}()

// PhoneID returns the id of an ARPAbet phone without stress ("AH" → 3),
// or false for a string not in Phones.
func PhoneID(phone string) (int, bool) {
	id, ok := phoneIDs[phone]
	return id, ok
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
