// Package ngram is a word n-gram language model in the ARPA back-off
// format: it reads and writes ARPA files (plain or gzip), reads CMU
// Sphinx's binary trie models (.lm.bin), answers the queries of a
// word-level beam search without allocating, trains models by
// interpolated modified Kneser-Ney and interpolates two models (Mix). It
// needs nothing but the standard library.
//
// # The model
//
// An order-n model predicts a word from the n−1 words before it. A
// back-off model lists some n-grams h w (h the context, up to n−1 words)
// with their probability p*(h w), and some contexts h with a back-off
// weight bow(h); every other probability comes from the shorter context
// h' (h without its first word), recursively down to the unigrams
// (Katz 1987):
//
//	p(w | h) = p*(h w)              if h w is listed
//	         = bow(h) · p(w | h')   otherwise; bow(h) = 1 where h is not listed
//
// A sentence is scored as <s> w_1 … w_m </s>: <s> only ever serves as
// context and </s> is predicted like a word, so
//
//	log p(sentence) = Σ_{i=1..m+1} log p(w_i | w_{i−n+1} … w_{i−1}),  w_0 = <s>, w_{m+1} = </s>
//
// # The ARPA format
//
// The interchange format of SRILM, KenLM, CMU Sphinx and most decoders:
// base-10 logarithms, one n-gram a line.
//
//	any text                  ignored up to the \data\ line
//	\data\
//	ngram 1=4                 the number of n-grams of each order, 1 … n
//	ngram 2=3
//
//	\1-grams:
//	-99	<s>	-0.30         log10 p, the words, optional log10 bow
//	-1.2	the	-0.25
//	…
//	\2-grams:
//	-0.4	<s> the
//	…
//	\end\
//
// Fields are separated by tabs or spaces; blank lines are skipped. Read
// rejects, with the line number and the reason (a *SyntaxError wrapping
// ErrFormat): a missing \data\ line, header or section; orders out of
// sequence; a section whose size differs from its header count; a
// number that is not one (text, NaN, +Inf); a positive log probability;
// the wrong number of fields for the section's order; a back-off weight
// other than 0 on the highest order; a word of an n-gram that is not a
// unigram; a duplicate n-gram; a file without \end\ (truncated, also
// inside gzip). It accepts, as KenLM and SRILM do:
//
//   - n-grams in any order within a section (they are sorted on load);
//   - −inf as a log probability (probability 0);
//   - an n-gram whose prefix (its context) is missing, as SRILM's pruning
//     leaves them: the prefix is added with the probability back-off gives
//     it and back-off weight 1, which changes no score;
//   - a model without <s>, </s> or <unk>: the missing ones are added as
//     unigrams, <s> with log10 p = −99 (the usual "never"), </s> and <unk>
//     with −100 (KenLM's value for a model without <unk>: an unknown word
//     then costs the back-off weights of its context plus −100).
//
// WriteARPA writes sections in word-id order with each number in the
// shortest form that reads back as the same float32, and leaves out
// back-off weights of 0; Read(WriteARPA(m)) scores exactly as m.
//
// Read also takes the binary trie models of sphinxbase 5prealpha and
// PocketSphinx 5 (recognized by their "Trie Language Model" magic): a
// port of KenLM's reversed trie with 16-bit quantized probabilities and
// back-off weights, in logmath units of base 1.0001, which it converts
// to log10. It reads the n-grams the trie holds, whatever the header
// says (see readSphinx).
//
// # Queries
//
// Words are numbered in ascending byte order (WordID), so all the words
// that share a spelling prefix form one id range: the beam search keeps
// its lexicon as a prefix tree whose nodes are such ranges. A State is
// the longest suffix of the history that the model knows as a context (a
// listed n-gram with successors or a back-off weight); it is an int32,
// and equal States have equal futures, so hypotheses can be recombined.
//
//	s := m.Begin()                   // after <s>
//	lp, s := m.Score(s, w)           // ln p(w | s) and the next State
//	end := m.End(s)                  // ln p(</s> | s)
//	la := m.LookAhead(s, lo, hi)     // ≥ max_{lo ≤ w < hi} ln p(w | s)
//
// Query results are natural logarithms in float32, as the search adds
// them to acoustic scores; Log10Prob and Perplexity report base 10 as
// ARPA tools do (SRILM's conventions: OOVs are left out of perplexity).
//
// # Storage and complexity
//
// The model is a trie in flat arrays: node 0 is the empty context, node
// 1+w the unigram w, then all bigrams, trigrams, …, each order sorted by
// (parent, word), so the successors of a context are one contiguous run
// sorted by word id. A node costs 20 bytes (word int32, log10 p and bow
// float32, first successor int32, back-off link int32); the back-off link
// points to the State of the n-gram's longest proper suffix, as in the
// suffix links of Aho & Corasick (1975), so Score follows the chain of
// contexts without rebuilding them:
//
//	Score     O(n · log s): at most n binary searches over successor runs of length ≤ s
//	LookAhead O(n · log s): per context, two binary searches and one range
//	          maximum over its successors' probabilities (a sparse table over
//	          blocks of 32, Bender & Farach-Colton 2000: O(1) plus ≤ 64 scanned)
//	Load      O(N) to parse N n-grams, plus a radix sort per order when the file
//	          is not in byte order (a comparison sort when an n-gram's ids do not
//	          fit in 64 bits)
//
// Measured on this project's 2-core machine (shared, see the benchmarks):
// a synthetic 2.16-million n-gram trigram file in random order loads in
// about 1.8 s with a 200 MB peak heap; Score takes about 11 ns, End 7 ns
// and LookAhead 60–85 ns over ranges of up to a quarter of a 5,000-word
// vocabulary, none of them allocating.
//
// # Training: interpolated modified Kneser-Ney
//
// Train follows Chen & Goodman (1998), "An Empirical Study of Smoothing
// Techniques for Language Modeling", TR-10-98, Harvard, §3, as KenLM's
// lmplz does. Sentences are padded as <s> w_1 … w_m </s>.
//
// Counts. The highest order and the n-grams that start with <s> (which
// cannot be extended to the left) keep their counts; every other n-gram
// is counted by its continuation count, the number of distinct words seen
// before it (Kneser & Ney 1995):
//
//	a(w_1…w_k) = c(w_1…w_k)       k = n, or w_1 = <s>
//	           = N1+(• w_1…w_k)   otherwise
//
// Discounts. For each order, from the count-of-counts n_r (the number of
// n-grams of that order with adjusted count r), C&G eq. 26:
//
//	Y = n_1 / (n_1 + 2 n_2)
//	D_1 = 1 − 2Y·n_2/n_1    D_2 = 2 − 3Y·n_3/n_2    D_3+ = 3 − 4Y·n_4/n_3
//
// and D(a) is D_1, D_2 or D_3+ for a = 1, 2, ≥ 3 (0 for a = 0). Where a
// count-of-count is 0 or an estimate leaves (0, r), D_r falls back to Y
// (absolute discounting, Ney et al. 1994), and Y to 0.5 where it is
// undefined: small corpora have such holes and KenLM refuses them.
//
// Probabilities. With V' the vocabulary less <s> (so </s> and <unk>
// included), A(h) = Σ_v a(h v) and N_r(h •) the number of successors of
// h with adjusted count r (N_3+ for ≥ 3):
//
//	(1) p(w)     = max(a(w) − D(a(w)), 0) / A(ε) + γ(ε) / |V'|
//	(2) p(w | h) = max(a(h w) − D(a(h w)), 0) / A(h) + γ(h) · p(w | h')
//	(3) γ(h)     = (D_1 N_1(h •) + D_2 N_2(h •) + D_3+ N_3+(h •)) / A(h)
//
// The listed n-grams are those seen, with probability (2); the back-off
// weight is bow(h) = γ(h), so a word not seen after h gets exactly the
// interpolated γ(h)·p(w | h'). p(<s>) = 0 (written −99).
//
// Unknown words. <unk> is a word of the vocabulary: it has adjusted
// count 0 unless MaxVocab mapped words to it, so it gets the uniform share
// γ(ε)/|V'| of (1); with MaxVocab, the replaced words' occurrences are its
// counts at every order, like any word's.
//
// Pruning. MinCount drops n-grams of order ≥ 2 whose adjusted count is
// below the threshold, after all counts, discounts and continuation counts
// were taken with them (as KenLM does); an n-gram that is the prefix of a
// kept one is kept, since the format needs it. The kept ones keep
// probability (2), computed from the full counts. The back-off weight of
// a context h with pruned successors is recomputed so that p(· | h) sums
// to 1 over V':
//
//	(4) bow(h) = (1 − Σ_{w kept after h} p(w | h)) / (1 − Σ_{w kept after h} p(w | h'))
//
// where p(w | h') is the final (pruned, backed-off) lower-order model.
//
// Memory and time: training sorts arrays of word ids, about
// 4·n bytes per n-gram occurrence; order 4 on the 64,664 sentences
// (≈ 1 million words) of ../shared/data/text takes about 2.3 s and
// under 200 MB (asr train-lm, 1.26 million n-grams).
package ngram
