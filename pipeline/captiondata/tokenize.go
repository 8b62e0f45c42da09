package captiondata

import "github.com/attend-go/attend/pipeline/metrics"

// Tokenize splits a caption into the lower-case words the caption models
// are trained on. It is metrics.Tokenize, the tokenization the caption
// metrics (BLEU, METEOR, ROUGE-L, CIDEr-D) score with, an approximation of
// the COCO evaluation's PTB tokenizer with its punctuation removed, so a
// model learns the very words it is scored on: "A dog's T-shirt." gives
// "a", "dog", "'s", "t-shirt". See metrics.Tokenize for the rules.
func Tokenize(caption string) []string { return metrics.Tokenize(caption) }
