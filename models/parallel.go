package models

import (
	"runtime"
	"sync"
)

// ParallelFor runs body over [0, n) split into at most GOMAXPROCS contiguous
// ranges, one goroutine each, and waits for all of them. Work below minPerTask
// items per range stays on the calling goroutine: spawning costs about a
// microsecond, so tiny loops are faster serial.
func ParallelFor(n, minPerTask int, body func(lo, hi int)) {
	if n <= 0 {
		return
	}
	if minPerTask < 1 {
		minPerTask = 1
	}
	workers := runtime.GOMAXPROCS(0)
	if m := n / minPerTask; m < workers {
		workers = m
	}
	if workers <= 1 {
		body(0, n)
		return
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := chunk; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(lo, hi)
		}()
	}
	body(0, min(chunk, n))
	wg.Wait()
}
