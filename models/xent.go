package models

import (
	"fmt"
	"math"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// CrossEntropy is the fused softmax cross-entropy loss over rows of logits,
// with per-row weights and optional label smoothing (Szegedy et al. 2016,
// §7):
//
//	p_n = softmax(logits_n)                                  (N, V)
//	q_n = (1−ε)·onehot(t_n) + ε/V                            (N, V)
//	L   = Σ_n w_n · ( −Σ_v q_nv · log p_nv )                 (1)
//	∂L/∂logits_n = w_n · (p_n − q_n)
//
// logits (N, V) is differentiable; targets (N) holds whole-number class ids
// (PadID for rows that carry no loss) and weights (N) the row weights: a
// padding mask divided by the number of real tokens gives the
// token-normalized loss of DESIGN.md. Rows whose target is PadID contribute
// nothing whatever their weight. The result is a scalar node, ready for
// gorgonia.Grad (the kernel itself outputs shape (1): gorgonia's scalar
// handling breaks downstream of custom kernels, so a Sum makes the scalar).
func CrossEntropy(logits, targets, weights *gorgonia.Node, smoothing float64) (*gorgonia.Node, error) {
	if smoothing < 0 || smoothing >= 1 {
		return nil, fmt.Errorf("models: CrossEntropy: label smoothing %v, want [0, 1)", smoothing)
	}
	l, err := Apply(&xentKernel{eps: smoothing}, logits, targets, weights)
	if err != nil {
		return nil, err
	}
	return gorgonia.Sum(l)
}

type xentKernel struct {
	eps     float64
	targets []int
}

func (k *xentKernel) Name() string { return fmt.Sprintf("CrossEntropy(ε=%g)", k.eps) }

func (k *xentKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 3 || in[0].Dims() != 2 || in[1].Dims() != 1 || in[2].Dims() != 1 ||
		in[1][0] != in[0][0] || in[2][0] != in[0][0] {
		return nil, fmt.Errorf("want logits (N, V), targets (N), weights (N); got %v", in)
	}
	return tensor.Shape{1}, nil
}

func (k *xentKernel) Differentiable(int) []bool { return []bool{true, false, false} }

func (k *xentKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	V := in[0].Shape()[1]
	var err error
	if k.targets, err = readInts(in[1], "cross-entropy targets", PadID, V-1, k.targets); err != nil {
		return err
	}
	switch o := out.Data().(type) {
	case []float32:
		o[0] = float32(xentForward(in[0].Data().([]float32), in[2].Data().([]float32), k.targets, V, k.eps))
	case []float64:
		o[0] = xentForward(in[0].Data().([]float64), in[2].Data().([]float64), k.targets, V, k.eps)
	}
	return nil
}

func (k *xentKernel) Backward(dIn []*tensor.Dense, dOut, _ *tensor.Dense, in []*tensor.Dense) error {
	V := in[0].Shape()[1]
	switch g := dIn[0].Data().(type) {
	case []float32:
		xentBackward(g, in[0].Data().([]float32), in[2].Data().([]float32), k.targets, V, k.eps, dOut.Data().([]float32)[0])
	case []float64:
		xentBackward(g, in[0].Data().([]float64), in[2].Data().([]float64), k.targets, V, k.eps, dOut.Data().([]float64)[0])
	}
	return nil
}

// xentForward returns Σ_n w_n·CE_n, accumulating in float64.
func xentForward[F Float](logits, w []F, targets []int, V int, eps float64) float64 {
	var total float64
	for n, t := range targets {
		if t == PadID || w[n] == 0 {
			continue
		}
		row := logits[n*V : (n+1)*V]
		lse := logSumExp(row)
		ce := (1 - eps) * (lse - float64(row[t]))
		if eps > 0 {
			var sum float64
			for _, v := range row {
				sum += lse - float64(v)
			}
			ce += eps / float64(V) * sum
		}
		total += float64(w[n]) * ce
	}
	return total
}

// xentBackward writes ∂L/∂logits = g·w_n·(p_n − q_n) (zero on padding rows).
func xentBackward[F Float](dst, logits, w []F, targets []int, V int, eps float64, g F) {
	ParallelFor(len(targets), 64, func(lo, hi int) {
		for n := lo; n < hi; n++ {
			d := dst[n*V : (n+1)*V]
			t := targets[n]
			if t == PadID || w[n] == 0 {
				clear(d)
				continue
			}
			row := logits[n*V : (n+1)*V]
			lse := logSumExp(row)
			scale := g * w[n]
			smooth := F(eps / float64(V))
			for v, x := range row {
				d[v] = scale * (F(math.Exp(float64(x)-lse)) - smooth)
			}
			d[t] -= scale * F(1-eps)
		}
	})
}

// logSumExp returns log Σ exp(x) without overflow.
func logSumExp[F Float](x []F) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = math.Max(m, float64(v))
	}
	if math.IsInf(m, -1) {
		return m
	}
	var s float64
	for _, v := range x {
		s += math.Exp(float64(v) - m)
	}
	return m + math.Log(s)
}

// LogSoftmax writes log softmax(x) of each row of x (rows, V) into dst,
// for eager decoding; dst may be x.
func LogSoftmax[F Float](dst, x []F, V int) {
	for r := 0; r+V <= len(x); r += V {
		lse := F(logSumExp(x[r : r+V]))
		for v := r; v < r+V; v++ {
			dst[v] = x[v] - lse
		}
	}
}
