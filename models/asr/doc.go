// Package asr is attend's speech recognizer: Listen, Attend and Spell
// (Chan et al. 2016) with location-aware attention (Chorowski et al. 2015)
// and an optional joint CTC head (Kim, Hori and Watanabe 2017).
//
// # Model
//
// An utterance arrives as T normalized log-mel frames x_t ∈ R^M, 10 ms
// apart (package audio; M = MelBins = 80). With s = Stack, L =
// ListenerLayers, P = L − ListenerFlat of them pyramidal (all by
// default), Hl = ListenerHidden, D = 2·Hl the listener's output
// width, E = Embed, H = SpellerHidden, A = AttentionDim, nf and K the
// location filters and their width, and V = 29 the vocabulary (Chan et
// al. 2016, eqs. 5–8; the attention is Chorowski et al. 2015, eqs. 8–9):
//
//	z_t        = [x_{st} ; … ; x_{st+s−1}]                       (T₀, s·M)  Stack: T₀ = ⌈T/s⌉
//	h⁰         = BiLSTM(z)                                        (T₀, D)    listener.l0
//	hʲ_t       = BiLSTM([hʲ⁻¹_{2t} ; hʲ⁻¹_{2t+1}])_t             (T_j, D)   listener.l<j>, 1 ≤ j < P, T_j = ⌈T_{j−1}/2⌉
//	hʲ         = hʲ⁻¹ + BiLSTM(hʲ⁻¹)                             (T_j, D)   listener.l<j>, P ≤ j < L, T_j = T_{j−1}
//	h          = h^{L−1}                                         (T', D)    T' = T_{L−1}: 60 ms a frame by default
//	p_ctc(·|t) = softmax(h_t·W_c + b_c)                          (T', V)    ctc, blank = EOS
//	s_i        = LSTM([E·y_{i−1} ; c_{i−1}], s_{i−1})            (H)        speller.lstm; s₀, c₀ = 0, y₀ = EOS
//	f_i        = F ∗ α_{i−1}                                     (T', nf)   location features, α₀ = 0
//	e_it       = vᵀ·tanh(W·s_i + U·h_t + U_f·f_it + b)           (T')       speller.att
//	α_i        = softmax(e_i)                                    (T')       over the real frames
//	c_i        = Σ_t α_it·h_t                                    (D)
//	p(y_i | ·) = softmax(W_o·[s_i ; c_i] + b_o)                  (V)        speller.out
//
// The listener is a models.PyramidalBiLSTM: each pyramidal layer after
// the first reads pairs of frames and halves time, so the speller attends
// over T' ≈ T/(s·2^(P−1)) frames (Config.Reduction); the top L − P
// layers are flat and residual (Wu et al. 2016): more depth at the same
// frame rate. U·h_t + b is the attention's key projection, computed once
// per utterance; F holds nf filters of width K over the previous
// weights, so the score knows where the speller attended last, which
// keeps the alignment monotonic. The speller is a Speller: an LSTM with
// input feeding (the previous context is part of its input) that attends
// with its new state s_i.
//
// The vocabulary is EOS and the 28 characters of Alphabet (a–z,
// apostrophe, space): text must be normalized before Encode (the pipeline's
// speechdata.Normalize). EOS doubles as the speller's start token and the
// CTC blank, so both heads share V = 29.
//
// Both faces, the training graph and eager inference, compute the same
// function over the same parameters: a test forces transcripts through
// both and compares every log-probability and attention weight within
// 1e-5, and the speller's graph gradients are checked against finite
// differences in float64.
//
// # Training
//
// BuildFunc builds one graph per BatchKey (batch × stacked frames ×
// speller steps) for models.Buckets; MakeBatch lays out a padded batch for
// a key (KeyFor rounds a batch's shape up to a bucket grid). Per batch,
// with N its target tokens (characters and EOS), N_ctc the characters of
// the transcripts the CTC head can align (an utterance too short for its
// transcript weighs 0 there) and λ = CTCWeight:
//
//	L = ((1−λ)/N)·Σ_b Σ_i CE_ε(y_bi) + (λ/N_ctc)·Σ_b −log p_ctc(y_b | x_b)
//
// a per-token average of (1−λ)·CE + λ·CTC, with label smoothing ε on the
// cross-entropy (padded steps weigh 0) and dropout on the listener output
// h. The speller is teacher-forced: step i reads the true y_{i−1}.
//
// An auxiliary phone CTC head (PhoneCTCWeight λp > 0; Toshniwal et al.
// 2017) reads a lower listener layer hʲ (PhoneCTCLayer, the first by
// default) through its own linear map W_p (D, P) onto P = PhoneSetSize
// outputs (blank and the 39 ARPAbet Phones) and adds a CTC loss over each
// transcript's phones (Example.Phones), so the lower layers learn a
// low-level task while the top learns characters:
//
//	L = ((1−λ−λp)/N)·Σ CE_ε + (λ/N_ctc)·Σ CTC + (λp/N_phone)·Σ_b −log p_phone(φ_b | x_b)
//
// with N_phone the phones of the utterances that have them (one without,
// with more phones than the batch's S steps or too short for them weighs
// 0). Decoding uses the head in joint rescoring and the phone beam
// (package decode); PhoneLogProbs returns its posteriors.
//
// # Inference
//
// Inference is eager plain Go over the same parameters (eager.go): Encode
// runs the listener and the CTC heads over one utterance (Encoded: h,
// log p_ctc and, with the phone head, its log-posteriors), RowKeys
// prepares the attention keys of k decoder rows, StepLogProbs advances k
// speller rows by one token and returns log p(y_i | ·) per row, and
// ForceBatch (Align for one transcript) forces known transcripts through
// the speller (teacher forcing: step i reads c_{i−1}, not the model's
// guess), returning per character its attention row α_i (T') and
// log p(c_i | c_<i, x): where the model hears each character of the text,
// and how surely.
//
// The searches that turn these into transcripts (attention beam, CTC
// prefix beam, phone beam, joint rescoring, word-LM fusion) and the
// alignment paths (MonotonicFrames, CTCSplit) are package decode's; the
// language models they fuse are package lm's.
//
// # Files
//
// File and Load write and read safetensors.File checkpoints of kind "asr"
// with the Config and the vocabulary in the metadata. Load checks the
// kind, the config, the vocabulary and every tensor's name and shape,
// refuses a NaN or an infinity (safetensors.ErrCorrupt), and compares the
// size the config implies (Config.Parameters) with what the file holds
// before it allocates a parameter (safetensors.ErrMismatch).
//
// # References
//
//   - W. Chan, N. Jaitly, Q. Le, O. Vinyals. Listen, attend and spell: a
//     neural network for large vocabulary conversational speech
//     recognition. ICASSP 2016.
//   - J. Chorowski, D. Bahdanau, D. Serdyuk, K. Cho, Y. Bengio.
//     Attention-based models for speech recognition. NeurIPS 2015.
//   - M.-T. Luong, H. Pham, C. D. Manning. Effective approaches to
//     attention-based neural machine translation. EMNLP 2015 (input feeding).
//   - S. Kim, T. Hori, S. Watanabe. Joint CTC-attention based end-to-end
//     speech recognition using multi-task learning. ICASSP 2017.
//   - S. Watanabe, T. Hori, S. Kim, J. R. Hershey, T. Hayashi. Hybrid
//     CTC/attention architecture for end-to-end speech recognition. IEEE
//     JSTSP 11(8), 2017.
//   - S. Toshniwal, H. Tang, L. Lu, K. Livescu. Multitask learning with
//     low-level auxiliary tasks for encoder-decoder based speech
//     recognition. Interspeech 2017.
//   - A. Graves, S. Fernández, F. Gomez, J. Schmidhuber. Connectionist
//     temporal classification. ICML 2006.
package asr
