// Package lm holds the language models that speech decoding fuses with
// the recognizer's scores, in one place:
//
//   - Char, a character-level LSTM language model over the recognizer's
//     vocabulary, trained on text alone (pipeline/speechlm's TrainLM) and
//     fused per character (shallow fusion, Gulcehre et al. 2015):
//
//     h_i = LSTM(E·y_{i−1}, h_{i−1}),  p(y_i | y_<i) = softmax(W·h_i + b)
//
//     Its eager face (Start, Next) implements decode.LanguageModel; its
//     graph face (BuildFunc, Key, Inputs, Batch) trains it with
//     models.Buckets like the recognizer.
//
//   - DefaultNGram, the word n-gram model shipped with the default
//     recognizer (a modified Kneser-Ney 3-gram in ARPA format, embedded):
//     the package ngram (models/lm/ngram) reads, trains, mixes and scores
//     such models; package decode fuses one into the character searches
//     through a lexicon (decode.WordLM).
//
// Character models read and write the model file format
// (models/safetensors) with kind CharKind; word models are ARPA files.
package lm
