package vision

import (
	"sync"
	"sync/atomic"
)

// parallel runs independent tasks on up to n goroutines (n ≤ 1: inline,
// on the calling goroutine).
type parallel struct{ n int }

// do calls f(worker, task) for every task in [0, tasks), spread over
// min(n, tasks) goroutines that take tasks in order from a shared counter.
// worker ∈ [0, n) identifies the goroutine, for per-goroutine scratch.
func (p parallel) do(tasks int, f func(worker, task int)) {
	if p.n <= 1 || tasks <= 1 {
		for t := 0; t < tasks; t++ {
			f(0, t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range min(p.n, tasks) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				t := int(next.Add(1) - 1)
				if t >= tasks {
					return
				}
				f(w, t)
			}
		}()
	}
	wg.Wait()
}
