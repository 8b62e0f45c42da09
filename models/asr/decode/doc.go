// Package decode searches with the speech network of package asr: it
// turns an utterance the listener encoded (asr.Model.Encode) into a
// transcript, and places transcripts on the encoder frames. The network
// knows nothing of it; it reads the network through asr.Model's eager
// faces (Encoded, StepLogProbs, RowKeys, ForceBatch).
//
// # Decoding
//
// Decode runs the attention beam search (Options.Beam; 1 is greedy) over
// the speller (beam.go) with, optionally:
//
//   - joint CTC/attention scoring (Watanabe et al. 2017): candidates are
//     ranked by (1−μ)·log p_att + μ·log p_ctc, where p_ctc is the CTC
//     prefix probability (ctcprefix.go);
//   - shallow fusion with a character LanguageModel (such as lm.Char),
//     adding β·log p_LM;
//   - word-level fusion with a word n-gram model (package ngram) through
//     a Lexicon (WordLM, wordlm.go): within a word the look-ahead score
//     of its prefix, max over the words it can become of log p(w | h),
//     at its end the word's own log p(w | h) (Hori, Cho and Watanabe
//     2018); out-of-vocabulary words pay a penalty, hotwords gain a bonus,
//     and each word a bonus (+ β_w·Δlog p_word + bonus per word);
//   - length normalization (score / (length+1)^α, when the attention
//     search picks its result without CTCBeam) and an end-of-sentence
//     threshold, guarded by a maximum length of 1.5·T' + 10 characters.
//
// Each step of the beam (beam.step) reads the speller's log-probabilities
// for its k rows, lets every live hypothesis propose its best candidates
// by the attention and language-model scores (expand), adds the CTC
// prefix score to those few (scoreCTC: O(T) each), and keeps the best k
// (advance), setting aside the ones that end.
//
// With Options.CTCBeam > 0, a CTC prefix beam search (Hannun et al. 2014;
// ctcbeam.go) fused with the same word LM runs beside it, and with a phone
// head, a PhoneDict and a word LM, a phone beam search (PhoneBeam;
// phonebeam.go): a CTC prefix search over the phone head whose prefixes
// are lexicon words as the dictionary pronounces them (a pronunciation
// prefix tree, phonetrie.go). The complete transcripts of all the
// searches are rescored with the full objective (rescore.go)
//
//	(1−μ)·log p_att(y, EOS | x) + μ·log p_ctc(y | x) + β_w·log p_LM(words) + bonus·|words|
//	  + γ·|y| + λ_ph·(log p_phone(phones(y) | x) − π·|unknown words|)
//
// where p_att comes from forcing each transcript through the speller
// (all at once, one decoder row each: asr.Model.ForceBatch), p_ctc sums
// over all CTC alignments and p_phone over the paths through the
// transcript's pronunciations (phonescore.go). An attention transcript
// that loops or stops early scores badly under CTC, and a CTC transcript
// wins instead: no fallback rule is needed, and the CTC side is fused
// with the word LM too.
//
// Without CTCBeam, when the attention decoder clearly fails (no end of
// sentence, or a length far from the CTC head's best path: loops and
// early stops on inputs unlike the training data), Decode returns the CTC
// best path instead and says why in Result.Fallback (fallback.go).
// Result.Alignment holds each character's attention weights over the
// encoder frames and Result.LogProbs the speller's log p(y_i | y_<i, x)
// of each (after a fallback: one-hot rows at the frames where the CTC
// path emitted each character, and its posteriors there).
//
// # Alignment
//
// The pipeline derives word times and confidences from a transcript's
// place on the encoder frames, for transcripts it decoded and for texts
// it is given (forced alignment, asr.Model.Align).
//
// MonotonicFrames turns attention rows (from Align or Decode) into one
// frame per character, the non-decreasing path
//
//	t_0 ≤ t_1 ≤ … ≤ t_{n−1} = argmax Σ_i log(α_i(t_i) + ε) + log y_{t_i}(c_i)
//
// with y_t(c) the CTC posterior of c at frame t (the term is left out
// without a CTC head) and ε = 1e-8: a Viterbi recursion over (character,
// frame) in O(n·T). Attention peaks alone stray over long pauses (second
// peaks, a speller running ahead of the audio); the path is the most
// likely one under the product of the two heads' per-frame
// distributions. On one-hot rows (a CTC fallback's) it keeps their frames.
//
// CTCSplit shares a long transcript out among the chunks of a long
// recording: the Viterbi CTC alignment of the whole transcript to the
// whole recording (log-probabilities concatenated over the chunks) gives,
// at each cut between chunks, the number of tokens emitted before it, in
// O(T·n).
//
// A word then spans the frames of its characters: it starts at the start
// of its first character's frame and ends at the end of its last one's
// (60 ms frames for the default model).
//
// # References
//
//   - S. Watanabe, T. Hori, S. Kim, J. R. Hershey, T. Hayashi. Hybrid
//     CTC/attention architecture for end-to-end speech recognition. IEEE
//     JSTSP 11(8), 2017.
//   - A. Graves, S. Fernández, F. Gomez, J. Schmidhuber. Connectionist
//     temporal classification. ICML 2006.
//   - A. Y. Hannun, A. L. Maas, D. Jurafsky, A. Y. Ng. First-pass large
//     vocabulary continuous speech recognition using bi-directional
//     recurrent DNNs. arXiv:1408.2873, 2014.
//   - T. Hori, J. Cho, S. Watanabe. End-to-end speech recognition with
//     word-based RNN language models. SLT 2018.
//   - Y. Miao, M. Gowayyed, F. Metze. EESEN: end-to-end speech
//     recognition using deep RNN models and WFST-based decoding. ASRU 2015.
//   - C. Gulcehre et al. On using monolingual corpora in neural machine
//     translation. arXiv:1503.03535, 2015 (shallow fusion).
package decode
