package models

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sync"
)

// The whole-sequence recurrence shared by the LSTM and BiLSTM kernels and
// their eager faces.
//
// A padded batch x (B, T, I) with lengths is first packed, as PyTorch's
// PackedSequence does: the sequences are ordered longest first (perm), and
// step s of the recurrence holds the active[s] sequences longer than s as
// rows off[s] … off[s]+active[s] of (N, ·) matrices, N = Σ lengths. The
// active sequences of a step are then a prefix of those of the step before,
// so every per-step product is one dense GEMM over exactly the real frames,
// and padding costs nothing and never touches the state. A backward
// direction reads each sequence from its own last real frame: its step s is
// frame lengths[b]−1−s.
//
// Work per direction and pass, with H the hidden size:
//
//	forward:  Z = Xp·Wx + b           one (N, I)×(I, 4H) GEMM
//	          Z_s += h_{s−1}·Wh        one (active[s], H)×(H, 4H) GEMM per step
//	backward: dh_{s−1} = dZ_s·Whᵀ      one GEMM per step
//	          dWh = Hpᵀ·dZ, dWx = Xpᵀ·dZ, dXp = dZ·Wxᵀ   one GEMM each
//
// where Hp holds h_{s−1} aligned with the rows of step s (zero for s = 0).
// The per-step products read Wh (Whᵀ) from panels packed once per pass
// (packedRHS), not from Wh itself, whose 4 KiB rows thrash the L1 cache.
// Backward consumes the saved state: dZ overwrites the gate activations and
// dXp the packed inputs.

// seqPlan is the packed layout of one batch.
type seqPlan struct {
	B, T    int
	lengths []int // (B)
	perm    []int // (B) batch index of packed row r of every step, longest first
	active  []int // (T+1) sequences longer than s; active[T] = 0
	off     []int // (T+1) first packed row of step s; off[T] = N
}

// build lays out a batch of B sequences padded to T steps. A length outside
// [0, T] is an input error.
func (p *seqPlan) build(lengths []int, B, T int) error {
	if len(lengths) != B {
		return fmt.Errorf("%w: %d sequence lengths for a batch of %d", ErrBadIndex, len(lengths), B)
	}
	if err := checkInts(lengths, "sequence lengths", 0, T); err != nil {
		return err
	}
	p.B, p.T = B, T
	p.lengths = append(p.lengths[:0], lengths...)
	p.perm = growInts(p.perm, B)
	for i := range p.perm {
		p.perm[i] = i
	}
	slices.SortStableFunc(p.perm, func(a, b int) int { return cmp.Compare(lengths[b], lengths[a]) })
	p.active = growInts(p.active, T+1)
	p.off = growInts(p.off, T+1)
	n := B
	for s := 0; s <= T; s++ {
		for n > 0 && lengths[p.perm[n-1]] <= s {
			n--
		}
		p.active[s] = n
	}
	p.off[0] = 0
	for s := 0; s < T; s++ {
		p.off[s+1] = p.off[s] + p.active[s]
	}
	return nil
}

// rows returns N, the number of real frames.
func (p *seqPlan) rows() int { return p.off[p.T] }

// frame returns the time index that packed row r of step s reads.
func (p *seqPlan) frame(r, s int, reverse bool) (b, t int) {
	b = p.perm[r]
	if reverse {
		return b, p.lengths[b] - 1 - s
	}
	return b, s
}

// seqWeights are one direction's parameters: Wx (I, 4H), Wh (H, 4H), b (4H).
type seqWeights[F Float] struct {
	wx, wh, b []F
}

// seqDir is one direction's saved state and working memory.
type seqDir[F Float] struct {
	xp    []F          // (N, I) packed inputs; dXp after Backward
	gates []F          // (N, 4H) gate activations; dZ after Backward
	c     []F          // (N, H) cells
	hprev []F          // (N, H) h_{s−1} aligned with the rows of step s
	h     []F          // (B, H) the current step's h
	dh    []F          // (B, H) ∂L/∂h_s during Backward
	dc    []F          // (B, H) ∂L/∂c_s from later steps during Backward
	wh    packedRHS[F] // Wh in Forward, Whᵀ in Backward
}

// seqForward runs len(dirs) directions over x (B, T, I): direction k writes
// its hidden states to columns k·H … (k+1)·H of out (B, T, len(dirs)·H),
// direction 1 reading the sequences backwards, and zeros at padded frames.
// With more than one direction and GOMAXPROCS > 1 they run concurrently.
func seqForward[F Float](p *seqPlan, dirs []seqDir[F], w []seqWeights[F], x []F, I, H int, out []F) {
	eachDir(len(dirs), func(k int) {
		dirs[k].forward(p, k == 1, w[k], x, I, H, out, len(dirs)*H, k*H)
	})
}

// seqBackward backpropagates dOut (B, T, len(dirs)·H) through a pass of
// seqForward: dx (B, T, I) receives ∂L/∂x (zero at padded frames), and
// dw[k] the gradients of direction k's weights. A nil dx skips ∂L/∂x and
// its product, dZ·Wxᵀ (a first layer's input is features, not trainable).
func seqBackward[F Float](p *seqPlan, dirs []seqDir[F], w, dw []seqWeights[F], dOut []F, I, H int, dx []F) {
	eachDir(len(dirs), func(k int) {
		dirs[k].backward(p, k == 1, w[k], dw[k], dOut, I, H, len(dirs)*H, k*H, dx != nil)
	})
	if dx == nil {
		return
	}
	clear(dx[:p.B*p.T*I])
	for k := range dirs {
		dirs[k].scatterAdd(p, k == 1, dx, I)
	}
}

// eachDir calls f(0) … f(n−1), concurrently when there are spare threads.
func eachDir(n int, f func(k int)) {
	if n == 1 || runtime.GOMAXPROCS(0) == 1 {
		for k := range n {
			f(k)
		}
		return
	}
	var wg sync.WaitGroup
	for k := 1; k < n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(k)
		}()
	}
	f(0)
	wg.Wait()
}

// forward runs one direction, writing h into columns col … col+H of out
// (B, T, ow).
func (d *seqDir[F]) forward(p *seqPlan, reverse bool, w seqWeights[F], x []F, I, H int, out []F, ow, col int) {
	B, T, N := p.B, p.T, p.rows()
	d.xp = growFloats(d.xp, N*I)
	d.gates = growFloats(d.gates, N*4*H)
	d.c = growFloats(d.c, N*H)
	d.hprev = growFloats(d.hprev, N*H)
	d.h = growFloats(d.h, B*H)

	// Pack the inputs and project them for all steps at once.
	for s := 0; s < T && p.active[s] > 0; s++ {
		for r := 0; r < p.active[s]; r++ {
			b, t := p.frame(r, s, reverse)
			copy(d.xp[(p.off[s]+r)*I:(p.off[s]+r+1)*I], x[(b*T+t)*I:(b*T+t+1)*I])
		}
	}
	broadcastRows(d.gates, N, 4*H, w.b)
	gemm(false, false, N, 4*H, I, 1, d.xp, I, w.wx, 4*H, 1, d.gates, 4*H)

	if T > 0 {
		clear(d.hprev[:p.active[0]*H]) // h₋₁ = 0
	}
	d.wh.setLazy(false, H, 4*H, w.wh, 4*H)
	grain := cellRows(H)
	for s := 0; s < T && p.active[s] > 0; s++ {
		n, base := p.active[s], p.off[s]
		z := d.gates[base*4*H : (base+n)*4*H]
		var cPrev []F
		if s > 0 {
			d.wh.gemm(n, 1, d.hprev[base*H:], H, 1, z, 4*H)
			cPrev = d.c[p.off[s-1]*H:]
		}
		c := d.c[base*H:]
		if n < 2*grain {
			cellForward(H, 0, n, z, cPrev, H, c, H, d.h, H)
		} else {
			ParallelFor(n, grain, func(lo, hi int) {
				cellForward(H, lo, hi, z, cPrev, H, c, H, d.h, H)
			})
		}
		next := p.active[s+1]
		for r := range n {
			b, t := p.frame(r, s, reverse)
			h := d.h[r*H : (r+1)*H]
			copy(out[(b*T+t)*ow+col:(b*T+t)*ow+col+H], h)
			if r < next {
				copy(d.hprev[(p.off[s+1]+r)*H:], h)
			}
		}
	}
	for b := range B {
		for t := p.lengths[b]; t < T; t++ {
			clear(out[(b*T+t)*ow+col : (b*T+t)*ow+col+H])
		}
	}
}

// backward backpropagates columns col … col+H of dOut (B, T, ow) through
// one direction, writing its weight gradients to dw and, with wantDx,
// ∂L/∂Xp over d.xp.
func (d *seqDir[F]) backward(p *seqPlan, reverse bool, w, dw seqWeights[F], dOut []F, I, H, ow, col int, wantDx bool) {
	B, T, N := p.B, p.T, p.rows()
	d.dh = growFloats(d.dh, B*H)
	d.dc = growFloats(d.dc, B*H)
	d.wh.setLazy(true, 4*H, H, w.wh, 4*H)
	grain := cellRows(H)
	for s := T - 1; s >= 0; s-- {
		n, base, later := p.active[s], p.off[s], p.active[s+1]
		if n == 0 {
			continue
		}
		// Rows whose sequence ends at step s get no gradient from later steps.
		clear(d.dh[later*H : n*H])
		clear(d.dc[later*H : n*H])
		for r := range n {
			b, t := p.frame(r, s, reverse)
			dh, g := d.dh[r*H:(r+1)*H], dOut[(b*T+t)*ow+col:(b*T+t)*ow+col+H]
			for j := range dh {
				dh[j] += g[j]
			}
		}
		z := d.gates[base*4*H : (base+n)*4*H]
		var cPrev []F
		if s > 0 {
			cPrev = d.c[p.off[s-1]*H:]
		}
		c := d.c[base*H:]
		if n < 2*grain {
			cellBackward(H, 0, n, z, cPrev, H, c, H, d.dh, H, d.dc, H, z, d.dc, H)
		} else {
			ParallelFor(n, grain, func(lo, hi int) {
				cellBackward(H, lo, hi, z, cPrev, H, c, H, d.dh, H, d.dc, H, z, d.dc, H)
			})
		}
		if s > 0 {
			d.wh.gemm(n, 1, z, 4*H, 0, d.dh, H)
		}
	}
	dz := d.gates[:N*4*H]
	if N == 0 {
		clear(dw.wx)
		clear(dw.wh)
		clear(dw.b)
		return
	}
	gemm(true, false, H, 4*H, N, 1, d.hprev, H, dz, 4*H, 0, dw.wh, 4*H)
	gemm(true, false, I, 4*H, N, 1, d.xp, I, dz, 4*H, 0, dw.wx, 4*H)
	sumRows(dw.b, dz, N, 4*H)
	if wantDx {
		gemm(false, true, N, I, 4*H, 1, dz, 4*H, w.wx, 4*H, 0, d.xp, I)
	}
}

// scatterAdd adds the packed input gradient d.xp into dx (B, T, I).
func (d *seqDir[F]) scatterAdd(p *seqPlan, reverse bool, dx []F, I int) {
	for s := 0; s < p.T && p.active[s] > 0; s++ {
		for r := 0; r < p.active[s]; r++ {
			b, t := p.frame(r, s, reverse)
			dst, src := dx[(b*p.T+t)*I:(b*p.T+t+1)*I], d.xp[(p.off[s]+r)*I:(p.off[s]+r+1)*I]
			for j, v := range src {
				dst[j] += v
			}
		}
	}
}
