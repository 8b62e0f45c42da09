package models

import (
	"fmt"
	"sync"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The weight gradients of an LSTM unrolled step by step in a graph.
//
// The weights of the S step nodes of one LSTM are the same three tensors.
// Were they differentiable inputs of every step, each step's backward pass
// would compute its own dWx = xᵀ·dz and dWh = h₋₁ᵀ·dz, products over only
// B rows that are bound by writing their (I+H)×4H results rather than by
// arithmetic, and gorgonia would keep the S results of each alive per
// graph and add them up (a speller of 112 steps: 380 MB per graph).
// Instead the steps read the weights as constants and leave their rows of
// x, h₋₁ and dz in a stepSink shared by the LSTM's steps in one graph;
// the sink's backward pass then forms all three gradients from them in one
// product each, over all S·B rows:
//
//	dWx = Xᵀ·DZ,  dWh = H₋₁ᵀ·DZ,  db = Σ_rows DZ
//
// The sink's forward pass, which runs before every step's, also packs
// Wx, Wh, Wxᵀ and Whᵀ once per run for the steps' products (packedRHS):
// read in place, their 4 KiB rows made the steps' GEMMs memory bound, and
// the transposed ones were repacked by every step's backward pass. The
// packed copies are kept once per Buckets and LSTM, not per graph (the
// Binding's packs): a Buckets' graphs run one at a time. The replicas of
// a Replicas share theirs: the first sink of a Replicas.Run packs under
// the ref's lock, the others wait and read the same copies (each replica
// packing its own cost about 7 % of a bfloat16 speller step).
//
// A one-element token orders the passes, as attention's keySink does: the
// sink node outputs it, every step takes it as a differentiable input
// whose gradient is zero, so gorgonia runs the sink's backward pass after
// the backward pass of every step.
type stepSink struct {
	in, hidden int
	offs       []int // first stacked row of each step, in the order the steps were applied
	rows       int   // Σ the steps' batch rows
	x, h, dz   any   // []float32 or []float64: (rows, In), (rows, H), (rows, 4H)
	written    []bool
	packs      *stepPacksRef
}

// stepPacksRef holds a *stepPacks[float32] or *stepPacks[float64].
// Unshared, every sink's forward pass repacks. Shared by concurrent
// graphs (Replicas), fresh says that v holds the weights of the current
// run: Graph.Run and Replicas.Run clear it before computing, the first
// sink to run packs and sets it, under mu.
type stepPacksRef struct {
	v      any
	shared bool
	mu     sync.Mutex
	fresh  bool
}

// invalidate marks shared packs stale before a run.
func (ref *stepPacksRef) invalidate() {
	if ref.shared {
		ref.mu.Lock()
		ref.fresh = false
		ref.mu.Unlock()
	}
}

// stepPacks are the weights as the steps' products read them.
type stepPacks[F Float] struct {
	wx, wh, wxT, whT packedRHS[F]
}

// stepSinkOf returns the sink of l's steps in b's graph and its token,
// adding the sink node on first use.
func (b *Binding) stepSinkOf(l *LSTM) (*stepSink, *gorgonia.Node, error) {
	if ref, ok := b.stepSinks[l]; ok {
		return ref.sink, ref.token, nil
	}
	if b.packs[l] == nil {
		b.packs[l] = &stepPacksRef{shared: b.sharedPacks}
	}
	s := &stepSink{in: l.In, hidden: l.Hidden, packs: b.packs[l]}
	tok, err := Apply(&stepSinkKernel{sink: s}, l.weights(b)...)
	if err != nil {
		return nil, nil, err
	}
	if b.stepSinks == nil {
		b.stepSinks = map[*LSTM]stepSinkRef{}
	}
	b.stepSinks[l] = stepSinkRef{s, tok}
	return s, tok, nil
}

type stepSinkRef struct {
	sink  *stepSink
	token *gorgonia.Node
}

// add reserves the stacked rows of a step of batch rows and returns its slot.
func (s *stepSink) add(rows int) int {
	s.offs = append(s.offs, s.rows)
	s.rows += rows
	return len(s.offs) - 1
}

// stepSinkKernel is the sink node: inputs Wx (I, 4H), Wh (H, 4H), b (4H);
// output the token (1), always 0.
type stepSinkKernel struct {
	sink *stepSink
}

func (*stepSinkKernel) Name() string { return "LSTMStepSink" }

func (k *stepSinkKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	I, H := k.sink.in, k.sink.hidden
	if len(in) != 3 || !in[0].Eq(tensor.Shape{I, 4 * H}) || !in[1].Eq(tensor.Shape{H, 4 * H}) || !in[2].Eq(tensor.Shape{4 * H}) {
		return nil, fmt.Errorf("want Wx (%d, %d), Wh (%d, %d), b (%d); got %v", I, 4*H, H, 4*H, 4*H, in)
	}
	return tensor.Shape{1}, nil
}

func (*stepSinkKernel) Differentiable(int) []bool { return []bool{true, true, true} }

func (k *stepSinkKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	if out.Dtype() == tensor.Float32 {
		stepSinkForward(k.sink, floatsOf[float32](out), floatsOf[float32](in[0]), floatsOf[float32](in[1]))
	} else {
		stepSinkForward(k.sink, floatsOf[float64](out), floatsOf[float64](in[0]), floatsOf[float64](in[1]))
	}
	return nil
}

// stepSinkForward sizes the stacked buffers, marks every slot unwritten and
// packs the weights for the steps.
func stepSinkForward[F Float](s *stepSink, tok, wx, wh []F) {
	I, H := s.in, s.hidden
	ref := s.packs
	if ref.shared {
		ref.mu.Lock()
		defer ref.mu.Unlock()
	}
	p, ok := ref.v.(*stepPacks[F])
	if !ok {
		p = new(stepPacks[F])
		ref.v, ref.fresh = p, false
	}
	if !ref.shared || !ref.fresh {
		p.wx.pack(false, I, 4*H, wx, 4*H)
		p.wh.pack(false, H, 4*H, wh, 4*H)
		p.wxT.pack(true, 4*H, I, wx, 4*H)
		p.whT.pack(true, 4*H, H, wh, 4*H)
		ref.fresh = true
	}
	x, _ := s.x.([]F)
	h, _ := s.h.([]F)
	dz, _ := s.dz.([]F)
	s.x, s.h, s.dz = growFloats(x, s.rows*s.in), growFloats(h, s.rows*s.hidden), growFloats(dz, s.rows*4*s.hidden)
	s.written = append(s.written[:0], make([]bool, len(s.offs))...)
	clear(tok)
}

func (k *stepSinkKernel) Backward(dIn []*tensor.Dense, _, _ *tensor.Dense, _ []*tensor.Dense) error {
	if dIn[0].Dtype() == tensor.Float32 {
		stepSinkBackward(k.sink, floatsOf[float32](dIn[0]), floatsOf[float32](dIn[1]), floatsOf[float32](dIn[2]))
	} else {
		stepSinkBackward(k.sink, floatsOf[float64](dIn[0]), floatsOf[float64](dIn[1]), floatsOf[float64](dIn[2]))
	}
	return nil
}

// stepSinkBackward forms the weight gradients from the stacked rows; the
// rows of a step whose backward pass did not run count as zero.
func stepSinkBackward[F Float](s *stepSink, dwx, dwh, db []F) {
	I, H, N := s.in, s.hidden, s.rows
	x, h, dz := s.x.([]F), s.h.([]F), s.dz.([]F)
	for i, done := range s.written {
		if !done {
			lo, hi := s.offs[i], N
			if i+1 < len(s.offs) {
				hi = s.offs[i+1]
			}
			clear(x[lo*I : hi*I])
			clear(h[lo*H : hi*H])
			clear(dz[lo*4*H : hi*4*H])
		}
	}
	if N == 0 {
		clear(dwx)
		clear(dwh)
		clear(db)
		return
	}
	gemm(true, false, I, 4*H, N, 1, x, I, dz, 4*H, 0, dwx, 4*H)
	gemm(true, false, H, 4*H, N, 1, h, H, dz, 4*H, 0, dwh, 4*H)
	sumRows(db, dz, N, 4*H)
}
