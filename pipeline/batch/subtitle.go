package batch

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// Cue is a stretch of timed text: a subtitle.
type Cue struct {
	Start, End time.Duration
	Text       string
}

// WriteSRT writes cues as SubRip subtitles: numbered blocks of a time
// range "00:00:01,500 --> 00:00:03,000" and the text, separated by blank
// lines. Cues with no text are left out; an end before the start is
// taken as the start; blank lines inside a text (which would end the
// block) are removed.
func WriteSRT(w io.Writer, cues []Cue) error {
	n := 0
	for _, c := range cues {
		text := cueText(c.Text)
		if text == "" {
			continue
		}
		n++
		if _, err := fmt.Fprintf(w, "%d\n%s --> %s\n%s\n\n", n, clock(c.Start, ','), clock(max(c.End, c.Start), ','), text); err != nil {
			return err
		}
	}
	return nil
}

// WriteVTT writes cues as WebVTT: the "WEBVTT" header, then a block per
// cue with a time range "00:00:01.500 --> 00:00:03.000" and the text,
// in which &, < and > are escaped and "-->" cannot occur (W3C WebVTT,
// section 4.1). Cues are otherwise treated as in WriteSRT.
func WriteVTT(w io.Writer, cues []Cue) error {
	if _, err := io.WriteString(w, "WEBVTT\n\n"); err != nil {
		return err
	}
	for _, c := range cues {
		text := vttEscaper.Replace(cueText(c.Text))
		if text == "" {
			continue
		}
		if _, err := fmt.Fprintf(w, "%s --> %s\n%s\n\n", clock(c.Start, '.'), clock(max(c.End, c.Start), '.'), text); err != nil {
			return err
		}
	}
	return nil
}

var (
	vttEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	blankLines = regexp.MustCompile(`\n[ \t]*(\n[ \t]*)+`)
)

// cueText normalizes line breaks and removes blank lines and the ends'
// white space.
func cueText(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	return strings.TrimSpace(blankLines.ReplaceAllString(s, "\n"))
}

// clock formats d as hh:mm:ss followed by sep and milliseconds; negative
// durations are taken as 0.
func clock(d time.Duration, sep byte) string {
	ms := max(d, 0).Milliseconds()
	return fmt.Sprintf("%02d:%02d:%02d%c%03d", ms/3600000, ms/60000%60, ms/1000%60, sep, ms%1000)
}
