package whisper

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// A tiny vocabulary for decoding tests: text tokens 0…9 (0 is " ", 1 is
// ".", 2… are " w2" …), then the special tokens and 1,501 timestamps.
const (
	fEOT = 10 + iota
	fSOT
	fEn
	fDe
	fTranslate
	fTranscribe
	fSOTLM
	fSOTPrev
	fNoSpeech
	fNoTimestamps
	fTB // <|0.00|>
)

const fVocab = fTB + 1501

type fakeTokenizer struct{ multilingual bool }

func (fakeTokenizer) Specials() Specials {
	return Specials{EOT: fEOT, SOT: fSOT, Translate: fTranslate, Transcribe: fTranscribe, SOTLM: fSOTLM,
		SOTPrev: fSOTPrev, NoSpeech: fNoSpeech, NoTimestamps: fNoTimestamps, TimestampBegin: fTB}
}

func fakeTokenText(id int) string {
	switch {
	case id == 0:
		return " "
	case id == 1:
		return "."
	case id < fEOT:
		return fmt.Sprintf(" w%d", id)
	}
	return ""
}

func (fakeTokenizer) Encode(text string) []int {
	var ids []int
	for text != "" {
		switch {
		case strings.HasPrefix(text, "."):
			ids, text = append(ids, 1), text[1:]
		case strings.HasPrefix(text, " w") && len(text) >= 3:
			ids, text = append(ids, int(text[2]-'0')), text[3:]
		default:
			ids, text = append(ids, 0), text[1:]
		}
	}
	return ids
}

func (fakeTokenizer) Decode(ids []int) string {
	var b strings.Builder
	for _, id := range ids {
		b.WriteString(fakeTokenText(id))
	}
	return b.String()
}

func (f fakeTokenizer) SOTSequence(language, task string) ([]int, error) {
	if !f.multilingual {
		return []int{fSOT}, nil
	}
	lang := map[string]int{"en": fEn, "de": fDe}[language]
	if lang == 0 {
		return nil, fmt.Errorf("no language %q", language)
	}
	t := fTranscribe
	if task == "translate" {
		t = fTranslate
	}
	return []int{fSOT, lang, t}, nil
}

func (fakeTokenizer) NonSpeechTokens() []int { return []int{1} }

func (f fakeTokenizer) LanguageTokens() ([]string, []int) {
	if !f.multilingual {
		return nil, nil
	}
	return []string{"en", "de"}, []int{fEn, fDe}
}

// SplitToWordTokens starts a word at every token that begins with a space
// and at every special token.
func (fakeTokenizer) SplitToWordTokens(tokens []int, _ string) ([]string, [][]int) {
	var words []string
	var groups [][]int
	for _, t := range tokens {
		text := fakeTokenText(t)
		if t >= fEOT {
			text = "<|special|>"
		}
		if len(groups) == 0 || t >= fEOT || strings.HasPrefix(text, " ") {
			words = append(words, text)
			groups = append(groups, []int{t})
			continue
		}
		words[len(words)-1] += text
		groups[len(groups)-1] = append(groups[len(groups)-1], t)
	}
	return words, groups
}

// fakeNet is a Network whose decoder's logits come from a script of the
// window (the encoder's first value, which tests set to the window's
// first frame) and the tokens so far. Cross-attention scores come from
// qk, given the window and the token position.
type fakeNet struct {
	dims   Dims
	script func(window float32, tokens []int) []float32
	qk     func(pos, frame int) float32
	// prompts records the tokens of each decoder's first Forward.
	prompts [][]int
	// onEncode, when set, sees every window encoded.
	onEncode func(mel []float32)
}

func newFakeNet(script func(window float32, tokens []int) []float32) *fakeNet {
	return &fakeNet{
		dims: Dims{NMels: 2, NAudioCtx: 1500, NAudioState: 1, NAudioHead: 1, NAudioLayer: 1,
			NVocab: fVocab, NTextCtx: 448, NTextState: 4, NTextHead: 2, NTextLayer: 2},
		script: script,
	}
}

func (n *fakeNet) Dims() Dims { return n.dims }

func (n *fakeNet) Encode(mel []float32) (*AudioFeatures, error) {
	if n.onEncode != nil {
		n.onEncode(mel)
	}
	return &AudioFeatures{Data: []float32{mel[0]}, Frames: 1, Width: 1}, nil
}

func (n *fakeNet) NewDecoder(audio *AudioFeatures, record [][2]int) TextDecoder {
	return &fakeDecoder{net: n, window: audio.Data[0], record: len(record) > 0}
}

type fakeDecoder struct {
	net    *fakeNet
	window float32
	tokens []int
	record bool
}

func (d *fakeDecoder) Forward(tokens []int) ([][]float32, error) {
	if len(d.tokens) == 0 {
		d.net.prompts = append(d.net.prompts, append([]int(nil), tokens...))
	}
	var rows [][]float32
	for _, t := range tokens {
		d.tokens = append(d.tokens, t)
		if len(d.tokens) > d.net.dims.NTextCtx {
			return nil, fmt.Errorf("position %d beyond the context", len(d.tokens)-1)
		}
		rows = append(rows, d.net.script(d.window, append([]int(nil), d.tokens...)))
	}
	return rows, nil
}

func (d *fakeDecoder) Len() int { return len(d.tokens) }

func (d *fakeDecoder) Clone() TextDecoder {
	c := *d
	c.tokens = append([]int(nil), d.tokens...)
	return &c
}

func (d *fakeDecoder) CrossQK(l, h int) [][]float32 {
	if !d.record {
		return nil
	}
	rows := make([][]float32, len(d.tokens))
	for p := range rows {
		rows[p] = make([]float32, 1500)
		for f := range rows[p] {
			if d.net.qk != nil {
				rows[p][f] = d.net.qk(p, f)
			}
		}
	}
	return rows
}

// peaked returns logits of 0 everywhere but high at the listed ids.
func peaked(high float32, ids ...int) []float32 {
	x := make([]float32, fVocab)
	for _, id := range ids {
		x[id] = high
	}
	return x
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0)) }
