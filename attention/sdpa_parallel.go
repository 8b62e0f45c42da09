package attention

import "runtime"

// parallelism is the number of goroutines eager kernels may use.
func parallelism() int { return max(1, runtime.GOMAXPROCS(0)) }
