package models

import (
	"runtime"
	"sync/atomic"
)

// ParallelFor runs body over [0, n) cut into contiguous ranges of at least
// minPerTask items, on up to GOMAXPROCS goroutines (the caller's and
// helpers), and returns when every range is done. Work below minPerTask
// items per range stays on the calling goroutine: spawning costs about a
// microsecond, so tiny loops are faster serial.
//
// The ranges (two per goroutine) are taken in turn, and the caller waits
// for the ranges to be done, not for the helpers to exit: on a machine
// shared with other processes a helper whose thread is not scheduled for a
// time slice (milliseconds) leaves its ranges to the caller instead of
// holding it up. body may run several times on one goroutine.
func ParallelFor(n, minPerTask int, body func(lo, hi int)) {
	if n <= 0 {
		return
	}
	minPerTask = max(minPerTask, 1)
	workers := min(runtime.GOMAXPROCS(0), n/minPerTask)
	if workers <= 1 {
		body(0, n)
		return
	}
	chunks := min(2*workers, n/minPerTask)
	size := (n + chunks - 1) / chunks
	j := &parallelJob{body: body, n: n, size: size, chunks: (n + size - 1) / size, done: make(chan struct{})}
	for range workers - 1 {
		go j.work()
	}
	j.work()
	<-j.done
}

// parallelJob is one ParallelFor call's ranges.
type parallelJob struct {
	body           func(lo, hi int)
	n, size        int
	chunks         int
	next, finished atomic.Int64
	done           chan struct{} // closed when the last range is done
}

// work takes ranges until none is left.
func (j *parallelJob) work() {
	for {
		i := int(j.next.Add(1)) - 1
		if i >= j.chunks {
			return
		}
		lo := i * j.size
		j.body(lo, min(lo+j.size, j.n))
		if int(j.finished.Add(1)) == j.chunks {
			close(j.done)
		}
	}
}
