// Package caption is attend's image caption decoder: Show, Attend and Tell
// (Xu et al. 2015), an LSTM that attends over an image's feature grid and
// says one word per step, with soft (deterministic) or hard (stochastic)
// attention, or soft attention with a visual sentinel (adaptive, Lu et
// al. 2017).
//
// # Model
//
// An image arrives as L annotation vectors a_i ∈ R^D, the cells of a CNN
// feature map (package vision: MobileNetV2's 7×7×1280 or 14×14×576 grid,
// row-major (L, D)). With E the embedding width, H the LSTM width, A the
// attention width and V the vocabulary (Xu et al. §3.1.2, eqs. 1–7):
//
//	ā            = (1/L)·Σ_i a_i                              (D)
//	h₀, c₀       = tanh(ā·W_h + b_h), tanh(ā·W_c + b_c)       (H)   f_init,h, f_init,c
//	e_ti         = vᵀ·tanh(W·h_{t−1} + U·a_i + b)             (L)   additive attention
//	α_t          = softmax(e_t)                               (L)
//	β_t          = σ(h_{t−1}·w_β + b_β)                       (1)   the gate ("selector")
//	z_t          = β_t·Σ_i α_ti·a_i                           (D)   soft attention
//	h_t, c_t     = LSTM([E·y_{t−1} ; z_t], h_{t−1}, c_{t−1})  (H)   gates [i f o g]
//	p(y_t | ·)   = softmax(L_o·tanh(E·y_{t−1} + L_h·h_t + L_z·z_t) + b_o)   (V)
//
// The annotations themselves are the attention's memory; U·a_i + b is its
// key projection, computed once per image. Hard attention (§4.1) reads
// z_t = β_t·a_{s_t} for one region s_t ~ Multinoulli(α_t) instead.
//
// The deep output layer has a tanh, as in the authors' code
// (arctic-captions, ff_logit: tanh(L_h·h + E·y + L_z·z)), though eq. 7
// omits it. Dropout (Config.Dropout) acts on h_t before L_h and on the
// deep output before L_o, also as in that code; the recurrence itself is
// not dropped.
//
// # Adaptive attention
//
// Config.Attention = Adaptive adds a visual sentinel (Lu, Xiong, Parikh,
// Socher 2017, "Knowing when to look", eqs. 7–12): per word the decoder
// decides how much to read the image at all, so that "a", "of" or "is"
// need not pretend to look somewhere. Before its LSTM step it makes the
// sentinel from its own memory and attends over the L regions and the
// sentinel together:
//
//	g_t          = σ([E·y_{t−1} ; h_{t−1}]·W_s + b_s)          (H)   sentinel gate
//	s_t          = g_t ⊙ tanh(c_{t−1})                          (H)   the sentinel
//	e_ti         = vᵀ·tanh(W·h_{t−1} + U·a_i + b)               (L)   as above
//	ê_t          = vᵀ·tanh(W·h_{t−1} + U_s·s_t + b)             (1)
//	[α̂_t ; β_t]  = softmax([e_t ; ê_t])                         (L+1)
//	α_t          = softmax(e_t) = α̂_t/(1 − β_t)                 (L)   the heat map
//	z_t          = β_t·(s_t·P_s) + (1 − β_t)·Σ_i α_ti·a_i       (D)   ĉ_t of Lu et al.
//
// and z_t goes on as in soft attention (into the LSTM and the deep
// output); the gate β of Xu et al. is off (NoGate): the sentinel weight
// β_t does its work, and 1 − β_t is how much word t looked. Lu et al.
// attend after the LSTM step, with h_t, and feed ĉ_t only to the output;
// here attention stays before the step, with h_{t−1}, as in the rest of
// this decoder, because z_t is also the LSTM's input and cannot depend on
// h_t. So the sentinel is made from what the step knows before it reads
// the image: the memory c_{t−1} and, in its gate, the word just said and
// h_{t−1} (Lu et al.'s gate reads x_t, whose word part is the same
// E·y_{t−1}, and h_{t−1}; their memory is c_t). The sentinel is scored
// as one more region whose key is U_s·s_t + b (W, b and v shared with the
// regions) and read through P_s (H, D) into the annotations' width D,
// which is the encoder's (1280 for MobileNetV2's grid, any D works); Lu
// et al. project the annotations to the LSTM width instead. The doubly
// stochastic penalty is on α_t, the weights over the regions, so it does
// not push β_t down. Hypothesis.Sentinel keeps β_t per word. New
// parameters: sentinel.w (E+H, H), sentinel.b (H), att.sentinel.key U_s
// (H, A), att.sentinel.value P_s (H, D); package attention's Adaptive
// holds the attention part.
//
// # Vocabulary
//
// BuildVocab keeps the words of the tokenized training captions that occur
// at least 5 times (Karpathy's Flickr8k setting), most frequent first,
// after four special tokens: <pad> 0, <start> 1, <end> 2, <unk> 3.
// Captions must be tokenized first (lower case, punctuation stripped: the
// pipeline's captiondata.Tokenize). Training batches mark padding with
// models.PadID (−1), not <pad>: the embedding maps it to zero and the
// losses skip it, so <pad> only keeps id 0 as other tools expect. Search
// never emits <pad> or <start>.
//
// # Training
//
// A Trainer owns training's randomness and state. Its BuildLoss builds one
// graph per BatchKey{B, S} (B captions, S decoder steps) for
// models.Buckets; MakeBatch lays out examples step-major (entry i·B + b is
// step i of caption b) and Run feeds a batch, runs forward and backward,
// and returns the Loss. Per batch of N
// target tokens (words and <end>):
//
//	L = (1/N)·[ Σ_t CE(y_t) + λ·Σ_b Σ_i (1 − Σ_t α_bti)² ]
//
// the cost of Xu et al. eq. 14 summed over the captions, divided by N: a
// per-token cross-entropy (optionally label-smoothed) plus the doubly
// stochastic penalty, which asks every region to be attended to about once
// over a caption. Padded steps carry neither.
//
// Hard attention is trained as in Xu et al. §4.1: with probability
// HardConfig.ExpectationMix a caption reads the expected context Σ_i α_i
// a_i at every step (a soft-attention caption, trained by backpropagation);
// otherwise it samples one region per step and its attention weights are
// trained by REINFORCE with a moving-average baseline r̄ and an entropy
// bonus:
//
//	(1/N)·Σ_t [ −(R_b − r̄)·log α_t,s_t − λ_e·H(α_t) ],   r̄ ← d·r̄ + (1 − d)·R̄
//
// R_b is the caption's mean per-token log-likelihood rather than the
// paper's total log p(y | s, a): with a single scalar baseline, the total
// would make the advantage mostly a matter of the caption's length. The
// rest of the model learns from the sampled captions by ordinary
// backpropagation through z_t = β_t·a_{s_t}.
//
// Self-critical sequence training (Rennie et al. 2017, in the variant of
// Luo 2020) fine-tunes a trained model on a sequence-level reward such as
// CIDEr-D with the same graph: Sample draws k captions per image from the
// eager decoder (Encode the images on k rows each), the caller rewards
// each caption with r and baselines it with the mean reward b of the
// image's k − 1 other captions, and a Batch of the sampled captions whose
// Weights are (r − b)/N on the caption's tokens (words and <end>, if it
// ended) turns the cross-entropy into the policy-gradient surrogate
//
//	L = −(1/N)·Σ_b (r_b − b_b)·Σ_t log p(y_bt | y_b,<t, a)
//
// whose gradient is the REINFORCE estimate of −∇E[r] (per token, as the
// cross-entropy). This needs LabelSmoothing 0 and is meant without the
// doubly stochastic penalty; package pipeline/captioning runs the loop.
//
// # Inference
//
// Decoding is eager Go over the same parameters, no graph. Encode prepares
// images (initial states and attention keys) on a number of decoder rows
// each; Step advances every row by one word and returns log-probabilities;
// State.Gather reorders rows for beam search. A steady-state Step
// allocates nothing. Greedy captions a batch of images at once; Beam runs
// beam search of width k on one image (k = 1 is greedy search): ended
// hypotheses are never extended again, ranking is by LogProb/n^α for n
// tokens with <end> (SearchOptions.LengthPenalty, default α = 1), and the
// search stops once no open hypothesis can beat the k-th best ended one.
// Every Hypothesis keeps, per word, the attention weights α_t over the L
// regions (the heat map of that word), the gate β_t and, for adaptive
// attention, the sentinel weight β_t.
//
// Hard attention decodes deterministically: it reads the expectation Σ_i
// α_i·a_i (the default, Xu et al.'s test-time choice, which is soft
// attention with the hard model's weights) or the most likely region
// (HardConfig.Inference = Argmax). The weights kept for plotting are α_t
// in both cases.
//
// The eager and graph faces agree: the graph's loss equals Loss, computed
// eagerly, within 1e-5 (soft and adaptive attention, and hard attention
// when every caption reads the expectation).
//
// # Files
//
// File and Load write and read safetensors.File checkpoints of kind "caption"
// with the Config and the vocabulary in the metadata. Write F32 to resume
// training exactly and F16 to ship at half the size; safetensors.WriteFile
// writes atomically. Load checks the kind, the config, the vocabulary and
// every tensor's name and shape, and compares the size the config implies
// with what the file holds before it allocates a parameter.
//
// # References
//
//   - K. Xu, J. Ba, R. Kiros, K. Cho, A. Courville, R. Salakhutdinov,
//     R. Zemel, Y. Bengio. Show, attend and tell: neural image caption
//     generation with visual attention. ICML 2015. Code:
//     github.com/kelvinxu/arctic-captions.
//   - J. Lu, C. Xiong, D. Parikh, R. Socher. Knowing when to look:
//     adaptive attention via a visual sentinel for image captioning. CVPR
//     2017.
//   - D. Bahdanau, K. Cho, Y. Bengio. Neural machine translation by jointly
//     learning to align and translate. ICLR 2015.
//   - S. J. Rennie, E. Marcheret, Y. Mroueh, J. Ross, V. Goel.
//     Self-critical sequence training for image captioning. CVPR 2017.
//   - R. Luo. A better variant of self-critical sequence training.
//     arXiv:2003.09971, 2020.
//   - R. J. Williams. Simple statistical gradient-following algorithms for
//     connectionist reinforcement learning. Machine Learning 8, 1992.
//   - A. Karpathy, L. Fei-Fei. Deep visual-semantic alignments for
//     generating image descriptions. CVPR 2015 (vocabulary and splits).
package caption
