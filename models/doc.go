// Package models is the core of attend: the parameters, layers, fused ops
// and training machinery that the model packages (models/asr,
// models/caption) build on.
//
// Two gorgonia-free packages serve it: models/safetensors, the model file
// format (File, ReadFile, WriteFile; Params.NewFile and Params.Load convert
// to and from it), and internal/sgemm, the matrix product (Gemm).
//
// # Compute strategy: fused kernels in gorgonia graphs
//
// Gorgonia provides autodiff glue; the arithmetic lives in Kernels. A
// Kernel is an eager forward pass and a hand-written backward pass over
// dense float32 or float64 tensors; Apply makes it one gorgonia node whose
// per-input gradient nodes share a single Backward call per run. A whole
// LSTM sequence, an attention step or a loss is one node, so a training
// graph has hundreds of nodes, not tens of thousands, and compiles once.
// Every Kernel is checked against central finite differences in float64
// (package modeltest) through the same adapter training uses.
//
// Matrix products go through Gemm: internal/sgemm's kernels (AVX2/FMA
// assembly where the CPU has it) for float32 and gonum for float64 by
// default, OpenBLAS with -tags openblas; in the default build gorgonia's
// own float32 products use internal/sgemm too. Tanh and Sigmoid are fast rational approximations in
// float32 and exact in float64.
//
// # Parameters and layers
//
// Params owns every weight once, under a dotted name, initialized from a
// seeded *rand.Rand (GlorotUniform, Orthogonal per gate block, LSTMBias with
// forget bias 1, ...). Each layer holds *Param values and has two faces over
// them: a graph face (Apply with a Binding of the parameters into one
// graph) for training and an eager face (Forward, Step, Lookup) for
// inference, which agree within 1e-5.
//
//	Linear       x (…, In) → x·W + b (…, Out)
//	Embedding    ids (…) → (…, Dim); PadID embeds to zero
//	LSTM         step: x (B, In), [h | c] (B, 2H) → [h | c] (B, 2H);
//	             sequence: x (B, T, In), lengths (B) → (B, T, H)
//	BiLSTM       x (B, T, In), lengths (B) → (B, T, 2H) = [forward | backward]
//	Pyramid      (B, T, D) → (B, ⌈T/2⌉, 2D), lengths ⌈len/2⌉ (Chan et al. 2016)
//	PyramidalBiLSTM  the LAS listener: BiLSTM, then (Pyramid → BiLSTM) per layer,
//	             then Flat residual layers h + BiLSTM(h) that keep time (GNMT)
//	Dropout      inverted dropout with a seeded mask per run
//	CrossEntropy logits (N, V), targets (N), row weights (N) → Σ w·CE, label smoothing
//	CTCLoss      logits (B, T, V), targets, lengths → (B) (Graves et al. 2006)
//
// Integer inputs (token ids, lengths, CTC targets) travel as float tensors
// of whole numbers (IntTensor builds them); PadID (−1) marks padding.
//
// # Training
//
// Buckets keeps one compiled graph per shape bucket (batch × padded input
// length × padded output length): built, differentiated and compiled on first
// use, then reused, all sharing the Params' Value tensors. Graph.Run adds each
// run's gradients into the Params' Grad tensors; Adam (bias-corrected,
// global-norm clipping, AdamW decay, a Schedule such as WarmupInvSqrt or
// WarmupCosine) consumes and clears them. Losses are normalized by the real
// token count through CrossEntropy's row weights. Everything is
// deterministic for a seed. safetensors.Average (or an Averager, one file at a time)
// makes one model of snapshots of a run: the element-wise mean of their
// weights, optimizer state dropped.
//
// Replicas add data parallelism inside a step: R Buckets over the same
// Params, each with its own graphs, packed LSTM weights and dropout Rng;
// Replicas.Run runs one graph of each (a sub-batch, its loss normalized by
// the whole batch's counts) concurrently and adds their gradients in
// replica order once all are done, so the sum is the batch's gradient and
// nothing depends on GOMAXPROCS or on which replica finishes first. The
// fused ops split their own work over GOMAXPROCS too; their reductions
// over rows use fixed blocks for the same reason.
//
// # Gorgonia pitfalls this package works around
//
//   - Import of gorgonia panics at start on Go ≥ 1.21 unless go.mod pins
//     go4.org/unsafe/assume-no-moving-gc v0.0.0-20231121144256-b99613f794b6.
//   - Unnamed input nodes of one type and shape are merged by hash-consing:
//     name every input node.
//   - A node's Value() after RunAll may hold another node's data (register
//     reuse, gorgonia issue #576): read results through gorgonia.Read.
//   - Gradients bound with BindDualValues accumulate across RunAll calls:
//     Binding.CollectGrads moves them into the Params and zeroes them.
//   - TapeMachine.Reset forgets every register, so each run would allocate
//     every value again: fused ops keep their output and gradient tensors.
//   - A Kernel with a scalar () output breaks ops downstream: output (1).
//   - Shapes are fixed when a graph is built; hence the buckets.
//   - gorgonia's Slice and Concat hash their bounds as single bytes, so two
//     slices whose bounds agree modulo 256 and whose shapes match are merged
//     into one node (the decoder's [h ; ctx] gradient went to both halves
//     when H = D = 256): use this package's Slice, Select and Concat.
//   - gorgonia.Mul transposes its operands in place (and back) in its
//     backward pass, so a graph that applies it to a parameter writes the
//     shared Value tensor's shape: such graphs must not run concurrently
//     (Replicas); our kernels only read their inputs.
//   - Gorgonia's compiler numbers values by the nodes' 32-bit hashes alone,
//     so two distinct nodes that collide become one value: a large speller
//     graph read an attention tensor as its embedding. Buckets.Get scans
//     each graph for collisions and builds it again (hash_collision.go).
package models
