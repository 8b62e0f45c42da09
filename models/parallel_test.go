package models

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
)

// TestParallelFor checks that every index is visited exactly once, in
// ranges of at least minPerTask items (but the last), whatever the
// thread count.
func TestParallelFor(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		for _, c := range [][2]int{{0, 1}, {1, 1}, {7, 1}, {16, 1}, {16, 4}, {17, 4}, {100, 64}, {1000, 3}, {5, 0}} {
			n, grain := c[0], c[1]
			t.Run(fmt.Sprintf("procs%d/n%d/grain%d", procs, n, grain), func(t *testing.T) {
				seen := make([]atomic.Int32, n)
				var calls atomic.Int32
				ParallelFor(n, grain, func(lo, hi int) {
					calls.Add(1)
					if lo >= hi || lo < 0 || hi > n {
						t.Errorf("bad range [%d, %d)", lo, hi)
						return
					}
					if hi-lo < grain && hi != n {
						t.Errorf("range [%d, %d) shorter than %d", lo, hi, grain)
					}
					for i := lo; i < hi; i++ {
						seen[i].Add(1)
					}
				})
				for i := range seen {
					if v := seen[i].Load(); v != 1 {
						t.Fatalf("index %d visited %d times", i, v)
					}
				}
				if n > 0 && calls.Load() > int32(2*procs) {
					t.Errorf("%d ranges for %d goroutines", calls.Load(), procs)
				}
			})
		}
	}
}
