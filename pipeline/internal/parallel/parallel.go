// Package parallel runs the work of a job on several goroutines: the
// utterances of an evaluation, the features of a training set.
package parallel

import (
	"context"
	"sync"
)

// ForEach runs work(i) for every i in [0, n) on workers goroutines, each
// with the work function newWorker made for it (its own transcriber,
// front end or workspace), handing out indices in order until ctx is
// done. It returns newWorker's first error, or ctx's once it is done.
func ForEach(ctx context.Context, n, workers int, newWorker func() (func(i int), error)) error {
	jobs := make(chan int)
	var wg sync.WaitGroup
	defer func() {
		close(jobs)
		wg.Wait()
	}()
	for range max(1, workers) {
		work, err := newWorker()
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				work(i)
			}
		}()
	}
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	return ctx.Err()
}
