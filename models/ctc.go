package models

import (
	"fmt"
	"math"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Connectionist temporal classification (Graves et al. 2006).
//
// For frame scores (logits) of one sequence, y = softmax over the V labels
// per frame, and a target l of S labels, CTC sums the probability of every
// frame-level path that collapses to l (merge repeats, then drop blanks):
//
//	p(l | x) = Σ_{π ∈ B⁻¹(l)} Π_t y_t(π_t)
//
// computed over the extended target l' = [∅ l₁ ∅ l₂ … ∅ l_S ∅] (2S+1 states)
// with the forward–backward recursions of §4.1, in log space:
//
//	α_t(s) = y_t(l'_s) · (α_{t−1}(s) + α_{t−1}(s−1) [+ α_{t−1}(s−2)])
//	β_t(s) = Σ_{s' ∈ {s, s+1 [, s+2]}} y_{t+1}(l'_{s'}) β_{t+1}(s')
//
// where the skip (s−2 → s) is allowed unless l'_s is blank or repeats
// l'_{s−2}, and β_t(s) is the probability of the frames after t given state
// s at t (so α_t(s)β_t(s) is the mass of the paths through s at t). The
// loss is −ln p(l | x), and its gradient with respect to the logits is
//
//	∂loss/∂a_t(k) = y_t(k) − Σ_{s: l'_s = k} α_t(s)β_t(s) / p(l | x)
//
// (eq. 16 after the softmax): softmax minus the posterior occupation.

// CTCOptions configures CTCLoss; a nil or zero value means the defaults
// noted.
type CTCOptions struct {
	Blank int // index of the blank label; default 0
}

// CTCLoss adds the CTC loss of a padded batch to the logits' graph:
//
//	logits (B, T, V)      unnormalized frame scores; log-softmax is applied inside
//	targets (B, S)        label ids; entries at or past targetLengths[b] are ignored
//	inputLengths (B)      real frames per sequence, in [0, T]
//	targetLengths (B)     real labels per sequence, in [0, S]
//	→ loss (B)            −ln p(target_b | x_b) per sequence
//
// The loss is per sequence so the caller chooses the reduction (sum, or mean
// over sequences or over target labels). Only logits are differentiated;
// frames past inputLengths[b] get zero gradient. Targets and lengths are
// float tensors of whole numbers; a target equal to the blank, outside
// [0, V), or a length out of range fails the forward pass with ErrBadIndex.
//
// A sequence with too few frames for its target (T_b < S_b + the number of
// adjacent repeated labels, which need a blank between them) has p = 0 and
// an infinite loss. Its loss is reported as 0 with zero gradient, like
// PyTorch's zero_infinity, so that one bad utterance cannot poison a batch;
// filter such examples with CTCFeasible when building batches. An empty
// target is feasible for any T (all blanks; for T = 0 the loss is 0).
func CTCLoss(logits, targets, inputLengths, targetLengths *gorgonia.Node, opts *CTCOptions) (*gorgonia.Node, error) {
	k := &ctcKernel{}
	if opts != nil {
		k.blank = opts.Blank
	}
	return Apply(k, logits, targets, inputLengths, targetLengths)
}

// CTCFeasible reports whether a target can be aligned to inputLength
// frames: each label needs a frame, plus one blank between adjacent equal
// labels.
func CTCFeasible(inputLength int, target []int) bool {
	return ctcMinFrames(target) <= inputLength
}

func ctcMinFrames(target []int) int {
	n := len(target)
	for i := 1; i < len(target); i++ {
		if target[i] == target[i-1] {
			n++
		}
	}
	return n
}

// ctcKernel: inputs logits (B, T, V), targets (B, S), inputLengths (B),
// targetLengths (B); output (B). Forward computes the gradient (per unit
// loss) along with the loss and keeps it for Backward.
type ctcKernel struct {
	blank   int
	inLen   []int
	tgtLen  []int
	targets []int // (B, S), entries past tgtLen unchecked
	grad    any   // []float32 or []float64, (B, T, V)
	work    []ctcWork
}

// ctcWork is one sequence's scratch, in float64 whatever the graph dtype.
type ctcWork struct {
	logp  []float64 // (T, V) log-softmax
	alpha []float64 // (T, 2S+1) log α
	beta  []float64 // (2, 2S+1) log β_t and log β_{t−1}
	label []int     // (2S+1) extended target l'
	skip  []bool    // (2S+1) whether state s may be entered from s−2
}

func (k *ctcKernel) Name() string { return fmt.Sprintf("CTC(blank=%d)", k.blank) }

func (k *ctcKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 4 {
		return nil, fmt.Errorf("want inputs logits, targets, inputLengths, targetLengths; got %d", len(in))
	}
	lg, tg, il, tl := in[0], in[1], in[2], in[3]
	if lg.Dims() != 3 {
		return nil, fmt.Errorf("logits %v: want (B, T, V)", lg)
	}
	B := lg[0]
	if tg.Dims() != 2 || tg[0] != B {
		return nil, fmt.Errorf("targets %v: want (%d, S)", tg, B)
	}
	if il.Dims() != 1 || il[0] != B || tl.Dims() != 1 || tl[0] != B {
		return nil, fmt.Errorf("inputLengths %v, targetLengths %v: want (%d)", il, tl, B)
	}
	if k.blank < 0 || k.blank >= lg[2] {
		return nil, fmt.Errorf("blank %d outside the %d labels", k.blank, lg[2])
	}
	return tensor.Shape{B}, nil
}

func (*ctcKernel) Differentiable(int) []bool { return []bool{true, false, false, false} }

func (k *ctcKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	s := in[0].Shape()
	B, T, V := s[0], s[1], s[2]
	S := in[1].Shape()[1]
	var err error
	if k.inLen, err = readInts(in[2], "CTC input lengths", 0, T, k.inLen); err != nil {
		return err
	}
	if k.tgtLen, err = readInts(in[3], "CTC target lengths", 0, S, k.tgtLen); err != nil {
		return err
	}
	if k.targets, err = k.readTargets(in[1], B, S, V); err != nil {
		return err
	}
	if out.Dtype() == tensor.Float32 {
		ctcForward[float32](k, floatsOf[float32](out), floatsOf[float32](in[0]), B, T, V, S)
	} else {
		ctcForward[float64](k, floatsOf[float64](out), floatsOf[float64](in[0]), B, T, V, S)
	}
	return nil
}

// readTargets reads the targets, checking the real entries only: they must
// be whole labels in [0, V) other than the blank.
func (k *ctcKernel) readTargets(t *tensor.Dense, B, S, V int) ([]int, error) {
	ids := growInts(k.targets, B*S)
	var get func(i int) float64
	switch d := t.Data().(type) {
	case []float32:
		get = func(i int) float64 { return float64(d[i]) }
	case []float64:
		get = func(i int) float64 { return d[i] }
	}
	for b := range B {
		for j := range k.tgtLen[b] {
			v := get(b*S + j)
			if v != math.Trunc(v) || v < 0 || v >= float64(V) || int(v) == k.blank {
				return ids, fmt.Errorf("%w: CTC targets[%d, %d] = %v, want a label in [0, %d) other than the blank %d", ErrBadIndex, b, j, v, V, k.blank)
			}
			ids[b*S+j] = int(v)
		}
	}
	return ids, nil
}

func ctcForward[F Float](k *ctcKernel, loss, logits []F, B, T, V, S int) {
	grad, _ := k.grad.([]F)
	grad = growFloats(grad, B*T*V)
	k.grad = grad
	if len(k.work) != B {
		k.work = make([]ctcWork, B)
	}
	ParallelFor(B, 1, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			target := k.targets[b*S : b*S+k.tgtLen[b]]
			g := grad[b*T*V : (b+1)*T*V]
			l, _ := ctcSequence(&k.work[b], g, logits[b*T*V:(b+1)*T*V], k.inLen[b], V, target, k.blank)
			loss[b] = F(l)
		}
	})
}

// ctcSequence computes one sequence's loss and writes ∂loss/∂logits into
// grad (T_max, V) (zero past T frames). For an infeasible target it
// returns 0, zero gradient and ok = false.
//
// The recursions run in log space, in float64. (Rescaling probabilities
// per frame, Graves 2012 §7.3.1, is cheaper but not robust: with peaked
// scores a path can fall more than e⁻⁷⁴⁵ below a frame's total, underflow,
// and yet be the only one that survives later frames.)
func ctcSequence[F Float](w *ctcWork, grad, logits []F, T, V int, target []int, blank int) (loss float64, ok bool) {
	clear(grad)
	if ctcMinFrames(target) > T {
		return 0, false
	}
	if T == 0 {
		return 0, true
	}
	L := 2*len(target) + 1
	w.label = growInts(w.label, L)
	w.skip = w.skip[:0]
	for s := range L {
		w.label[s] = blank
		if s%2 == 1 {
			w.label[s] = target[s/2]
		}
		// State s may be entered from s−2 unless it is a blank or repeats
		// the label two states back.
		w.skip = append(w.skip, s%2 == 1 && s >= 2 && target[s/2] != target[s/2-1])
	}
	label, skip := w.label, w.skip
	negInf := math.Inf(-1)

	w.logp = growFloats(w.logp, T*V)
	for t := range T {
		logSoftmax(w.logp[t*V:(t+1)*V], logits[t*V:(t+1)*V])
	}

	// α_t(s), in log space.
	w.alpha = growFloats(w.alpha, T*L)
	alpha := w.alpha
	for s := range L {
		alpha[s] = negInf
	}
	alpha[0] = w.logp[label[0]]
	if L > 1 {
		alpha[1] = w.logp[label[1]]
	}
	for t := 1; t < T; t++ {
		prev, cur, lp := alpha[(t-1)*L:t*L], alpha[t*L:(t+1)*L], w.logp[t*V:(t+1)*V]
		for s := range L {
			a := prev[s]
			switch {
			case skip[s]:
				a = logSumExp3(a, prev[s-1], prev[s-2])
			case s >= 1:
				a = logSumExp3(a, prev[s-1], negInf)
			}
			cur[s] = a + lp[label[s]]
		}
	}
	last := alpha[(T-1)*L : T*L]
	logP := last[L-1]
	if L > 1 {
		logP = logSumExp3(logP, last[L-2], negInf)
	}
	if math.IsInf(logP, -1) || math.IsNaN(logP) {
		return 0, false // non-finite scores
	}

	// β_t(s), in log space, one frame at a time, with the gradient
	// y_t(k) − Σ_{l'_s = k} exp(α_t(s) + β_t(s) − ln p).
	w.beta = growFloats(w.beta, 2*L)
	beta, betaPrev := w.beta[:L], w.beta[L:]
	for s := range L {
		beta[s] = negInf
	}
	beta[L-1] = 0
	if L > 1 {
		beta[L-2] = 0
	}
	for t := T - 1; t >= 0; t-- {
		g, lp := grad[t*V:(t+1)*V], w.logp[t*V:(t+1)*V]
		for v, l := range lp {
			g[v] = F(math.Exp(l))
		}
		a := alpha[t*L : (t+1)*L]
		for s := range L {
			if occ := a[s] + beta[s] - logP; occ > -745 {
				g[label[s]] -= F(math.Exp(occ))
			}
		}
		if t == 0 {
			break
		}
		// β_{t−1}(s) = log Σ over successors s' of y_t(l'_s') β_t(s').
		for s := range L {
			b0, b1, b2 := lp[label[s]]+beta[s], negInf, negInf
			if s+1 < L {
				b1 = lp[label[s+1]] + beta[s+1]
			}
			if s+2 < L && skip[s+2] {
				b2 = lp[label[s+2]] + beta[s+2]
			}
			betaPrev[s] = logSumExp3(b0, b1, b2)
		}
		beta, betaPrev = betaPrev, beta
	}
	return -logP, true
}

// logSumExp3 returns log(eᵃ + eᵇ + eᶜ), exact when any is −∞. The
// maximum term and −∞ terms cost no exp.
func logSumExp3(a, b, c float64) float64 {
	m := max(a, b, c)
	if math.IsInf(m, -1) {
		return m
	}
	return m + math.Log(expFrom(a, m)+expFrom(b, m)+expFrom(c, m))
}

// expFrom returns e^{x−m} for x ≤ m.
func expFrom(x, m float64) float64 {
	switch {
	case x == m:
		return 1
	case math.IsInf(x, -1):
		return 0
	}
	return math.Exp(x - m)
}

// logSoftmax writes x − log Σ exp(x) into dst, in float64.
func logSoftmax[F Float](dst []float64, x []F) {
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, float64(v))
	}
	var sum float64
	for _, v := range x {
		sum += math.Exp(float64(v) - m)
	}
	lse := m + math.Log(sum)
	for i, v := range x {
		dst[i] = float64(v) - lse
	}
}

func (k *ctcKernel) Backward(dIn []*tensor.Dense, dOut, _ *tensor.Dense, in []*tensor.Dense) error {
	s := in[0].Shape()
	if dOut.Dtype() == tensor.Float32 {
		ctcBackward(floatsOf[float32](dIn[0]), k.grad.([]float32), floatsOf[float32](dOut), s[0], s[1]*s[2])
	} else {
		ctcBackward(floatsOf[float64](dIn[0]), k.grad.([]float64), floatsOf[float64](dOut), s[0], s[1]*s[2])
	}
	return nil
}

// ctcBackward scales each sequence's gradient by its loss's upstream
// gradient.
func ctcBackward[F Float](dLogits, grad, dLoss []F, B, n int) {
	for b := range B {
		g, d := grad[b*n:(b+1)*n], dLogits[b*n:(b+1)*n]
		for i, v := range g {
			d[i] = v * dLoss[b]
		}
	}
}
