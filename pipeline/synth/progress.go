package synth

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progress prints a line every interval and one per failure.
type progress struct {
	mu                   sync.Mutex
	w                    io.Writer
	total                int
	done, reused, failed int
	seconds              float64
	start, last          time.Time
	every                time.Duration
}

func newProgress(w io.Writer, total int, every time.Duration) *progress {
	if every <= 0 {
		every = 10 * time.Second
	}
	now := time.Now()
	return &progress{w: w, total: total, start: now, last: now, every: every}
}

func (p *progress) add(r result, source string) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	switch {
	case r.ok && r.reused:
		p.reused++
	case r.ok:
		p.seconds += r.seconds
	case r.err != nil:
		p.failed++
		fmt.Fprintf(p.w, "synth: %s: %v\n", source, r.err)
	}
	if now := time.Now(); now.Sub(p.last) >= p.every || p.done == p.total {
		p.last = now
		rendered := p.done - p.reused - p.failed
		el := now.Sub(p.start).Seconds()
		fmt.Fprintf(p.w, "synth: %d/%d clips (%d rendered, %d reused, %d failed), %.2f h new audio, %.1f clips/s\n",
			p.done, p.total, rendered, p.reused, p.failed, p.seconds/3600, float64(rendered)/max(el, 1e-9))
	}
}
