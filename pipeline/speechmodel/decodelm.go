package speechmodel

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
	"github.com/attend-go/attend/models/lm"
	"github.com/attend-go/attend/models/lm/ngram"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/pipeline/speechdata"
)

// NoLM is the LanguageModel.Path that turns language models off.
const NoLM = "none"

// Default word-level decoding weights, tuned on the speechocean762 dev
// speakers with the shipped acoustic model (README, model card).
const (
	DefaultWordLMWeight = 0.4
	DefaultWordBonus    = -0.5
	DefaultOOVPenalty   = 0
	DefaultHotwordBonus = 10
	// DefaultBeam and DefaultCTCBeam are the widths of the attention beam
	// and the CTC prefix beam whose transcripts are rescored jointly;
	// DefaultCharBonus is the rescoring's bonus per character.
	DefaultBeam      = decode.DefaultBeam
	DefaultCTCBeam   = decode.DefaultCTCBeam
	DefaultCharBonus = decode.DefaultCharBonus
	// DefaultPhoneWeight and DefaultPhoneOOVPenalty weigh the phone head's
	// score in joint rescoring (decode.Options.PhoneWeight).
	DefaultPhoneWeight     = decode.DefaultPhoneWeight
	DefaultPhoneOOVPenalty = decode.DefaultPhoneOOVPenalty
	// DefaultPhoneBeam is the width of the phone beam search over
	// dictionary words (decode.Options.PhoneBeam).
	DefaultPhoneBeam = decode.DefaultPhoneBeam
	// DefaultCharLMWeight is the weight of a character LM (asr train-lm -char).
	DefaultCharLMWeight = 0.3
)

// LanguageModel says which language model beam search fuses and how.
// Use DefaultLanguageModel for the defaults: zero weights are real zeros.
type LanguageModel struct {
	// Path is "" for the embedded default word LM, NoLM for none, a
	// character LM (asr train-lm -char, safetensors) or a word n-gram
	// model in ARPA format (.arpa, or gzip-compressed), such as one of
	// "asr train-lm", KenLM's lmplz or SRILM's ngram-count.
	Path string
	// Weight β of the language model's log-probability.
	Weight float64
	// WordBonus is added per recognized word; OOVPenalty (nats) is taken
	// from log p(<unk>) for a word outside the lexicon (word LMs only).
	WordBonus, OOVPenalty float64
	// Lexicon is a file of extra words, one per line (normalized like
	// transcripts), that the search may spell besides the LM's words.
	Lexicon string
	// Hotwords are words (proper names…) the user expects: added to the
	// lexicon, each recognized one gains HotwordBonus (nats, part of the
	// word LM's score and so weighted by Weight).
	Hotwords     []string
	HotwordBonus float64
	// NoLookAhead scores each word only when it ends (see
	// decode.WordLM.NoLookAhead).
	NoLookAhead bool
	// WeightSet says that Weight was chosen by the user; otherwise a
	// character LM gets DefaultCharLMWeight.
	WeightSet bool
}

// DefaultLanguageModel returns the default decoding: the embedded word LM
// with the default weights.
func DefaultLanguageModel() LanguageModel {
	return LanguageModel{Weight: DefaultWordLMWeight, WordBonus: DefaultWordBonus,
		OOVPenalty: DefaultOOVPenalty, HotwordBonus: DefaultHotwordBonus}
}

// Apply loads the language model (and lexicon) for model's vocabulary and
// sets it in so. Errors name the file and the reason.
func (l LanguageModel) Apply(model *asr.Model, so *decode.Options) error {
	if err := l.apply(model, so); err != nil {
		return err
	}
	return applyPhones(model, so)
}

// applyPhones gives the search the embedded pronouncing dictionary when
// it weighs the phone head's score (so.PhoneWeight) or runs the phone
// beam search (so.PhoneBeam) and model has the head; without the head
// both are dropped.
func applyPhones(model *asr.Model, so *decode.Options) error {
	if so.PhoneWeight < 0 || model.PhoneCTC == nil {
		so.PhoneWeight = 0
	}
	if so.PhoneBeam < 0 || model.PhoneCTC == nil {
		so.PhoneBeam = 0
	}
	if so.PhoneWeight == 0 && so.PhoneBeam == 0 {
		return nil
	}
	if so.PhoneDict != nil {
		return nil
	}
	d, err := decode.DefaultPhoneDict()
	if err != nil {
		return err
	}
	so.PhoneDict = d
	return nil
}

func (l LanguageModel) apply(model *asr.Model, so *decode.Options) error {
	so.LM, so.WordLM = nil, nil
	so.LMWeight, so.WordLMWeight, so.WordBonus = 0, 0, 0
	if l.Path == NoLM {
		if l.Lexicon != "" || len(l.Hotwords) > 0 {
			return fmt.Errorf("a lexicon and hotwords need a word language model, and the language model is off (%q)", NoLM)
		}
		return nil
	}
	if l.Path != "" && isModelFile(l.Path) {
		if l.Lexicon != "" || len(l.Hotwords) > 0 {
			return fmt.Errorf("%s is a character language model: a lexicon and hotwords need a word language model (n-gram, ARPA)", l.Path)
		}
		lm, err := LoadLM(l.Path)
		if err != nil {
			return err
		}
		so.LM, so.LMWeight = lm, DefaultCharLMWeight
		if l.WeightSet {
			so.LMWeight = l.Weight
		}
		return nil
	}
	var (
		words *ngram.Model
		err   error
	)
	if l.Path == "" {
		words, err = lm.DefaultNGram()
	} else {
		words, err = LoadWordLM(l.Path)
	}
	if err != nil {
		return err
	}
	extra, err := readLexicon(l.Lexicon)
	if err != nil {
		return err
	}
	hot := map[string]float32{}
	for _, h := range l.Hotwords {
		for _, w := range strings.Fields(speechdata.Normalize(h)) {
			hot[w] = float32(l.HotwordBonus)
		}
	}
	lx, err := decode.NewLexicon(words, model.Vocab, extra, hot)
	if err != nil {
		return err
	}
	wlm, err := decode.NewWordLM(words, lx, model.Vocab, float32(l.OOVPenalty))
	if err != nil {
		return err
	}
	wlm.NoLookAhead = l.NoLookAhead
	so.WordLM, so.WordLMWeight, so.WordBonus = wlm, l.Weight, l.WordBonus
	return nil
}

// LoadWordLM reads a word n-gram model in ARPA format (plain or gzip);
// words are lower-cased, as transcripts are normalized.
func LoadWordLM(path string) (*ngram.Model, error) {
	m, err := ngram.Load(path, &ngram.LoadOptions{MapWord: strings.ToLower})
	if err != nil {
		return nil, fmt.Errorf("language model %s: %w", path, err)
	}
	return m, nil
}

// isModelFile reports whether path starts like a safetensors model file
// (an 8-byte header length, then a JSON object) rather than ARPA text or
// gzip.
func isModelFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 9)
	n, _ := f.Read(head)
	return n == 9 && head[8] == '{' && !bytes.HasPrefix(head, []byte{0x1f, 0x8b})
}

// readLexicon reads extra words, one or more per line, normalized like
// transcripts; "" reads none.
func readLexicon(path string) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	defer f.Close()
	var words []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		words = append(words, strings.Fields(speechdata.Normalize(sc.Text()))...)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("lexicon %s: %w", path, err)
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("lexicon %s: no words", path)
	}
	return words, nil
}

// LoadLM reads a character language model file.
func LoadLM(path string) (*lm.Char, error) {
	f, err := safetensors.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return lm.LoadChar(f)
}
