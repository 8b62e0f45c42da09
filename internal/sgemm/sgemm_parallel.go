package sgemm

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Threading. A product of at least sgemmParallelFlops floating-point
// operations (2mnk) is cut into chunks of whole rows of C (when m ≥ n) or
// whole columns (when n > m), each an independent product computed with
// its own packing buffers; the caller and up to GOMAXPROCS−1 helper
// goroutines take chunks in turn until none is left. Cutting the larger
// dimension means that the operand each chunk packs again (B for row
// chunks, A for column chunks) is the smaller one. Two chunks per
// goroutine rather than one keep a goroutine that lost its core to another
// process from holding up the product, at the price of one more repacking;
// each chunk is at least sgemmMinChunk rows or columns. For the same
// reason the caller waits for the chunks to be done, not for the helpers
// to return: a helper that was handed the product but not yet scheduled
// finds no chunk left and lets go of it later.
//
// Measured on the 2-core Xeon this was developed on (other cores idle):
// products under about 4 MFLOP (70 µs on one core) ran no faster on two;
// (16×256)·(256×1024), 8.4 MFLOP, 1.2× faster at best but no faster on
// average over back-to-back calls; (32×576)·(576×1024), 38 MFLOP, 1.5–1.6×;
// from 50 MFLOP up 1.7–2×. One chunk per goroutine was 5% faster on
// (256×6400)·(6400×1024), where each column chunk repacks all of A, and 8%
// slower on 256³; three per goroutine no better than two.
const (
	sgemmParallelFlops = 1 << 24 // 16.8 MFLOP: about 250 µs on one core
	sgemmChunksPerProc = 2
	sgemmMinChunk      = 96
)

// run computes the product, split over goroutines when it is large enough.
func (g *gemmArgs) run() {
	procs := runtime.GOMAXPROCS(0)
	splitM, size, chunks := g.split(procs)
	if chunks <= 1 {
		s := getScratch()
		g.serial(s)
		putScratch(s)
		return
	}
	j := getJob()
	j.g, j.splitM, j.size, j.chunks = *g, splitM, size, chunks
	j.next.Store(0)
	j.finished.Store(0)
	helpers := min(procs, chunks) - 1
	startWorkers(helpers)
	j.refs.Store(int64(1 + helpers))
	for range helpers {
		select {
		case sgemmJobs <- j:
		default: // every helper is busy: the caller does the work
			j.release()
		}
	}
	j.work()
	<-j.done
	j.release()
}

// split decides how to cut the product over procs goroutines: by rows or
// columns, the chunk size (a multiple of the tile) and the number of chunks.
func (g *gemmArgs) split(procs int) (splitM bool, size, chunks int) {
	if procs < 2 || 2*g.m*g.n*g.k < sgemmParallelFlops {
		return false, 0, 1
	}
	// A packed B splits its columns only within one NC block of panels.
	splitM = g.m >= g.n || ((g.packed != nil || g.packedBF != nil) && g.packedN > sgemmNC)
	mr, nr := sgemmMR, sgemmNR
	if g.bf16 {
		mr, nr = bf16MR, bf16NR
	}
	dim, unit := g.n, nr
	if splitM {
		dim, unit = g.m, mr
	}
	size = roundUp((dim+procs*sgemmChunksPerProc-1)/(procs*sgemmChunksPerProc), unit)
	size = max(size, roundUp(sgemmMinChunk, unit))
	if size*procs > dim { // too few chunks to keep every goroutine busy
		size = roundUp((dim+procs-1)/procs, unit)
	}
	return splitM, size, (dim + size - 1) / size
}

// part returns chunk [lo, lo+size) of the rows (splitM) or columns of C
// as a product of its own.
func (g *gemmArgs) part(splitM bool, lo, size int) gemmArgs {
	p := *g
	if splitM {
		p.m = min(size, g.m-lo)
		if g.transA {
			p.a = g.a[lo:]
		} else {
			p.a = g.a[lo*g.lda:]
		}
		p.c = g.c[lo*g.ldc:]
		return p
	}
	p.n = min(size, g.n-lo)
	p.c = g.c[lo:]
	if g.packed != nil || g.packedBF != nil {
		p.packedCol = g.packedCol + lo // lo is a multiple of the panel width
		return p
	}
	if g.transB {
		p.b = g.b[lo*g.ldb:]
	} else {
		p.b = g.b[lo:]
	}
	return p
}

// gemmJob is a product being computed by several goroutines.
type gemmJob struct {
	g            gemmArgs
	splitM       bool
	size, chunks int
	next         atomic.Int64  // the next chunk to take
	finished     atomic.Int64  // chunks done
	refs         atomic.Int64  // the caller and the helpers handed the job
	done         chan struct{} // one token when the last chunk is done
}

// work takes chunks until none is left; whoever finishes the last one
// tells the caller.
func (j *gemmJob) work() {
	var s *sgemmScratch
	for {
		i := int(j.next.Add(1)) - 1
		if i >= j.chunks {
			break
		}
		if s == nil {
			s = getScratch()
		}
		p := j.g.part(j.splitM, i*j.size, j.size)
		p.serial(s)
		if int(j.finished.Add(1)) == j.chunks {
			j.done <- struct{}{}
		}
	}
	if s != nil {
		putScratch(s)
	}
}

// release lets go of the job; the last goroutine to do so recycles it.
func (j *gemmJob) release() {
	if j.refs.Add(-1) == 0 {
		putJob(j)
	}
}

// The helper goroutines, started on first need and then parked on
// sgemmJobs; their number only grows, to GOMAXPROCS−1 at its largest.
var (
	sgemmJobs     = make(chan *gemmJob, 256)
	sgemmWorkerMu sync.Mutex
	sgemmWorkerN  int
	sgemmJobFree  = make(chan *gemmJob, 16)
)

func startWorkers(n int) {
	sgemmWorkerMu.Lock()
	defer sgemmWorkerMu.Unlock()
	for ; sgemmWorkerN < n; sgemmWorkerN++ {
		go func() {
			for j := range sgemmJobs {
				j.work()
				j.release()
			}
		}()
	}
}

func getJob() *gemmJob {
	select {
	case j := <-sgemmJobFree:
		return j
	default:
		return &gemmJob{done: make(chan struct{}, 1)}
	}
}

func putJob(j *gemmJob) {
	j.g = gemmArgs{} // drop the references to the caller's matrices
	select {
	case sgemmJobFree <- j:
	default:
	}
}
