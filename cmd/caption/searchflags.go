package main

import (
	"flag"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/captioning"
)

// searchFlags registers the search's ranking flags on fs, their defaults
// those of s: the repetition rules (models/caption's repeat.go) and the
// length penalty.
func searchFlags(fs *flag.FlagSet, s *captioning.SearchOptions) {
	fs.IntVar(&s.NoRepeatNGram, "no-repeat-ngram", s.NoRepeatNGram, "never say the same n words twice in a caption (0: off)")
	fs.Float64Var(&s.RepeatPenalty, "repeat-penalty", s.RepeatPenalty, "rank a word the caption already has this many nats lower (0: off)")
	fs.Float64Var(&s.LengthPenalty, "length-penalty", s.LengthPenalty, "rank a beam's captions by log-probability / (words + 1)^`α` (0 favours short captions)")
}

// checkSearchFlags refuses search flags out of range.
func checkSearchFlags(s *captioning.SearchOptions) error {
	if s.NoRepeatNGram < 0 || s.NoRepeatNGram > 100 {
		return cli.Usagef("-no-repeat-ngram %d: want 0 (off) to 100", s.NoRepeatNGram)
	}
	if !(s.RepeatPenalty >= 0 && s.RepeatPenalty <= 100) {
		return cli.Usagef("-repeat-penalty %v: want 0 (off) to 100", s.RepeatPenalty)
	}
	if !(s.LengthPenalty >= 0 && s.LengthPenalty <= 10) {
		return cli.Usagef("-length-penalty %v: want 0 to 10", s.LengthPenalty)
	}
	return nil
}
