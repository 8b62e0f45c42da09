package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// IsTerminal reports whether w is a terminal: an *os.File on one, or a
// writer that says so itself with an IsTerminal() bool method (how tests
// stand in for a terminal). Progress lines are drawn only on terminals.
func IsTerminal(w io.Writer) bool {
	if t, ok := w.(interface{ IsTerminal() bool }); ok {
		return t.IsTerminal()
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// AudioProgress is the progress line of one recording being
// transcribed, redrawn in place on a terminal with a carriage return (no
// other escape sequence):
//
//	asr: talk.wav  42%  4:12 of 10:00  8.5× real time  0:35 left
//
// Without a declared length (some formats do not say) it shows the audio
// done and the speed. A nil *AudioProgress draws nothing.
type AudioProgress struct {
	w      io.Writer
	label  string // "asr: talk.wav"
	length time.Duration
	done   time.Duration
	start  time.Time
	width  int // of the line drawn, to blank it
	// Now is the clock (time.Now); tests set it.
	Now func() time.Time
}

// NewAudioProgress returns the progress line of the recording name on w,
// or nil (nothing drawn) unless show.
func NewAudioProgress(w io.Writer, tool, name string, show bool) *AudioProgress {
	if !show {
		return nil
	}
	return &AudioProgress{w: w, label: tool + ": " + name, Now: time.Now}
}

// Start begins timing, with the recording's length (0: unknown).
func (p *AudioProgress) Start(length time.Duration) {
	if p != nil {
		p.length, p.start = length, p.Now()
	}
}

// Update records that the audio up to done is transcribed and redraws.
func (p *AudioProgress) Update(done time.Duration) {
	p.Set(done)
	p.Draw()
}

// Set records that the audio up to done is transcribed, without drawing.
func (p *AudioProgress) Set(done time.Duration) {
	if p != nil {
		p.done = done
	}
}

// Draw draws the line again (after Clear).
func (p *AudioProgress) Draw() {
	if p == nil {
		return
	}
	elapsed := p.Now().Sub(p.start)
	line := p.label
	if p.length > 0 {
		pct := min(100, int(100*p.done/p.length))
		line += fmt.Sprintf("  %3d%%  %s of %s", pct, clockOf(p.done), clockOf(p.length))
	} else {
		line += "  " + clockOf(p.done)
	}
	if elapsed > 0 && p.done > 0 {
		speed := p.done.Seconds() / elapsed.Seconds()
		line += fmt.Sprintf("  %.1f× real time", speed)
		if p.length > p.done {
			line += "  " + clockOf(time.Duration(float64(p.length-p.done)/speed)) + " left"
		}
	}
	pad := max(0, p.width-len([]rune(line)))
	fmt.Fprint(p.w, "\r"+line+strings.Repeat(" ", pad))
	p.width = len([]rune(line))
}

// Clear blanks the line, so that other output can start at its
// beginning; Draw or Update draws it again.
func (p *AudioProgress) Clear() {
	if p == nil || p.width == 0 {
		return
	}
	fmt.Fprint(p.w, "\r"+strings.Repeat(" ", p.width)+"\r")
	p.width = 0
}

// clockOf formats d as m:ss, or h:mm:ss from an hour.
func clockOf(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
