package sgemm

// sgemmScratch holds one goroutine's packing buffers. They are kept on a
// free list rather than in a sync.Pool: a training step allocates enough to
// run the garbage collector often, which empties pools, and reallocating
// megabyte buffers after every collection would cost more than it saves.
type sgemmScratch struct {
	a    []float32                  // packed block of A, MC×KC
	b    []float32                  // packed block of B, KC×NC at most, grown to need
	edge []float32                  // the last, partial panel of B read in place, KC×NR
	tile [sgemmMR * sgemmNR]float32 // an edge tile of C
	x, y []float32                  // GEMV operands, grown to need

	ab, bb []uint32                 // packed blocks of A and B in bfloat16 pairs (bf16.go)
	tileBF [bf16MR * bf16NR]float32 // an edge tile of C of the bf16 kernel
}

// sgemmScratchFree is the free list; a buffer beyond its capacity (more
// products running at once than ever before) is left to the collector.
var sgemmScratchFree = make(chan *sgemmScratch, 64)

func getScratch() *sgemmScratch {
	select {
	case s := <-sgemmScratchFree:
		return s
	default:
		return &sgemmScratch{
			a:    make([]float32, sgemmMC*sgemmKC),
			edge: make([]float32, sgemmKC*sgemmNR),
		}
	}
}

func putScratch(s *sgemmScratch) {
	select {
	case sgemmScratchFree <- s:
	default:
	}
}
