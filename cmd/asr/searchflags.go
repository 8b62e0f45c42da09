package main

import (
	"flag"
	"fmt"
	"math"
	"strings"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// searchFlags are the search and language-model flags of the commands
// that decode (transcribe, eval, serve).
type searchFlags struct {
	so       speechmodel.SearchOptions
	lm       speechmodel.LanguageModel
	hotwords string
	whisper  speechmodel.WhisperOptions
}

func addSearchFlags(fs *flag.FlagSet) *searchFlags {
	l := &searchFlags{so: speechmodel.DefaultSearchOptions(), lm: speechmodel.DefaultLanguageModel()}
	fs.IntVar(&l.so.Beam, "beam", speechmodel.DefaultBeam, "beam width; 1 is greedy search")
	fs.Float64Var(&l.so.LengthPenalty, "length-penalty", l.so.LengthPenalty, "rank hypotheses by score / length^α; 0 for none")
	fs.Float64Var(&l.so.EOSThreshold, "eos-threshold", l.so.EOSThreshold, "end of sentence only when log p(end) ≥ γ · log p(best character); 0 for none")
	fs.Float64Var(&l.so.CTCWeight, "ctc-weight", 0.3, "weight μ of the CTC score in joint decoding; 0 for attention alone")
	fs.IntVar(&l.so.CTCBeam, "ctc-beam", speechmodel.DefaultCTCBeam, "width of the CTC prefix beam search whose transcripts join the attention beam's for joint rescoring; 0 for none (attention alone, with the CTC best path as fallback)")
	fs.StringVar(&l.lm.Path, "lm", "", `language model `+"`file`"+`: a word n-gram model in ARPA format (.arpa or .arpa.gz, from asr train-lm, KenLM or SRILM) or CMU Sphinx's binary format (.lm.bin), or a character LM (asr train-lm -char); "none" for none (default: the embedded word LM)`)
	fs.Float64Var(&l.lm.Weight, "lm-weight", speechmodel.DefaultWordLMWeight, fmt.Sprintf("weight β of the language model's log-probability (%g for a character LM unless set)", speechmodel.DefaultCharLMWeight))
	fs.Float64Var(&l.so.CharBonus, "char-bonus", speechmodel.DefaultCharBonus, "score added per character of a transcript in joint rescoring (with -ctc-beam): offsets the CTC and LM terms' preference for short transcripts")
	fs.Float64Var(&l.so.PhoneWeight, "phone-weight", speechmodel.DefaultPhoneWeight, "weight of the phone CTC head's score of each transcript's pronunciations in joint rescoring (with -ctc-beam; models with a phone head); 0 for none")
	fs.IntVar(&l.so.PhoneBeam, "phone-beam", speechmodel.DefaultPhoneBeam, "width of the phone beam search, over dictionary words as they sound, whose transcripts join joint rescoring (with -ctc-beam and a word LM; models with a phone head); 0 for none")
	fs.Float64Var(&l.so.PhoneOOVPenalty, "phone-oov-penalty", speechmodel.DefaultPhoneOOVPenalty, "phone score penalty (nats) per word without a pronunciation in the embedded CMU dictionary (with -phone-weight)")
	fs.Float64Var(&l.lm.WordBonus, "word-bonus", speechmodel.DefaultWordBonus, "score added per recognized word (word LMs)")
	fs.Float64Var(&l.lm.OOVPenalty, "oov-penalty", speechmodel.DefaultOOVPenalty, "penalty (nats) for a word outside the lexicon (word LMs)")
	fs.StringVar(&l.lm.Lexicon, "lexicon", "", "`file` of extra words the search may spell, one or more per line (word LMs)")
	fs.StringVar(&l.hotwords, "hotwords", "", "comma-separated `words` to favour, such as names (word LMs)")
	fs.BoolVar(&l.lm.NoLookAhead, "no-lookahead", false, "score each word only when it ends, without the look-ahead over the words a prefix can become (word LMs)")
	fs.Float64Var(&l.lm.HotwordBonus, "hotword-bonus", speechmodel.DefaultHotwordBonus, "bonus per recognized hotword, in the word LM's nats (weighted by -lm-weight)")
	fs.StringVar(&l.whisper.Language, "language", "auto", "spoken `language` for Whisper models: a code (en, de, zh, …), a name (german), or auto to detect it (multilingual models)")
	fs.StringVar(&l.whisper.Task, "task", "transcribe", "Whisper models: transcribe, or translate into English (multilingual models)")
	fs.StringVar(&l.whisper.Prompt, "prompt", "", "Whisper models: initial prompt `text` that conditions the first window (names, spelling, style)")
	fs.Float64Var(&l.whisper.Patience, "patience", 0, "Whisper models: beam search patience (with -beam; 0 means 1.0)")
	fs.IntVar(&l.whisper.SampleLen, "sample-len", 0, "Whisper models: sample at most `N` tokens per window, timestamps and end of text included (openai/whisper's sample_len); 0 means n_text_ctx/2 (224)")
	fs.IntVar(&l.whisper.AudioCtx, "audio-ctx", 0, "Whisper models: encode windows of `N`×20 ms instead of 30 s, so the encoder costs in proportion to N (whisper.cpp's -ac); trades accuracy for speed, the models having been trained on 30-s windows; 0 means the full window (1500)")
	return l
}

// decoding checks the flags after parsing and returns the decoding
// options of every model family: finish's for LAS models; for Whisper
// models the flags above, and -beam only when given (Whisper decodes
// greedily by default, as openai/whisper's transcribe() does).
func (l *searchFlags) decoding(fs *flag.FlagSet) (speechmodel.Decoding, error) {
	so, lm, err := l.finish(fs)
	if err != nil {
		return speechmodel.Decoding{}, err
	}
	w := l.whisper
	w.NoFallback = so.NoFallback
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "beam" {
			w.Beam = so.Beam
		}
	})
	if math.IsNaN(w.Patience) || w.Patience < 0 {
		return speechmodel.Decoding{}, cli.Usagef("-patience %v: want a number ≥ 0", w.Patience)
	}
	if w.SampleLen < 0 {
		return speechmodel.Decoding{}, cli.Usagef("-sample-len %d: want 0 (224) or the most tokens a window samples", w.SampleLen)
	}
	if w.AudioCtx < 0 {
		return speechmodel.Decoding{}, cli.Usagef("-audio-ctx %d: want 0 (the full window) or a number of 20 ms positions", w.AudioCtx)
	}
	return speechmodel.Decoding{Search: so, LM: lm, Whisper: w}, nil
}

// finish checks the flags after parsing and returns the search options
// (language model not yet loaded: LanguageModel.Apply does that for a
// model) and the language model configuration.
func (l *searchFlags) finish(fs *flag.FlagSet) (speechmodel.SearchOptions, speechmodel.LanguageModel, error) {
	if l.so.Beam < 1 {
		return l.so, l.lm, cli.Usagef("-beam %d: want at least 1", l.so.Beam)
	}
	if !(l.so.CTCWeight >= 0 && l.so.CTCWeight <= 1) {
		return l.so, l.lm, cli.Usagef("-ctc-weight %v: want [0, 1]", l.so.CTCWeight)
	}
	if math.IsNaN(l.so.CharBonus) || math.IsInf(l.so.CharBonus, 0) {
		return l.so, l.lm, cli.Usagef("-char-bonus %v: want a finite number", l.so.CharBonus)
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"phone-weight", l.so.PhoneWeight}, {"phone-oov-penalty", l.so.PhoneOOVPenalty}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < 0 {
			return l.so, l.lm, cli.Usagef("-%s %v: want a finite number ≥ 0", v.name, v.x)
		}
	}
	if l.so.CTCBeam < 0 {
		return l.so, l.lm, cli.Usagef("-ctc-beam %d: want 0 (none) or a width", l.so.CTCBeam)
	}
	if l.so.PhoneBeam < 0 {
		return l.so, l.lm, cli.Usagef("-phone-beam %d: want 0 (none) or a width", l.so.PhoneBeam)
	}
	phoneBeamSet := false
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "lm-weight":
			l.lm.WeightSet = true
		case "phone-beam":
			phoneBeamSet = true
		}
	})
	if phoneBeamSet && l.so.PhoneBeam > 0 { // the default width is dropped quietly where it cannot run
		switch {
		case l.lm.Path == speechmodel.NoLM:
			return l.so, l.lm, cli.Usagef("-phone-beam %d searches the word LM's words, and the language model is off (-lm %s)", l.so.PhoneBeam, speechmodel.NoLM)
		case l.so.CTCBeam == 0:
			return l.so, l.lm, cli.Usagef("-phone-beam %d joins joint rescoring, which -ctc-beam 0 turns off", l.so.PhoneBeam)
		}
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"lm-weight", l.lm.Weight}, {"word-bonus", l.lm.WordBonus}, {"oov-penalty", l.lm.OOVPenalty}, {"hotword-bonus", l.lm.HotwordBonus}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) || (v.name != "word-bonus" && v.x < 0) {
			return l.so, l.lm, cli.Usagef("-%s %v: want a finite number%s", v.name, v.x, map[bool]string{true: " ≥ 0"}[v.name != "word-bonus"])
		}
	}
	for _, h := range strings.Split(l.hotwords, ",") {
		if h = strings.TrimSpace(h); h != "" {
			l.lm.Hotwords = append(l.lm.Hotwords, h)
		}
	}
	return l.so, l.lm, nil
}
