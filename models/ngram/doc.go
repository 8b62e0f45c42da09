// Package ngram is a word n-gram language model in the ARPA back-off
// format: reading and writing ARPA files (plain or gzip), fast queries
// for beam search, and training by interpolated modified Kneser-Ney.
//
// (The full manual is being written; see the doc comments of Model,
// Score, LookAhead, Load and Train.)
package ngram
