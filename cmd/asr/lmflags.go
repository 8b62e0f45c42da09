package main

import (
	"flag"
	"fmt"
	"math"
	"strings"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/speech"
)

// lmFlags are the language-model flags of the commands that decode
// (transcribe, eval).
type lmFlags struct {
	lm       speech.LanguageModel
	hotwords string
}

func addLMFlags(fs *flag.FlagSet) *lmFlags {
	l := &lmFlags{lm: speech.DefaultLanguageModel()}
	fs.StringVar(&l.lm.Path, "lm", "", `language model `+"`file`"+`: a word n-gram model in ARPA format (.arpa or .arpa.gz, from asr train-lm, KenLM or SRILM) or a character LM (asr train-lm -char); "none" for none (default: the embedded word LM)`)
	fs.Float64Var(&l.lm.Weight, "lm-weight", speech.DefaultWordLMWeight, fmt.Sprintf("weight β of the language model's log-probability (%g for a character LM unless set)", speech.DefaultCharLMWeight))
	fs.Float64Var(&l.lm.WordBonus, "word-bonus", speech.DefaultWordBonus, "score added per recognized word (word LMs)")
	fs.Float64Var(&l.lm.OOVPenalty, "oov-penalty", speech.DefaultOOVPenalty, "penalty (nats) for a word outside the lexicon (word LMs)")
	fs.StringVar(&l.lm.Lexicon, "lexicon", "", "`file` of extra words the search may spell, one or more per line (word LMs)")
	fs.StringVar(&l.hotwords, "hotwords", "", "comma-separated `words` to favour, such as names (word LMs)")
	fs.BoolVar(&l.lm.NoLookAhead, "no-lookahead", false, "score each word only when it ends, without the look-ahead over the words a prefix can become (word LMs)")
	fs.Float64Var(&l.lm.HotwordBonus, "hotword-bonus", speech.DefaultHotwordBonus, "score (nats) added per recognized hotword")
	return l
}

// finish checks the flags after parsing and returns the language model
// configuration.
func (l *lmFlags) finish(fs *flag.FlagSet) (speech.LanguageModel, error) {
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "lm-weight" {
			l.lm.WeightSet = true
		}
	})
	for _, v := range []struct {
		name string
		x    float64
	}{{"lm-weight", l.lm.Weight}, {"word-bonus", l.lm.WordBonus}, {"oov-penalty", l.lm.OOVPenalty}, {"hotword-bonus", l.lm.HotwordBonus}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) || (v.name != "word-bonus" && v.x < 0) {
			return l.lm, cli.Usagef("-%s %v: want a finite number%s", v.name, v.x, map[bool]string{true: " ≥ 0"}[v.name != "word-bonus"])
		}
	}
	for _, h := range strings.Split(l.hotwords, ",") {
		if h = strings.TrimSpace(h); h != "" {
			l.lm.Hotwords = append(l.lm.Hotwords, h)
		}
	}
	return l.lm, nil
}
