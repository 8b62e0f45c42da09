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

// rerankFlags registers the beam width (unless beamUsage is "") and the
// reranking flags on fs, into o: -beam's default 0 is the captioner's
// (captioning.DefaultBeam).
func rerankFlags(fs *flag.FlagSet, o *captioning.CaptionerOptions, beamUsage string) {
	if beamUsage != "" {
		fs.IntVar(&o.Beam, "beam", 0, beamUsage+" (default 30 when a memory reranks the candidates, else 3; 1: greedy search)")
	}
	fs.StringVar(&o.Memory, "memory", "", "rerank the beam's candidates by consensus with the captions of the nearest training images in this memory `file` (from caption memory), or none (default: the embedded memory with the embedded model)")
	fs.IntVar(&o.Neighbours, "neighbours", captioning.DefaultNeighbours, "nearest training images whose captions score the candidates")
	fs.Float64Var(&o.RerankWeight, "rerank-weight", captioning.DefaultScoreWeight, "weight λ of the search's score beside the consensus (0: consensus alone)")
}

// checkRerankFlags refuses beam and reranking flags out of range (the
// beam at most maxBeam, 0 for none).
func checkRerankFlags(o *captioning.CaptionerOptions, maxBeam int) error {
	switch {
	case o.Beam < 0 || maxBeam > 0 && o.Beam > maxBeam:
		if maxBeam > 0 {
			return cli.Usagef("-beam %d: want 1..%d", o.Beam, maxBeam)
		}
		return cli.Usagef("-beam %d: want at least 1", o.Beam)
	case o.Neighbours < 1:
		return cli.Usagef("-neighbours %d: want at least 1", o.Neighbours)
	case !(o.RerankWeight >= 0 && o.RerankWeight <= 100):
		return cli.Usagef("-rerank-weight %v: want 0 … 100", o.RerankWeight)
	}
	if o.RerankWeight == 0 {
		o.RerankWeight = -1 // Reranking's "consensus alone"
	}
	return nil
}
