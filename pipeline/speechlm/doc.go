// Package speechlm trains and scores the language models of attend's
// speech recognizer: TrainWordLM fits a word n-gram model (package
// models/lm/ngram, ARPA or binary) on normalized text or transcripts,
// mixing it with another if asked, and LMPerplexity scores text with one;
// TrainLM fits the character LSTM language model (models/lm) for shallow
// fusion. The recognizer loads what they write through
// speechmodel.LanguageModel.
package speechlm
