// Package asr is attend's speech recognizer: Listen, Attend and Spell
// (Chan et al. 2016) with location-aware attention (Chorowski et al. 2015)
// and an optional joint CTC head (Kim, Hori and Watanabe 2017).
//
// # Model
//
//	x (T, 80)          normalized log-mel frames, 10 ms apart
//	Stack              (⌈T/s⌉, s·80): s consecutive frames per step (s = 3)
//	Listener           PyramidalBiLSTM: BiLSTM, then [Pyramid → BiLSTM] × (L−1)
//	                   → h (T', 2H), T' = ⌈T/s⌉ / 2^(L−1)   (60 ms per frame by default)
//	CTC head           log softmax(h·W + b) (T', V), blank = EOS
//	Speller            attention.Decoder: s_i = LSTM([E y_{i−1}; c_{i−1}], s_{i−1}),
//	                   α_i, c_i = LocationAware(s_i, h, α_{i−1}),
//	                   p(y_i | y_<i, x) = softmax(W_o [s_i; c_i] + b_o)
//
// The vocabulary is EOS and the 28 characters of Alphabet (a–z,
// apostrophe, space): text must be normalized before Encode (the pipeline's
// speechdata.Normalize). EOS doubles as the speller's start token and the
// CTC blank, so both heads share V = 29.
//
// # Training
//
// BuildFunc builds one graph per BatchKey (batch × stacked frames ×
// speller steps) for models.Buckets; MakeBatch lays out a padded batch for
// a key (KeyFor rounds a batch's shape up to a bucket grid). The loss is
// the per-token average of (1−λ)·CE + λ·CTC, with label smoothing on the
// cross-entropy and dropout on the listener output.
//
// # Inference
//
// Encode runs the listener eagerly (no graph); Decode runs beam search
// (Beam 1 is greedy) over the speller with, optionally:
//
//   - joint CTC/attention scoring (Watanabe et al. 2017): candidates are
//     ranked by (1−μ)·log p_att + μ·log p_ctc, where p_ctc is the CTC
//     prefix probability (ctcprefix.go);
//   - shallow fusion with a character LanguageModel: + β·log p_LM;
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
// With SearchOptions.CTCBeam > 0, a CTC prefix beam search (Hannun et
// al. 2014; ctcbeam.go) fused with the same word LM runs beside it, and
// the complete transcripts of both searches are rescored with the full
// objective (rescore.go)
//
//	(1−μ)·log p_att(y, EOS | x) + μ·log p_ctc(y | x) + β_w·log p_LM(words) + bonus·|words|
//
// where p_att comes from forcing each transcript through the speller
// (all at once, one decoder row each) and p_ctc sums over all CTC
// alignments. An attention transcript that loops or stops early scores
// badly under CTC, and a CTC transcript wins instead: no fallback rule is
// needed, and the CTC side is fused with the word LM too.
//
// Without CTCBeam, when the attention decoder clearly fails (no end of
// sentence, or a length far from the CTC head's best path: loops and
// early stops on inputs unlike the training data), Decode returns the CTC
// best path instead and says why in Result.Fallback. Result.Alignment holds each
// character's attention weights over the encoder frames and
// Result.LogProbs the speller's log p(y_i | y_<i, x) of each (after a
// fallback: one-hot rows at the frames where the CTC path emitted each
// character, and its posteriors there).
//
// # Alignment
//
// Three functions place a transcript on the encoder frames; the pipeline
// derives word times and confidences from them, for transcripts it
// decoded and for texts it is given (forced alignment).
//
// Align forces a known transcript c_1…c_n through the speller (teacher
// forcing: step i reads c_{i−1}, not the model's guess) and returns, per
// character, its attention row α_i (T) and log p(c_i | c_<i, x): where
// the model hears each character of the text, and how surely.
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
package asr
