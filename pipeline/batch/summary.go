package batch

import (
	"fmt"
	"strings"
	"time"
)

// Summary is the account of a Run.
type Summary struct {
	Inputs     int // inputs given
	Skipped    int // already done by an earlier run (resume)
	Done       int // succeeded, and written
	Failed     int // failed, and written
	Abandoned  int // in flight when aborted: nothing written
	NotStarted int // left when the run stopped early
	Wall       time.Duration
	// Interrupted is set when the run was stopped (its context
	// cancelled) before every input was handled.
	Interrupted bool
	// Failures lists every failed input in the order written.
	Failures []Failure
	// Warnings lists what the inputs done had to say (Result.Warnings),
	// in the order written, as Failures with the warning as Reason.
	Warnings []Failure
}

// Failure is a failed input and why it failed.
type Failure struct {
	Path, Reason string
}

// String returns "path: reason", without repeating the path when the
// reason already starts with it (as the errors of attend's packages do).
func (f Failure) String() string {
	if strings.HasPrefix(f.Reason, f.Path+":") {
		return f.Reason
	}
	return f.Path + ": " + f.Reason
}

// String returns the summary line, e.g. "198 done, 2 failed, 10 skipped
// (already done) in 12.3 s, 16.3 inputs/s".
func (s *Summary) String() string {
	var b strings.Builder
	if s.Interrupted {
		b.WriteString("interrupted: ")
	}
	fmt.Fprintf(&b, "%d done, %d failed", s.Done, s.Failed)
	if s.Skipped > 0 {
		fmt.Fprintf(&b, ", %d skipped (already done)", s.Skipped)
	}
	if s.Abandoned > 0 {
		fmt.Fprintf(&b, ", %d abandoned", s.Abandoned)
	}
	if s.NotStarted > 0 {
		fmt.Fprintf(&b, ", %d not started", s.NotStarted)
	}
	secs := s.Wall.Seconds()
	fmt.Fprintf(&b, " in %.1f s", secs)
	if n := s.Done + s.Failed; n > 0 && secs > 0 {
		fmt.Fprintf(&b, ", %.1f inputs/s", float64(n)/secs)
	}
	if s.Abandoned+s.NotStarted > 0 {
		b.WriteString("; run again with resume to finish")
	}
	return b.String()
}
