package models

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"gorgonia.org/tensor"
)

// Summing the gradient over data-parallel ranks while the backward pass
// runs: bucketed allreduce, as PyTorch's DistributedDataParallel does
// (Li et al. 2020, "PyTorch Distributed: Experiences on Accelerating Data
// Parallel Training", §3.2.3).
//
// A data-parallel step ends with every rank's gradient summed over the
// ranks. Summed as one buffer after the backward pass, the whole transfer
// waits for the whole pass. A GradStream cuts the gradient into buckets of
// about BucketBytes, parameters in the order the backward pass finishes
// them (in the first run, reverse creation order; after it, the order
// rank 0's first run saw, broadcast to every rank, as DDP rebuilds its
// buckets after its first iteration), and starts a bucket's sum
// (Reducer.IallreduceSum, non-blocking) as soon as the gradient of every
// parameter in it is final in every replica of the step (ready.go says
// where in the tape that is). The sums then run while the rest of the
// backward pass computes; the step waits only for what is left when the
// tape ends.
//
// The sums are the ones of one flat allreduce, bit for bit over two
// ranks: each element is its ranks' local gradients added once, a + b;
// each rank's local gradient is its replicas' added in replica order
// onto the Params' Grad, as Replicas.Run adds them. Over more ranks the
// library's algorithm, which may depend on the length, orders the
// additions. Every rank must cut the same buckets and start them in the
// same order (MPI matches collectives by order): the cut depends only on
// the Params and BucketBytes, and bucket k starts only after bucket k−1.
//
// Open MPI advances a non-blocking collective only inside MPI calls: the
// ops that report finished gradients also call Reducer.TestAll (at most
// every progressEvery), so the tape's own goroutine drives the transfer
// between kernels, and no core is spent on a progress thread.

// A Reducer sums float32 buffers over the ranks of a data-parallel run
// without blocking (internal/mpi's Comm is one).
type Reducer interface {
	// IallreduceSum starts replacing x by its element-wise sum over the
	// ranks; x is the Reducer's until TestAll reports true or WaitAll
	// returns.
	IallreduceSum(x []float32) error
	// TestAll advances the sums started and reports whether all are done.
	TestAll() (bool, error)
	// WaitAll returns when every sum started is done.
	WaitAll() error
	// Bcast64 copies root's x into every rank's x.
	Bcast64(x []float64, root int) error
}

// progressEvery spaces the TestAll calls of a stream's ops.
const progressEvery = time.Millisecond

// GradStream sums a step's gradient over the ranks bucket by bucket
// during the backward pass (Replicas.SetStream).
type GradStream struct {
	ps      *Params
	red     Reducer
	flat    []float32 // every gradient, bucket after bucket
	off     []int     // per parameter (creation order): its offset in flat
	bucket  []int     // per parameter: its bucket
	buckets []gradBucket
	bytes   int   // the bucket size asked for
	learned bool  // the layout follows the first run's order
	order   []int // the parameters in the order the first run finished them

	mu       sync.Mutex
	graphs   []*gradPoints // the current run's, in replica order
	left     []int         // per parameter: replicas whose gradient is not yet final
	started  int           // buckets started, in order
	err      error         // the first Reducer error of the run
	lastTest time.Time

	stats StreamStats
}

// gradBucket is a contiguous part of the flat buffer.
type gradBucket struct {
	lo, hi int // flat[lo:hi]
	params int // parameters in it
	left   int // of those, not yet final in this run
}

// StreamStats are a stream's timings, summed over its runs.
type StreamStats struct {
	Runs int
	// Wait is the time from the end of the backward pass (every replica's
	// tape done) to every bucket's sum done and in the Params' Grad: the
	// communication the backward pass did not hide.
	Wait time.Duration
	// Buckets is the number of buckets of a step; Early counts those
	// started before the end of the backward pass, over all runs.
	Buckets, Early int
}

// ErrStreamDtype reports a GradStream over a float64 store.
var ErrStreamDtype = errors.New("models: a gradient stream needs float32 parameters")

// NewGradStream cuts ps's gradient into buckets of at least bucketBytes
// (the last parameter that a bucket takes may make it larger;
// bucketBytes ≤ 0 puts everything into one bucket), to be summed by red.
func NewGradStream(ps *Params, red Reducer, bucketBytes int) (*GradStream, error) {
	if ps.Dtype() != tensor.Float32 {
		return nil, ErrStreamDtype
	}
	all := ps.All()
	s := &GradStream{ps: ps, red: red, bytes: bucketBytes, left: make([]int, len(all))}
	order := make([]int, len(all))
	for i := range order {
		order[i] = len(all) - 1 - i
	}
	s.layout(order)
	return s, nil
}

// layout cuts the buckets over the parameters in order.
func (s *GradStream) layout(order []int) {
	all := s.ps.All()
	s.off, s.bucket, s.buckets = make([]int, len(all)), make([]int, len(all)), nil
	at := 0
	for _, i := range order {
		if len(s.buckets) == 0 || s.bytes > 0 && 4*(at-s.buckets[len(s.buckets)-1].lo) >= s.bytes {
			s.buckets = append(s.buckets, gradBucket{lo: at, hi: at})
		}
		b := &s.buckets[len(s.buckets)-1]
		s.off[i], s.bucket[i] = at, len(s.buckets)-1
		at += all[i].Size()
		b.hi, b.params = at, b.params+1
	}
	s.flat = s.flat[:0]
	s.flat = append(s.flat, make([]float32, at)...)
	s.stats.Buckets = len(s.buckets)
}

// relearn lays the buckets out again in the order in which this rank's
// first run finished the parameters, as rank 0 saw it (every rank must cut
// the same buckets): DDP rebuilds its buckets so after its first
// iteration. Hold mu; no sum may be in flight.
func (s *GradStream) relearn() error {
	order := make([]float64, len(s.off))
	for i, p := range s.order {
		order[i] = float64(p)
	}
	if err := s.red.Bcast64(order, 0); err != nil {
		return err
	}
	seen := make([]bool, len(s.off))
	ps := make([]int, len(order))
	for i, v := range order {
		p := int(v)
		if p < 0 || p >= len(seen) || seen[p] {
			return fmt.Errorf("models: gradient stream: rank 0's order names parameter %v twice or not at all", v)
		}
		seen[p], ps[i] = true, p
	}
	s.layout(ps)
	s.learned = true
	return nil
}

// Buckets returns the number of buckets and the size of the largest in
// bytes.
func (s *GradStream) Buckets() (n, largest int) {
	for _, b := range s.buckets {
		largest = max(largest, 4*(b.hi-b.lo))
	}
	return len(s.buckets), largest
}

// Stats returns the stream's timings so far.
func (s *GradStream) Stats() StreamStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// begin prepares a run of graphs (replica order). Parameters no graph
// differentiates are final at once: their gradient is the Params' Grad.
func (s *GradStream) begin(graphs []*gradPoints) error {
	if n := len(s.ps.All()); len(s.off) != n {
		return fmt.Errorf("models: gradient stream over %d parameters, the Params have %d", len(s.off), n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.graphs, s.started, s.err = graphs, 0, nil
	for i := range s.buckets {
		s.buckets[i].left = s.buckets[i].params
	}
	for r, g := range graphs {
		g.stream, g.replica = s, r
	}
	for p := range s.left {
		s.left[p] = 0
		for _, g := range graphs {
			if g.used[p] {
				s.left[p]++
			}
		}
		if s.left[p] == 0 {
			s.final(p)
		}
	}
	s.startReady()
	return nil
}

// ready is told by graph g that params (binding indices, which are
// creation indices) are final in it.
func (s *GradStream) ready(g *gradPoints, params []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range params {
		if s.left[p]--; s.left[p] == 0 {
			s.final(p)
		}
	}
	if len(params) > 0 {
		s.startReady()
	}
	if s.started > 0 && s.err == nil && time.Since(s.lastTest) >= progressEvery {
		_, s.err = s.red.TestAll()
		s.lastTest = time.Now()
	}
}

// final writes parameter p's local gradient into its place in the flat
// buffer, the replicas' added in order onto the Params' Grad (as
// Binding.CollectGrads would), and counts it in its bucket. Hold mu.
func (s *GradStream) final(p int) {
	param := s.ps.All()[p]
	dst := s.flat[s.off[p] : s.off[p]+param.Size()]
	copy(dst, param.Grad.Data().([]float32))
	for _, g := range s.graphs {
		if !g.used[p] {
			continue
		}
		gv, err := g.binding.nodes[p].Grad()
		if err != nil {
			continue
		}
		addInto(dst, gv.Data().([]float32))
	}
	s.buckets[s.bucket[p]].left--
	if !s.learned {
		s.order = append(s.order, p)
	}
}

// startReady starts, in order, the buckets whose parameters are all
// final. Hold mu.
func (s *GradStream) startReady() {
	for s.err == nil && s.started < len(s.buckets) && s.buckets[s.started].left == 0 {
		b := s.buckets[s.started]
		s.err = s.red.IallreduceSum(s.flat[b.lo:b.hi])
		s.started++
	}
}

// abandon ends a failed run: its sums may still be in flight (a failed
// step ends the job).
func (s *GradStream) abandon() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range s.graphs {
		g.stream = nil
	}
}

// finish ends a run whose tapes are all done: it reports the parameters
// final only now, waits for every bucket's sum and writes the sums into
// the Params' Grad.
func (s *GradStream) finish() error {
	start := time.Now()
	s.mu.Lock()
	s.stats.Early += s.started
	s.mu.Unlock()
	for _, g := range s.graphs {
		s.ready(g, g.atEnd)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range s.graphs {
		g.stream = nil
	}
	if s.err != nil {
		return fmt.Errorf("models: summing gradients: %w", s.err)
	}
	if s.started != len(s.buckets) {
		return fmt.Errorf("models: gradient stream: %d of %d buckets final after the backward pass", s.started, len(s.buckets))
	}
	if err := s.red.WaitAll(); err != nil {
		return fmt.Errorf("models: summing gradients: %w", err)
	}
	for p, param := range s.ps.All() {
		copy(param.Grad.Data().([]float32), s.flat[s.off[p]:])
	}
	s.stats.Runs++
	s.stats.Wait += time.Since(start)
	if !s.learned {
		return s.relearn()
	}
	return nil
}
