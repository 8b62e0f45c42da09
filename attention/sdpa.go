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
		s := getScores(tq * tk)
		for h := range a.Heads {
			a.head(dst, q, k, v, *s, h, dh, scale, tq, tk, width)
		}
		scorePool.Put(s)
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
			s := getScores(tq * tk)
			for h := range next {
				a.head(dst, q, k, v, *s, h, dh, scale, tq, tk, width)
			}
			scorePool.Put(s)
		}()
	}
	wg.Wait()
}

// scorePool recycles score matrices between calls: a decoding step calls
// Attend twice per layer, and the encoder's 1500×1500 scores are 9 MB.
var scorePool sync.Pool

// getScores returns a score buffer of length n from the pool.
func getScores(n int) *[]float32 {
	if p, ok := scorePool.Get().(*[]float32); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]float32, n)
	return &s
}

// head computes one head's O_h into its columns of dst, using s (Tq·Tk)
// as the score matrix.
func (a SDPA) head(dst, q, k, v, s []float32, h, dh int, scale float32, tq, tk, width int) {
	c := h * dh
	// Large products inside a head run serially: the heads already fill the cores.
	sgemm.GemmSerial(false, true, tq, tk, dh, scale, q[c:], width, k[c:], width, 0, s, tk)
	if a.KeepScores != nil {
		a.KeepScores(h, s)
	}
	for i := range tq {
		row := s[i*tk : (i+1)*tk]
		n := tk
		if a.Causal {
			n = min(tk, a.Offset+i+1)
			clear(row[n:])
		}
		SoftmaxInPlace(row[:n])
	}
	sgemm.GemmSerial(false, false, tq, dh, tk, 1, s, tk, v[c:], width, 0, dst[c:], width)
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
	done, sum := expSubSumFast(x, m)
	for i, v := range x[done:] {
		e := Exp32(v - m)
		x[done+i] = e
		sum += e
	}
	inv := 1 / sum
	done = scaleFast(x, inv)
	for i := range x[done:] {
		x[done+i] *= inv
	}
}
