package attention

import (
	"math"
	"sync"

	"github.com/attend-go/attend/internal/sgemm"
)

// SDPA is eager multi-head scaled dot-product attention over whole
// sequences (Vaswani et al. 2017, §3.2.1–3.2.2), the form a transformer
// needs, with queries, keys and values already projected:
//
//	S_h = Q_h·K_hᵀ / √d_h (+ causal mask)     (Tq, Tk)   h = 1…heads, d_h = width/heads
//	A_h = softmax(S_h) row by row             (Tq, Tk)
//	O_h = A_h·V_h                             (Tq, d_h)
//
// where X_h is the h-th slice of d_h columns of a row-major (T, width)
// matrix, so the heads' outputs lie side by side in dst (Tq, width) as
// the output projection expects. With Causal, query i sits at position
// Offset+i of the key sequence and sees keys 0…Offset+i only (the text
// decoder's mask with a key/value cache of Offset entries).
//
// KeepScores, when set, receives each head's raw scores S_h (Tq rows of
// Tk, before the mask and the softmax) for word timing (openai/whisper
// timing.py reads these "QKs"). Heads run in parallel on up to
// GOMAXPROCS goroutines; the result does not depend on their number.
type SDPA struct {
	Heads      int
	Causal     bool
	Offset     int
	KeepScores func(head int, scores []float32)
}

// sdpaParallelScores is the score-matrix size (Tq·Tk) from which heads run
// in parallel: a decoding step's 1×1500 scores cost less than starting
// goroutines.
const sdpaParallelScores = 1 << 14

// Attend writes O (Tq, width) into dst from q (Tq, width), k and v
// (Tk, width). The slices' lengths are the caller's contract: short ones
// panic (programmer error).
func (a SDPA) Attend(dst, q, k, v []float32, tq, tk, width int) {
	dh := width / a.Heads
	scale := float32(1 / math.Sqrt(float64(dh)))
	workers := min(a.Heads, parallelism())
	if tq*tk < sdpaParallelScores || workers == 1 {
		w := getHeadScratch()
		for h := range a.Heads {
			a.head(dst, q, k, v, w, h, dh, scale, tq, tk, width)
		}
		headScratchPool.Put(w)
		return
	}
	var wg sync.WaitGroup
	next := make(chan int, a.Heads)
	for h := range a.Heads {
		next <- h
	}
	close(next)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := getHeadScratch()
			for h := range next {
				a.head(dst, q, k, v, w, h, dh, scale, tq, tk, width)
			}
			headScratchPool.Put(w)
		}()
	}
	wg.Wait()
}

// sdpaBlockRows is the number of query rows whose scores a head computes,
// normalizes and multiplies by V_h at a time when Tq is larger: 64×1500
// scores (384 KB) stay in L2 between the two products, where the whole
// 1500×1500 matrix (9 MB) went to memory and back. K_hᵀ and V_h are packed
// once per head for all the blocks. 64 rows keep each product under
// sgemm's threshold for splitting over goroutines: the heads already do.
const sdpaBlockRows = 64

// headScratch is one goroutine's buffers: scores, and K_hᵀ and V_h packed.
type headScratch struct {
	s     []float32
	kt, v sgemm.PackedB
}

// headScratchPool recycles head buffers between calls: a decoding step
// calls Attend twice per layer.
var headScratchPool sync.Pool

func getHeadScratch() *headScratch {
	if w, ok := headScratchPool.Get().(*headScratch); ok {
		return w
	}
	return new(headScratch)
}

// head computes one head's O_h into its columns of dst: whole (Tq·Tk
// scores) when Tq is small or the scores are kept, else in blocks of
// sdpaBlockRows query rows.
func (a SDPA) head(dst, q, k, v []float32, w *headScratch, h, dh int, scale float32, tq, tk, width int) {
	c := h * dh
	if a.KeepScores != nil || tq <= sdpaBlockRows {
		w.s = growScores(w.s, tq*tk)
		s := w.s
		// Large products inside a head run serially: the heads already fill the cores.
		sgemm.GemmSerial(false, true, tq, tk, dh, scale, q[c:], width, k[c:], width, 0, s, tk)
		if a.KeepScores != nil {
			a.KeepScores(h, s)
		}
		a.softmaxRows(s, 0, tq, tk)
		sgemm.GemmSerial(false, false, tq, dh, tk, 1, s, tk, v[c:], width, 0, dst[c:], width)
		return
	}
	w.kt.Pack(true, dh, tk, k[c:], width) // K_hᵀ (d_h, Tk)
	w.v.Pack(false, tk, dh, v[c:], width) // V_h (Tk, d_h)
	w.s = growScores(w.s, sdpaBlockRows*tk)
	for r := 0; r < tq; r += sdpaBlockRows {
		rows := min(sdpaBlockRows, tq-r)
		s := w.s[:rows*tk]
		sgemm.GemmPacked(false, rows, scale, q[r*width+c:], width, &w.kt, 0, s, tk)
		a.softmaxRows(s, r, rows, tk)
		sgemm.GemmPacked(false, rows, 1, s, tk, &w.v, 0, dst[r*width+c:], width)
	}
}

// softmaxRows normalizes rows score rows of Tk, the first being query
// row first, with the causal mask when a says so.
func (a SDPA) softmaxRows(s []float32, first, rows, tk int) {
	for i := range rows {
		row := s[i*tk : (i+1)*tk]
		n := tk
		if a.Causal {
			n = min(tk, a.Offset+first+i+1)
			clear(row[n:])
		}
		SoftmaxInPlace(row[:n])
	}
}

// growScores returns s resized to n, reusing its array when large enough.
func growScores(s []float32, n int) []float32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float32, n)
}

// SoftmaxInPlace replaces x with softmax(x) = exp(x − max)/Σ exp(x − max),
// with a fast float32 exponential (Exp32: relative error below 2e-7). With
// AVX2 and FMA the three passes (max, exponentials and their sum, scale)
// run eight lanes at a time in assembly (softmax_amd64.s), computing the
// same exponential; only the order of the sum differs.
func SoftmaxInPlace(x []float32) {
	if len(x) == 0 {
		return
	}
	done, m := maxFast(x)
	if done == 0 {
		m = x[0]
	}
	for _, v := range x[done:] {
		if v > m {
			m = v
		}
	}
	inv := 1 / ExpSubSum(x, m)
	done = scaleFast(x, inv)
	for i := range x[done:] {
		x[done+i] *= inv
	}
}
