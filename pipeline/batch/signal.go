package batch

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// ExitInterrupted is the exit status of a command whose batch was
// interrupted (128 + SIGINT, as shells report it).
const ExitInterrupted = 130

// WithSignals returns ctx, cancelled at the first SIGINT or SIGTERM, and
// abort, cancelled at the second. Pass ctx to Run and abort as
// Options.Abort: at the first signal no new input starts and those in
// flight finish and are written; at the second those in flight are
// abandoned (and done again on resume). After the second, the handlers
// are released, so a third signal kills the process the usual way.
// stop releases the handlers early; call it when the batch is over.
func WithSignals(parent context.Context) (ctx, abort context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	abort, cancelAbort := context.WithCancel(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		defer signal.Stop(ch)
		for n := 1; ; n++ {
			select {
			case <-ch:
			case <-done:
				return
			}
			if n == 1 {
				cancel()
				continue
			}
			cancelAbort()
			return
		}
	}()
	var stopped bool
	stop = func() {
		if !stopped {
			stopped = true
			close(done)
			signal.Stop(ch)
		}
		cancel()
		cancelAbort()
	}
	return ctx, abort, stop
}
