package whisper

import (
	"math"
	"runtime"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/internal/sgemm"
)

// targetProbs writes, for each of the t rows x_i of x (t, cols) whose
// target[i] ≥ 0, the probability of that token under the softmax of the
// row's logits over W's first n rows,
//
//	p_i = exp(z_i,target − log Σ_{v<n} exp(z_i,v))     z_i = W·x_i
//
// (p_i = 0 where target[i] < 0). W's rows go by in blocks of blockBytes
// in float32 (as in mulBlocks), every block's logits for all t rows in
// one product, and each row's log-sum-exp is accumulated block by block,
// so that no row of n logits is held: word timing's probabilities for 64
// rows of 51,864 took 13 MB. Each block's log-sum-exp is
// attention.LogSumExp's; the blocks combine in float64, so p differs from
// the whole row's softmax only in rounding. buf (grown as needed and
// returned) holds the block's float32 weights and logits.
func (w *matrix) targetProbs(p []float64, x []float32, t, n int, target []int, buf []float32) []float32 {
	cols := w.cols
	blk := min(max(1, blockBytes/(4*cols)), n)
	wsize := blk * cols
	if w.f32 != nil {
		wsize = 0
	}
	buf = grow(buf, wsize+t*blk)
	wb, z := buf[:wsize], buf[wsize:]
	lse := make([]float64, t)
	logit := make([]float32, t)
	for i := range lse {
		lse[i] = math.Inf(-1)
	}
	for r0 := 0; r0 < n; r0 += blk {
		r1 := min(n, r0+blk)
		nb := r1 - r0
		var blockW []float32
		if w.f32 != nil {
			blockW = w.f32[r0*cols : r1*cols]
		} else {
			blockW = wb[:nb*cols]
			w.rowsTo(blockW, r0, r1)
		}
		sgemm.Gemm(false, true, t, nb, cols, 1, x, cols, blockW, cols, 0, z, nb)
		for i := range t {
			if target[i] < 0 {
				continue
			}
			row := z[i*nb : (i+1)*nb]
			lse[i] = logAddExp(lse[i], attention.LogSumExp(row))
			if tg := target[i]; tg >= r0 && tg < r1 {
				logit[i] = row[tg-r0]
			}
		}
	}
	runtime.KeepAlive(w)
	for i := range p[:t] {
		p[i] = 0
		if target[i] >= 0 {
			p[i] = math.Exp(float64(logit[i]) - lse[i])
		}
	}
	return buf
}
