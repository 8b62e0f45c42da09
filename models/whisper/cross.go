package whisper

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/internal/sgemm"
)

// crossKV holds the cross-attention's keys and values of one window's
// audio X (frames, n) for every decoder layer l, computed once and read at
// every decoding step, as openai/whisper's kv_cache holds them after the
// first step and whisper.cpp computes them with the encoder:
//
//	Kᵀ_l = W_k,l·Xᵀ            (n, frames)   the key projection has no bias
//	V_l  = X·W_v,lᵀ + b_v,l    (frames, n)
//
// in float32: 18 MB for tiny's 4 layers, 37 MB for base, 0.5 GB for
// large's 32 (whisper.cpp keeps them in half precision, half the memory,
// which moves the logits past the parity tests' 1e-3). The keys are kept
// transposed so that each head's scores are a product streaming over its
// d_h rows of Kᵀ, and each head's output a product with its d_h columns of
// V. A decoding step reads a layer's 2·frames·n values once for all its
// sequences (beam search's five: forwardBatch) and does 2·frames·n
// multiply-adds per sequence. (Keeping no values, the attention weights
// can go forward through the audio before the value projection, P_h·X·W_v,hᵀ,
// which reads X, shared by every layer, instead of V_l, but costs heads
// times the multiply-adds: five sequences' step then took longer than
// reading the values.)
//
// The memory lies outside the Go heap (allocTemp): it adds nothing to the
// collector's heap goal and goes back to the system on
// AudioFeatures.Release, or once neither the features nor a decoder
// holds it.
type crossKV struct {
	kt, v   [][]float32 // per decoder layer: Kᵀ (n, frames), V (frames, n)
	frames  int
	model   *Model // the model whose weights made it
	release func()
}

// newCrossKV computes the keys and values of audio for every decoder
// layer of m.
func newCrossKV(m *Model, audio *AudioFeatures) *crossKV {
	frames, n, layers := audio.Frames, m.dims.NTextState, len(m.decBlocks)
	buf, free := allocTemp(2 * layers * frames * n)
	kv := &crossKV{kt: make([][]float32, layers), v: make([][]float32, layers), frames: frames, model: m}
	var once sync.Once
	kv.release = func() { once.Do(free) }
	runtime.AddCleanup(kv, func(release func()) { release() }, kv.release)
	x := audio.Data[:frames*n]
	var s scratch
	for l := range m.decBlocks {
		b := &m.decBlocks[l]
		kt, v := buf[2*l*frames*n:][:frames*n], buf[(2*l+1)*frames*n:][:frames*n]
		var wk []float32 // W_k (n, n) in float32: Kᵀ = W_k·Xᵀ in one product, exact as linear.forward's
		wk, s.w = b.cross.key.w.float32s(s.w)
		sgemm.Gemm(false, true, n, frames, n, 1, wk, n, x, n, 0, kt, frames)
		runtime.KeepAlive(b)
		b.cross.value.forward(v, x, frames, &s)
		kv.kt[l], kv.v[l] = kt, v
	}
	return kv
}

// crossKVFor returns the keys and values of audio for m: those Encode
// made with it, or new ones (features made elsewhere, such as a test's
// reference encoder output).
func (m *Model) crossKVFor(audio *AudioFeatures) *crossKV {
	if kv := audio.kv; kv != nil && kv.model == m && kv.frames == audio.Frames {
		return kv
	}
	return newCrossKV(m, audio)
}

// crossRows is how many query rows the cross-attention takes at a time:
// a step's one row, a prompt's few, a timing pass's hundreds in blocks
// whose scores (heads·16 rows of 1,500) stay small.
const crossRows = 16

// crossScratch holds the cross-attention's scores for up to crossRows
// query rows of one head (rows, frames).
type crossScratch struct {
	s []float32
}

// crossAttend writes the cross-attention's output before its out
// projection, o (t, n), for the queries q (t, n) of decoder layer l, with
// the keys and values in kv: for each head h (columns c…c+d_h),
//
//	S_h = s·Q_h·Kᵀ_h     P_h = softmax(S_h)     O_h = P_h·V_h     s = 1/√d_h
//
// which is openai/whisper's qkv_attention up to the order of the sums.
// keep, when set, receives each head's scores S_h (scaled, before the
// softmax; word timestamps read them) one row at a time, heads in order.
func crossAttend(o, q []float32, t, l int, kv *crossKV, heads int, cs *crossScratch, keep func(h int, row []float32)) {
	kt, v, frames := kv.kt[l], kv.v[l], kv.frames
	n := len(v) / frames
	dh := n / heads
	scale := float32(1 / math.Sqrt(float64(dh)))
	if t <= fewRows {
		// One row at a time (a step, or several sequences' steps): the
		// products stream over Kᵀ_h and V_h in place (384 KB each for
		// tiny), and each row's result is the same whether it comes
		// alone or with others. The heads are independent: without a
		// recording, which wants them in order, they are shared among
		// goroutines (parallelHeads), each head's rows computed as on
		// one.
		cs.s = grow(cs.s, heads*t*frames)
		head := func(h int) {
			c := h * dh
			for r := range t {
				s := cs.s[(h*t+r)*frames:][:frames]
				sgemm.GemmSerial(false, false, 1, frames, dh, scale, q[r*n+c:], n, kt[c*frames:], frames, 0, s, frames)
				if keep != nil {
					keep(h, s)
				}
				attention.SoftmaxInPlace(s)
				sgemm.GemmSerial(false, false, 1, dh, frames, 1, s, frames, v[c:], n, 0, o[r*n+c:], n)
			}
		}
		if keep != nil {
			for h := range heads {
				head(h)
			}
			return
		}
		parallelHeads(heads, head)
		return
	}
	for r0 := 0; r0 < t; r0 += crossRows {
		rows := min(crossRows, t-r0)
		cs.s = grow(cs.s, rows*frames)
		for h := range heads {
			c := h * dh
			sgemm.Gemm(false, false, rows, frames, dh, scale, q[r0*n+c:], n, kt[c*frames:], frames, 0, cs.s, frames)
			for r := range rows {
				row := cs.s[r*frames : (r+1)*frames]
				if keep != nil {
					keep(h, row)
				}
				attention.SoftmaxInPlace(row)
			}
			sgemm.Gemm(false, false, rows, dh, frames, 1, cs.s, frames, v[c:], n, 0, o[r0*n+c:], n)
		}
	}
}

// parallelHeads runs head(h) for every h < heads, shared among up to
// GOMAXPROCS goroutines (on the caller alone with one).
func parallelHeads(heads int, head func(h int)) {
	procs := min(heads, runtime.GOMAXPROCS(0))
	if procs < 2 {
		for h := range heads {
			head(h)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	work := func() {
		for h := int(next.Add(1)) - 1; h < heads; h = int(next.Add(1)) - 1 {
			head(h)
		}
	}
	for range procs - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}
