package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"sync"
	"time"
)

// job is one input handed to a worker; i indexes runner.todo.
type job struct {
	i  int
	in Input
}

// outcome is what became of a job.
type outcome struct {
	i         int
	line      []byte // the encoded record; nil when abandoned
	failure   *Failure
	path      string   // the input's
	warnings  []string // of an input done (Result.Warnings)
	abandoned bool
}

// startedLayout formats Record.Started.
const startedLayout = "2006-01-02T15:04:05.000Z07:00"

// run feeds the todo inputs to one goroutine per Processor and writes
// their records from this goroutine, in input order or as they finish.
// At most window inputs are between dispatch and write, which bounds the
// memory held by finished results waiting for their turn.
func (r *runner) run(ctx context.Context, procs []Processor) error {
	o := &r.opts
	stopCtx, stop := context.WithCancel(ctx) // no new inputs
	defer stop()
	procCtx, abort := context.WithCancel(o.Abort) // abandon those in flight
	defer abort()

	window := make(chan struct{}, 4*len(procs)+4)
	jobs := make(chan job)
	results := make(chan outcome, len(procs))
	dispatched := 0
	go func() {
		defer close(jobs)
		for i, in := range r.todo {
			select {
			case window <- struct{}{}:
			case <-stopCtx.Done():
				return
			}
			if stopCtx.Err() != nil {
				return
			}
			select {
			case jobs <- job{i, in}:
				dispatched++
			case <-stopCtx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(func() {
			for j := range jobs {
				results <- r.process(procCtx, p, j)
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	bar := newProgress(o.Stderr, len(r.todo), o.Name, !o.Quiet && isTerminal(o.Stderr))
	var fatal error
	emit := func(oc outcome) {
		<-window
		switch {
		case oc.abandoned, fatal != nil: // nothing written
			r.sum.Abandoned++
			return
		}
		if r.out != nil {
			if err := r.out.write(oc.line); err != nil {
				fatal = err
				stop()
				abort()
				return
			}
		}
		bar.add()
		if oc.failure == nil {
			r.sum.Done++
			for _, w := range oc.warnings {
				r.sum.Warnings = append(r.sum.Warnings, Failure{Path: oc.path, Reason: w})
			}
			return
		}
		r.sum.Failed++
		r.sum.Failures = append(r.sum.Failures, *oc.failure)
		if o.FailFast {
			stop()
			abort()
		}
	}
	pending := map[int]outcome{} // Ordered: finished, waiting for earlier ones
	next := 0
	interrupted := ctx.Done()
	for results != nil {
		select {
		case oc, ok := <-results:
			if !ok {
				results = nil
				break
			}
			if !o.Ordered {
				emit(oc)
				break
			}
			pending[oc.i] = oc
			for {
				oc, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				emit(oc)
				next++
			}
		case <-interrupted:
			interrupted = nil
			bar.clear()
			fmt.Fprintf(o.Stderr, "%s: interrupted: no new inputs; finishing those in flight%s\n", o.Name, r.abortHint)
		}
	}
	// Stopped early: write what finished after a gap, still in order.
	for _, i := range slices.Sorted(maps.Keys(pending)) {
		emit(pending[i])
	}
	bar.finish()
	r.sum.NotStarted = len(r.todo) - dispatched
	r.sum.Interrupted = ctx.Err() != nil && r.sum.Abandoned+r.sum.NotStarted > 0
	return fatal
}

// process runs one input through p and encodes its record.
func (r *runner) process(ctx context.Context, p Processor, j job) outcome {
	in := j.in
	start := time.Now()
	rec := Record{Path: in.Path, Model: r.opts.Model, Started: start.UTC().Format(startedLayout)}
	err := in.Err
	if err == nil {
		var res Result
		res, err = r.call(ctx, p, in)
		rec.Seconds = time.Since(start).Round(time.Microsecond).Seconds()
		switch {
		case err != nil && ctx.Err() != nil:
			return outcome{i: j.i, abandoned: true}
		case err == nil:
			err = r.finish(j.i, &rec, &res)
		}
	}
	oc := outcome{i: j.i, path: in.Path, warnings: rec.Warnings}
	if err != nil {
		rec.Text, rec.Result, rec.Error, rec.Truncated, rec.Warnings = "", nil, err.Error(), false, nil
		oc.failure = &Failure{Path: in.Path, Reason: rec.Error}
	}
	line, encErr := r.codec.encode(nil, &rec)
	if encErr != nil { // a Record of strings and a float always encodes
		panic(fmt.Sprintf("batch: encoding the record of %s: %v", in.Path, encErr))
	}
	oc.line = line
	return oc
}

// finish fills a successful record and writes the sidecar.
func (r *runner) finish(i int, rec *Record, res *Result) error {
	rec.Text, rec.Truncated, rec.Warnings = res.Text, res.Truncated, res.Warnings
	if res.Value != nil && r.opts.Format == FormatJSONL {
		v, err := json.Marshal(res.Value)
		if err != nil {
			return fmt.Errorf("batch: %s: encoding the result: %w", rec.Path, err)
		}
		rec.Result = v
	}
	if r.sidecar[i] != "" {
		if err := r.writeSidecar(i, res); err != nil {
			return fmt.Errorf("batch: %s: writing %s: %w", rec.Path, r.sidecar[i], err)
		}
	}
	return nil
}

// call runs p, turning a panic into an error (with the stack on Stderr):
// one bad input must not end a long batch.
func (r *runner) call(ctx context.Context, p Processor, in Input) (res Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%s: internal error: panic: %v", in.Path, v)
			r.stderrMu.Lock()
			fmt.Fprintf(r.opts.Stderr, "%s: %v\n%s\n", r.opts.Name, err, debug.Stack())
			r.stderrMu.Unlock()
		}
	}()
	return p(ctx, in)
}
