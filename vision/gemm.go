package vision

import "github.com/attend-go/attend/internal/sgemm"

// The GEMM behind every convolution of the encoder:
//
//	C = clamp(A·B + bias, lo, hi)      A: M×K, B: K×N, C: M×N
//
// computed tile by tile by the module's shared kernels (internal/sgemm:
// Packed, the weights packed once when the model is loaded; Packed.Tile,
// an MR×NR tile held in registers over K, AVX2/FMA assembly where the CPU
// has it). This file spreads the tiles over goroutines.

// scratch is the per-goroutine memory of the kernels.
type scratch struct {
	tile  *sgemm.Scratch // edge tiles of the GEMM
	patch []float32      // a 3×3×channels depthwise window at the border
}

func newScratch(maxK, maxChannels int) *scratch {
	return &scratch{tile: sgemm.NewScratch(maxK), patch: make([]float32, 9*maxChannels)}
}

// gemm computes C = clamp(A·B + bias, lo, hi) for M rows. A holds row i at
// a[i*lda:][:K], C row i at c[i*ldc:][:N]. scratch has one entry per
// goroutine of par, each sized for at least b.K.
func gemm(m int, a []float32, lda int, b *sgemm.Packed, c []float32, ldc int, lo, hi float32, par parallel, scratch []*scratch) {
	if m == 0 || b.N == 0 {
		return
	}
	tiles := (m + sgemm.MR - 1) / sgemm.MR
	panels := b.Panels()
	// Tasks are rectangles of tilesPer row tiles × panelsPer panels. A
	// block of 8 row tiles (48 rows of A, at most 184 KB for K = 960)
	// stays in L2 while the panels stream past; more tasks than
	// goroutines balance the load.
	tilesPer, panelsPer := min(tiles, 8), panels
	if par.n > 1 {
		for (tiles+tilesPer-1)/tilesPer*((panels+panelsPer-1)/panelsPer) < 4*par.n {
			if panelsPer > 1 {
				panelsPer = (panelsPer + 1) / 2
			} else if tilesPer > 1 {
				tilesPer = (tilesPer + 1) / 2
			} else {
				break
			}
		}
	}
	rowTasks := (tiles + tilesPer - 1) / tilesPer
	colTasks := (panels + panelsPer - 1) / panelsPer
	par.do(rowTasks*colTasks, func(worker, task int) {
		s := scratch[worker]
		t0 := (task / colTasks) * tilesPer
		p0 := (task % colTasks) * panelsPer
		for p := p0; p < min(p0+panelsPer, panels); p++ {
			for t := t0; t < min(t0+tilesPer, tiles); t++ {
				b.Tile(useAVX2, t*sgemm.MR, p, m, a, lda, c, ldc, lo, hi, s.tile)
			}
		}
	})
}

// clamp limits v to [lo, hi]. It compiles to MINSS/MAXSS-like branch-free
// code: a branch would be mispredicted half the time at a ReLU.
func clamp(v, lo, hi float32) float32 {
	return max(min(v, hi), lo)
}
