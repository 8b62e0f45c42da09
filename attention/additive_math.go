package attention

import (
	"github.com/attend-go/attend/models"
)

// The fused additive score, shared by Additive, LocationAware, Concat and
// Hard, in both faces:
//
//	pre[b,t,:] = proj[b,t,:] + query[b,:]·W + (fT[b,:,t])ᵀ·Uf      (A)
//	e[b,t]     = vᵀ·tanh(pre[b,t,:])
//	α[b,:]     = softmax over the valid t of β·e[b,:]
//
// where proj = memory·U + b comes from Prepare, the location term is
// present only with location features and a previous step, and the valid
// positions are the real (unmasked) ones inside the window.
//
// The backward pass recomputes tanh(pre) row by row instead of keeping the
// (B, T, A) activations between the passes: one extra tanh per element
// buys back B·T·A floats per decoder step, the memory that otherwise grows
// with every step of a teacher-forced graph.

// additiveSpec configures the score.
type additiveSpec struct {
	filters  int     // nf: location filters; 0 means no location features
	width    int     // K: filter width (odd)
	channels int     // C: 1 (previous weights) or 2 (previous and cumulative)
	sharpen  float64 // β; 1 is the plain softmax
	window   Window
}

// additiveArgs holds the operands of one score computation, or, in the
// backward pass, their gradients. Shapes are noted per field.
type additiveArgs[F Float] struct {
	B, T, A, H int
	proj       []F // (B, T, A): memory·U + b
	query      []F // (B, H)
	w          []F // (H, A)
	v          []F // (A)
	mask       []F // (B, T): 1 real, 0 padding; nil for no padding
	prev       []F // (B, T): previous weights; nil before the first step
	cum        []F // (B, T): cumulative weights; nil unless channels is 2
	filters    []F // (nf, C, K); nil without location features
	uf         []F // (nf, A)
	// addProj (gradients only) says that ∂L/∂proj is added into proj, a
	// keySink's accumulator, rather than written over it.
	addProj bool
	// shared (eager forward only) says that proj and mask hold one row
	// that every batch row reads (Keys.Broadcast).
	shared bool
}

// keyRow is the row of proj and mask that batch row b reads.
func (x *additiveArgs[F]) keyRow(b int) int {
	if x.shared {
		return 0
	}
	return b
}

// locActive reports whether the location term is computed: location
// features are configured and there is a previous step.
func locActive[F Float](s *additiveSpec, x *additiveArgs[F]) bool {
	return s.filters > 0 && x.prev != nil
}

// row returns row b of a (B, n) slice, or nil for a nil slice.
func row[F Float](s []F, b, n int) []F {
	if s == nil {
		return nil
	}
	return s[b*n : (b+1)*n]
}

// additiveForward writes α (B, T), spreading rows over goroutines
// (training).
func additiveForward[F Float](s *additiveSpec, x *additiveArgs[F], alpha []F) {
	qwBuf := getScratch[F](x.B * x.A)
	defer putScratch(qwBuf)
	qw := *qwBuf // (B, A) = query·W
	models.Gemm(false, false, x.B, x.A, x.H, 1, x.query, x.H, x.w, x.A, 0, qw, x.A)
	models.ParallelFor(x.B, 1, func(lo, hi int) { additiveRows(s, x, qw, alpha, lo, hi) })
}

// additiveForwardSerial is additiveForward on the calling goroutine, for
// the eager face: it allocates nothing.
func additiveForwardSerial[F Float](s *additiveSpec, x *additiveArgs[F], alpha []F) {
	qwBuf := getScratch[F](x.B * x.A)
	defer putScratch(qwBuf)
	qw := *qwBuf
	models.Gemm(false, false, x.B, x.A, x.H, 1, x.query, x.H, x.w, x.A, 0, qw, x.A)
	additiveRows(s, x, qw, alpha, 0, x.B)
}

// additiveRows computes α for the batch rows [lo, hi) given qw = query·W.
func additiveRows[F Float](s *additiveSpec, x *additiveArgs[F], qw, alpha []F, lo, hi int) {
	T, A := x.T, x.A
	buf := getScratch[F](s.filters*T + T*A)
	defer putScratch(buf)
	for b := lo; b < hi; b++ {
		additiveRowForward(s, x, b, row(qw, b, A), row(alpha, b, T), *buf)
	}
}

// locTerm computes the location features fT (nf, T) and their projection
// pre (T, A) = fTᵀ·Uf on the rows [lo, hi) of batch row b.
func locTerm[F Float](s *additiveSpec, x *additiveArgs[F], b, lo, hi int, fT, pre []F) {
	T, A := x.T, x.A
	convForward(fT, row(x.prev, b, T), row(x.cum, b, T), x.filters, s.filters, s.channels, s.width, T, lo, hi)
	models.Gemm(true, false, hi-lo, A, s.filters, 1, fT[lo:], T, x.uf, A, 0, pre[lo*A:], A)
}

// terms returns the row of proj and, with location features (pre not
// nil), the row of the location term at position t of batch row b: with
// qw they are the three terms of pre[b,t,:] (A), whose tanh the score
// (models.TanhScore) and its gradient (models.TanhScoreBackward) fuse.
func terms[F Float](x *additiveArgs[F], b, t int, pre []F) (kp, l []F) {
	A := x.A
	k := x.keyRow(b)
	kp = x.proj[(k*x.T+t)*A : (k*x.T+t+1)*A]
	if pre != nil {
		l = pre[t*A : (t+1)*A]
	}
	return kp, l
}

func additiveRowForward[F Float](s *additiveSpec, x *additiveArgs[F], b int, qw, alpha, buf []F) {
	T, A := x.T, x.A
	lo, hi := windowBounds(s.window, row(x.prev, b, T), T)
	mask := row(x.mask, x.keyRow(b), T)
	var pre []F
	if locActive(s, x) {
		pre = buf[s.filters*T : s.filters*T+T*A]
		locTerm(s, x, b, lo, hi, buf[:s.filters*T], pre)
	}
	e := alpha // scores are written in place, then normalized
	for t := lo; t < hi; t++ {
		if mask == nil || mask[t] > 0 {
			kp, l := terms(x, b, t, pre)
			e[t] = models.TanhScore(kp, qw, l, x.v)
		}
	}
	softmaxRow(alpha, e, mask, lo, hi, F(s.sharpen))
}

// additiveBackward writes into g the gradients of every operand that g has
// a slice for (proj, query, w, v, and with location features prev, cum,
// filters, uf) given α and dα.
func additiveBackward[F Float](s *additiveSpec, x, g *additiveArgs[F], alpha, dAlpha []F) {
	B, T, A, H := x.B, x.T, x.A, x.H
	qwBuf, dqwBuf := getScratch[F](B*A), getScratch[F](B*A)
	defer putScratch(qwBuf)
	defer putScratch(dqwBuf)
	qw, dqw := *qwBuf, *dqwBuf
	models.Gemm(false, false, B, A, H, 1, x.query, H, x.w, A, 0, qw, A)
	clear(g.v)
	clear(g.filters)
	clear(g.uf)
	// Each block of rows sums its share of the gradients shared by all
	// rows (dv, dUf, dF) in its own scratch; the shares are added in block
	// order after the loop. The blocks are fixed by B alone, not by the
	// goroutines that take them, so the result depends neither on which
	// finished first nor on GOMAXPROCS (floating-point addition is not
	// associative, and training must be bit-reproducible when resumed or
	// run on other cores).
	nf, nF := s.filters, len(x.filters)
	size := (B + additiveBlocks - 1) / additiveBlocks
	parts := make([]rowPartial[F], (B+size-1)/size)
	models.ParallelFor(len(parts), 1, func(lo, hi int) {
		for blk := lo; blk < hi; blk++ {
			// Per-block scratch: de (T), fT and dfT (nf, T), pre and dpre
			// (T, A), and partial sums of the shared gradients dv (A), dUf
			// (nf, A), dF (nf, C, K).
			n := T + 2*nf*T + 2*T*A + A + nf*A + nF
			buf := getScratch[F](n)
			sc := *buf
			clear(sc[n-(A+nf*A+nF):])
			w := rowScratch[F]{}
			w.de, sc = sc[:T], sc[T:]
			w.fT, sc = sc[:nf*T], sc[nf*T:]
			w.dfT, sc = sc[:nf*T], sc[nf*T:]
			w.pre, sc = sc[:T*A], sc[T*A:]
			w.dpre, sc = sc[:T*A], sc[T*A:]
			w.dv, sc = sc[:A], sc[A:]
			w.dUf, w.dF = sc[:nf*A], sc[nf*A:nf*A+nF]
			for b := blk * size; b < min(B, (blk+1)*size); b++ {
				additiveRowBackward(s, x, g, b, row(qw, b, A), row(dqw, b, A), row(alpha, b, T), row(dAlpha, b, T), &w)
			}
			parts[blk] = rowPartial[F]{buf: buf, w: w}
		}
	})
	for _, p := range parts {
		axpy(1, p.w.dv, g.v)
		if nf > 0 && x.prev != nil {
			axpy(1, p.w.dUf, g.uf)
			axpy(1, p.w.dF, g.filters)
		}
		putScratch(p.buf)
	}
	// dquery = dqw·Wᵀ, dW = queryᵀ·dqw.
	models.Gemm(false, true, B, H, A, 1, dqw, A, x.w, A, 0, g.query, H)
	models.Gemm(true, false, H, A, B, 1, x.query, H, dqw, A, 0, g.w, A)
}

// additiveBlocks is the most blocks of rows additiveBackward sums the
// shared gradients over, so the most goroutines it keeps busy.
const additiveBlocks = 8

// rowPartial is one block of rows' scratch, kept until its partial sums
// are added in block order.
type rowPartial[F Float] struct {
	buf *[]F
	w   rowScratch[F]
}

// rowScratch is one goroutine's scratch for additiveRowBackward, with its
// partial sums of the gradients shared by all rows (dv, dUf, dF).
type rowScratch[F Float] struct {
	de, fT, dfT, pre, dpre []F
	dv, dUf, dF            []F
}

func additiveRowBackward[F Float](s *additiveSpec, x, g *additiveArgs[F], b int, qw, dqw, alpha, dAlpha []F, w *rowScratch[F]) {
	T, A := x.T, x.A
	lo, hi := windowBounds(s.window, row(x.prev, b, T), T)
	softmaxBackwardRow(w.de, alpha, dAlpha, F(s.sharpen))
	loc := locActive(s, x)
	// dproj receives this step's ∂L/∂pre: the row of ∂L/∂proj itself, or,
	// when it is added into a sink, scratch (the location term's
	// gradients need it alone) or nothing (dz is added as it is made).
	dproj := g.proj[b*T*A : (b+1)*T*A]
	if g.addProj {
		dproj = nil
		if loc {
			dproj = w.dpre
		}
	}
	if dproj != nil {
		clear(dproj)
	}
	clear(dqw)
	var pre []F
	if loc {
		clear(row(g.prev, b, T))
		clear(row(g.cum, b, T))
		pre = w.pre
		locTerm(s, x, b, lo, hi, w.fT, pre)
	}
	for t := lo; t < hi; t++ {
		d := w.de[t]
		if d == 0 {
			continue // padding, or a weight that underflowed to 0
		}
		// dv += de_t·z; ∂L/∂pre[t] = de_t·v⊙(1−z²) is written to dproj
		// (or added to the sink's accumulator) and summed into dqw.
		kp, l := terms(x, b, t, pre)
		if dproj != nil {
			models.TanhScoreBackward(dproj[t*A:(t+1)*A], w.dv, dqw, kp, qw, l, x.v, d, false)
		} else {
			models.TanhScoreBackward(g.proj[(b*T+t)*A:(b*T+t+1)*A], w.dv, dqw, kp, qw, l, x.v, d, true)
		}
	}
	if loc && g.addProj && lo < hi {
		axpy(1, dproj[lo*A:hi*A], g.proj[(b*T+lo)*A:(b*T+hi)*A])
	}
	if !loc || lo >= hi {
		return
	}
	nf := s.filters
	// dUf += fT[:, lo:hi]·dpre[lo:hi]; dfT[:, lo:hi] = Uf·dpre[lo:hi]ᵀ.
	models.Gemm(false, false, nf, A, hi-lo, 1, w.fT[lo:], T, dproj[lo*A:], A, 1, w.dUf, A)
	models.Gemm(false, true, nf, hi-lo, A, 1, x.uf, A, dproj[lo*A:], A, 0, w.dfT[lo:], T)
	convBackward(w.dF, row(g.prev, b, T), row(g.cum, b, T), w.dfT, row(x.prev, b, T), row(x.cum, b, T), x.filters, nf, s.channels, s.width, T, lo, hi)
}
