// Package attention holds every attention mechanism of attend behind one
// interface, each in two faces over the same parameters: eager Go for
// inference and gorgonia nodes (fused kernels) for training.
//
// # The interface
//
// A decoder step attends over a memory of T entries, the encoder's frames
// (speech) or an image's regions (captions), with a query, the decoder
// state, and reads a context vector:
//
//	e_t = score(q, k_t)          one score per memory entry
//	α   = softmax(e)             the weights, over the real entries
//	c   = Σ_t α_t·v_t            the context
//
// Every Mechanism does this in two faces:
//
//	eager (inference)                      graph (training)
//	keys, err := m.Prepare(mem, mask, B, T) keys, err := m.PrepareNodes(b, mem, mask)
//	err := m.Step(next, keys, q, prev)     next, err := m.StepNode(b, keys, q, prev)
//
// Prepare does the per-batch work once (for additive attention U·k_t for
// every entry: one (B·T, D)×(D, A) GEMM), so a step only does per-step
// work. State is explicit: a step reads the previous State and writes the
// next; the zero State (StateNodes{} in a graph) is the state before the
// first step. Nothing is cached in a mechanism, there is no reset, and a
// mechanism may serve many decoders at once. An eager decoder alternates
// two States, and a step then allocates nothing:
//
//	var s0, s1 attention.State
//	prev, next := &s0, &s1
//	for i := 0; i < maxLen; i++ {
//		// … query from the decoder state …
//		if err := m.Step(next, keys, query, prev); err != nil { … }
//		// … next.Context into the decoder, next.Weights into the plot …
//		prev, next = next, prev
//	}
//
// Beam search reorders hypotheses with State.Gather. The two faces agree
// within 1e-5 in float32 (a parity test runs every mechanism both ways), and
// every backward pass is checked against finite differences in float64.
//
// # Shapes
//
// All tensors are row-major. B is the batch (or the beam), T the memory
// length, D the memory width, H the query width, A the attention width:
//
//	memory   (B, T, D)   encoder output; also the values v_t, except in MultiHead
//	mask     (B, T)      1 for real entries, 0 for padding; nil: none padded
//	query    (B, H)      decoder state
//	Context  (B, C)      C = D, or MultiHead's model width d
//	Weights  (B, T)      α; the heat map of an image, the alignment of speech
//
// Parameters live in a models.Params under a prefix the caller chooses
// ("speller.att.w", …), are initialized from its seeded generator, and are
// shared by both faces and by every training graph. Each constructor
// documents its parameter names and shapes.
//
// # Masking
//
// Padded entries are left out of the softmax (the −∞ of the usual
// formulation, without ever computing exp(−∞)): their weight is exactly 0,
// the real entries' weights sum to 1, and no gradient reaches them. A row
// that is all padding (an empty utterance in a batch) gets all-zero
// weights, a zero context and zero gradients, never NaN. MaskFromLengths
// and MaskTensor build masks from lengths. Masks are meant to be prefix
// masks (the first lengths[b] entries real); Local uses the number of real
// entries as the sequence length.
//
// # Mechanisms
//
// Additive (Bahdanau et al. 2015): e_t = vᵀ·tanh(W·q + U·k_t + b). The
// most expressive score and the usual choice for recurrent decoders; a step
// costs B·T·A tanh, the bulk of its time.
//
// LocationAware (Chorowski et al. 2015): additive plus convolutional
// features of the previous weights (and optionally their running sum), so
// the score knows where it attended last. The attention of choice for
// speech, whose alignment is monotonic and whose similar frames repeat;
// with Sharpen (β > 1) it concentrates, and with a Window it scores only
// near the previous weights' median (or peak), which makes long inputs
// cheap and keeps the alignment from jumping.
//
// Dot, General and Concat (Luong et al. 2015): qᵀk_t (H = D, no
// parameters), qᵀW k_t, and vᵀ·tanh(W·q + U·k_t) (Additive without the
// bias). Dot and General cost B·T·D per step instead of B·T·A tanh: the
// cheap choice when the memory is long or the model small.
//
// ScaledDot and MultiHead (Vaswani et al. 2017): qᵀk_t/√D; and h heads of
// width d/h over learned projections Q = q·Wq, K = M·Wk, V = M·Wv, joined by
// Wo. Several heads can track several places at once; Weights is their
// mean and State.Heads (B, h, T) holds them all.
//
// Local (Luong et al. 2015, local-p): predicts a center p = S·σ(v_pᵀ
// tanh(W_p q)) and attends with the general score inside [p − D, p + D],
// weighted by a Gaussian of σ = D/2. O(D) per step; its weights do not sum
// to 1 (the Gaussian scales them down).
//
// Hard (Xu et al. 2015, §4.1): reads one entry sampled from the additive
// weights, trained by REINFORCE (Reinforce, Baseline) with an entropy bonus;
// at inference it reads the expectation (the default), the argmax, or a sample.
//
// Adaptive (Lu et al. 2017): Additive over the memory plus one more
// candidate, a visual sentinel s the decoder makes from its own memory
// and passes beside its state in the query [h | s]; the sentinel's share
// β of the softmax over the T entries and the sentinel (State.Sentinel)
// says how much the step did not read the memory, and the context is
// β·(s·P_s) + (1 − β)·Σ_t α_t·k_t. Weights are the softmax over the
// memory alone.
//
// Which to use: LocationAware for speech (the LAS speller), Additive or
// Additive with Gate for captions (Show, Attend and Tell's soft attention),
// General or Dot when speed matters more than the last bit of accuracy,
// MultiHead when one place per step is too few, Local or a LocationAware
// Window for inputs of thousands of entries, Hard when a single read per
// step is the point, Adaptive when some steps should not read the memory
// at all (a caption's function words).
//
// # Helpers
//
// DoublyStochastic is Xu et al.'s penalty λ·Σ_i (1 − Σ_t α_ti)² over the
// stacked weights of all steps (StackWeights), with masks for padded
// output steps and padded locations. Gate is their gating scalar
// β = σ(h·w + b) that scales the context. Reinforce is the REINFORCE
// surrogate of a Hard step and Baseline its moving-average reward baseline
// b ← 0.9·b + 0.1·R.
//
// # Training graphs
//
// A graph step is a few fused nodes (models.Kernel), not dozens of
// gorgonia ops: for Additive, LocationAware, Concat and Hard one score node
// computes W·q, the location convolution and its projection, tanh, the
// scores, the window, the mask and the softmax, and writes α (B, T); one
// context node computes Σ_t α_t·v_t (B, D). Two nodes rather than one
// packed [c | α] output: both stay dense and contiguous (no Slice views
// for every consumer to materialize), the context node serves every
// mechanism, and the arithmetic is the same (a packed output would save one
// graph node and add two Slice nodes). The score node's backward pass
// recomputes tanh(W·q + U·k_t + …) row by row instead of storing the
// (B, T, A) activations between the passes: one more tanh per element
// saves B·T·A floats per decoder step, which otherwise pile up over every
// step of a teacher-forced graph. Rows are spread over goroutines
// (models.ParallelFor). Gradients flow through the previous weights into
// earlier steps, as in the unfused graph.
//
// In float32 the additive kernels compute tanh with an inlined rational
// approximation (the one models.Tanh uses, maximum error about 1e-7); the
// float64 path, which gradient checks use, calls math.Tanh.
//
// # References
//
//   - D. Bahdanau, K. Cho, Y. Bengio. Neural machine translation by jointly
//     learning to align and translate. ICLR 2015.
//   - J. Chorowski, D. Bahdanau, D. Serdyuk, K. Cho, Y. Bengio.
//     Attention-based models for speech recognition. NeurIPS 2015.
//   - M.-T. Luong, H. Pham, C. D. Manning. Effective approaches to
//     attention-based neural machine translation. EMNLP 2015.
//   - K. Xu, J. Ba, R. Kiros, K. Cho, A. Courville, R. Salakhutdinov,
//     R. Zemel, Y. Bengio. Show, attend and tell: neural image caption
//     generation with visual attention. ICML 2015.
//   - A. Vaswani et al. Attention is all you need. NeurIPS 2017.
//   - J. Lu, C. Xiong, D. Parikh, R. Socher. Knowing when to look:
//     adaptive attention via a visual sentinel for image captioning. CVPR
//     2017.
//   - R. J. Williams. Simple statistical gradient-following algorithms for
//     connectionist reinforcement learning. Machine Learning 8, 1992.
//   - J. Shen et al. Natural TTS synthesis by conditioning WaveNet on mel
//     spectrogram predictions. ICASSP 2018 (cumulative location features).
package attention
