// Package metrics scores model output against references: word and
// character error rates for speech recognition (wer.go, edit*.go), and the
// caption metrics BLEU, METEOR, ROUGE-L and CIDEr-D for image captioning.
// It is plain Go over strings and token slices, with no model or tensor
// dependencies.
//
// # Error rates (WER, CER)
//
// A hypothesis is aligned with its reference by minimum edit distance
// (Levenshtein 1966) with unit costs: every substitution (S), deletion (D)
// and insertion (I) costs 1, a match costs 0. With N reference tokens,
//
//	WER = (S + D + I) / N        over words       (WordErrors)
//	CER = (S + D + I) / N        over characters  (CharErrors)
//
// and N = C + S + D, where C counts the matched tokens; the hypothesis has
// C + S + I tokens. The rate exceeds 1 when insertions outnumber matches.
// A corpus rate is the sum of the errors over the sum of the reference
// lengths (EditCounts.Add, then Rate), as sclite and Kaldi's compute-wer
// report it, never the mean of per-utterance rates. An empty reference
// has rate 0 against an empty hypothesis and +Inf otherwise.
//
// Align is the generic engine over any comparable token type. It returns
// the counts and the alignment itself as a list of Op (match, sub, del,
// ins, each with the indices it consumes), for error listings such as
// sclite's:
//
//	REF: the cat sat ***  on the mat
//	HYP: the cap sat down on the ***
//	         S       I           D
//
// Ties between equally cheap alignments are broken by a fixed rule (a
// match or substitution first, then a deletion, then an insertion, walking
// back from the end), so the S/D/I split is deterministic; the total is
// the edit distance whatever the rule. Time is O(N·M) for lengths N and
// M; the backtrace costs 2 bits per cell and is dropped (counts only)
// beyond MaxAlignCells.
//
// Tokens are compared exactly: normalize reference and hypothesis the same
// way first (the ASR pipeline uses speechdata.Normalize: lower case a–z,
// apostrophe, single spaces). WordErrors splits on Unicode white space;
// CharErrors counts runes after collapsing white space to single spaces,
// the spaces between words included (jiwer, torchmetrics, Hugging Face
// evaluate); ESPnet's training-time CER drops the spaces and reads lower.
//
// # Caption metrics (BLEU, METEOR, ROUGE-L, CIDEr-D)
//
// The caption metrics (bleu.go, meteor.go, rouge.go, cider.go) score each
// image's candidate caption against its reference captions (Flickr8k has
// five) the way the COCO caption evaluation (pycocoevalcap) does, so that
// numbers compare with published ones. ScoreCaptions takes candidates and
// references keyed by image id, tokenizes them (Tokenize, which
// approximates the evaluation's PTB tokenizer: lower case, punctuation
// removed) into Samples, and returns every metric at once as
// CaptionScores; BLEU, METEOR, ROUGEL and CIDErD compute one metric over
// Samples, with per-sample scores where the metric has them.
//
//   - BLEU-1…4 (Papineni et al. 2002): the geometric mean of clipped
//     n-gram precisions times the brevity penalty
//     BP = min(1, exp(1 − r/c)), computed once over the corpus (not
//     averaged over sentences), the effective reference length of each
//     sample being the closest one.
//   - METEOR (Banerjee and Lavie 2005; Denkowski and Lavie 2014), as
//     Meteor 1.5 computes it for English: a one-to-one alignment of exact
//     and stem matches, Fmean weighted towards recall, times a
//     fragmentation penalty on the number of aligned chunks; without the
//     jar's synonym and paraphrase matchers, so it reads lower or equal.
//   - ROUGE-L (Lin 2004): the F-measure (β = 1.2) of the longest common
//     subsequence, precision and recall each maximized over the
//     references.
//   - CIDEr-D (Vedantam, Zitnick and Parikh 2015): the cosine similarity of
//     TF-IDF weighted n-gram vectors (n = 1…4, document frequencies over
//     the evaluated corpus' references), clipped, with a Gaussian length
//     penalty (σ = 6), averaged over references and scaled by 10.
//
// BLEU, METEOR and ROUGE-L are fractions in [0, 1]; CIDEr-D runs from 0
// to 10. Papers often print all of them ×100.
//
// # References
//
// V. I. Levenshtein, Binary codes capable of correcting deletions,
// insertions and reversals, Soviet Physics Doklady 10(8), 1966.
//
// NIST SCTK (sclite) scoring toolkit; Kaldi's compute-wer
// (src/bin/compute-wer.cc, util/edit-distance-inl.h).
//
// K. Papineni, S. Roukos, T. Ward, W.-J. Zhu, BLEU: a method for automatic
// evaluation of machine translation, ACL 2002.
//
// S. Banerjee, A. Lavie, METEOR: an automatic metric for MT evaluation
// with improved correlation with human judgments, ACL workshop 2005.
//
// C.-Y. Lin, ROUGE: a package for automatic evaluation of summaries, ACL
// workshop 2004.
//
// R. Vedantam, C. L. Zitnick, D. Parikh, CIDEr: consensus-based image
// description evaluation, CVPR 2015.
//
// X. Chen et al., Microsoft COCO captions: data collection and evaluation
// server, arXiv:1504.00325, 2015.
package metrics
