package models

// Test hooks: the layer kernels, for the gradient checks and parity tests
// of the external test package (which imports modeltest, and modeltest
// imports this package).
var (
	NewLinearKernel    = func() Kernel { return linearKernel{} }
	NewEmbeddingKernel = func() Kernel { return &embeddingKernel{} }
	NewLSTMStepKernel  = func() Kernel { return &lstmStepKernel{} }
	NewLSTMSeqKernel   = func() Kernel { return &seqKernel{dirs: 1} }
	NewBiLSTMKernel    = func() Kernel { return &seqKernel{dirs: 2} }
	// A BiLSTM over features: no gradient of x.
	NewBiLSTMFeatureKernel = func() Kernel { return &seqKernel{dirs: 2, noInputGrad: true} }
	NewPyramidKernel       = func() Kernel { return &pyramidKernel{} }
	NewDropoutKernel       = func(d *Dropout) Kernel { return &dropoutKernel{d: d} }
	NewCTCKernel           = func(blank int) Kernel { return &ctcKernel{blank: blank} }
)
