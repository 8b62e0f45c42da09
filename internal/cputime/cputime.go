// Package cputime reads the process's CPU time, for benchmarks on shared
// machines: unlike the wall clock (a benchmark's ns/op) it does not grow
// when other processes take the cores, though it counts every goroutine,
// so with GOMAXPROCS > 1 it can exceed the wall time.
package cputime

import "time"

// Process returns the user and system CPU time of the process so far, or
// 0 where it is not measured (systems other than Unix).
func Process() time.Duration { return process() }
