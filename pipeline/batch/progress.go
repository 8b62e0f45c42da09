package batch

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress is the progress bar on stderr: inputs done of the total, the
// rate and the time left. A nil *progress draws nothing.
type progress struct {
	bar *progressbar.ProgressBar
}

// newProgress returns a bar on w, or nil when show is false.
func newProgress(w io.Writer, total int, name string, show bool) *progress {
	if !show || total == 0 {
		return nil
	}
	return &progress{bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(name),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("files"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionClearOnFinish(),
	)}
}

func (p *progress) add() {
	if p != nil {
		p.bar.Add(1)
	}
}

// clear removes the bar from the line, before another message; the next
// add draws it again.
func (p *progress) clear() {
	if p != nil {
		p.bar.Clear()
	}
}

func (p *progress) finish() {
	if p != nil {
		p.bar.Exit()
	}
}

// isTerminal reports whether w is a terminal, or says it is one with an
// IsTerminal() bool method (as tests do); the bar is drawn only there.
func isTerminal(w io.Writer) bool {
	if t, ok := w.(interface{ IsTerminal() bool }); ok {
		return t.IsTerminal()
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// printSummary writes the warnings and failures, one per line, then the
// summary line.
func printSummary(w io.Writer, name string, s *Summary, quiet bool) {
	for _, f := range s.Warnings {
		fmt.Fprintf(w, "%s: warning: %s\n", name, f)
	}
	for _, f := range s.Failures {
		fmt.Fprintf(w, "%s: failed: %s\n", name, f)
	}
	if quiet {
		return
	}
	fmt.Fprintf(w, "%s: %s\n", name, s)
}
