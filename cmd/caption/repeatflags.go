package main

import (
	"flag"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/captioning"
)

// repeatFlags registers the search's repetition flags (models/caption's
// repeat.go) on fs, their defaults those of s.
func repeatFlags(fs *flag.FlagSet, s *captioning.SearchOptions) {
	fs.IntVar(&s.NoRepeatNGram, "no-repeat-ngram", s.NoRepeatNGram, "never say the same n words twice in a caption (0: off)")
	fs.Float64Var(&s.RepeatPenalty, "repeat-penalty", s.RepeatPenalty, "rank a word the caption already has this many nats lower (0: off)")
}

// checkRepeatFlags refuses repetition flags out of range.
func checkRepeatFlags(s *captioning.SearchOptions) error {
	if s.NoRepeatNGram < 0 || s.NoRepeatNGram > 100 {
		return cli.Usagef("-no-repeat-ngram %d: want 0 (off) to 100", s.NoRepeatNGram)
	}
	if !(s.RepeatPenalty >= 0 && s.RepeatPenalty <= 100) {
		return cli.Usagef("-repeat-penalty %v: want 0 (off) to 100", s.RepeatPenalty)
	}
	return nil
}
