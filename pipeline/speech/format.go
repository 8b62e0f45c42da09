package speech

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Formats lists the transcript output formats of WriteTranscript.
var Formats = []string{"txt", "json", "srt", "vtt"}

// WriteTranscript writes t in format: "txt" the text and a newline,
// "json" one JSON object (Transcript: text, chunks with words, their
// start and end times and confidences), "srt" and "vtt" subtitle cues of
// at most cueWords words (and 6 s) each.
func WriteTranscript(w io.Writer, t *Transcript, format string) error {
	switch format {
	case "txt":
		_, err := fmt.Fprintln(w, t.Text)
		return err
	case "json":
		return json.NewEncoder(w).Encode(t)
	case "srt", "vtt":
		var b strings.Builder
		if format == "vtt" {
			b.WriteString("WEBVTT\n\n")
		}
		for i, c := range Cues(t) {
			if format == "srt" {
				fmt.Fprintf(&b, "%d\n%s --> %s\n%s\n\n", i+1, stamp(c.Start, ','), stamp(c.End, ','), c.Text)
			} else {
				fmt.Fprintf(&b, "%s --> %s\n%s\n\n", stamp(c.Start, '.'), stamp(c.End, '.'), c.Text)
			}
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	return fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// Cue is one subtitle.
type Cue struct {
	Start, End float64
	Text       string
}

const (
	cueWords   = 10
	cueSeconds = 6.0
)

// Cues groups a transcript's words into subtitles of at most cueWords
// words and cueSeconds, never across chunks.
func Cues(t *Transcript) []Cue {
	var cues []Cue
	for _, c := range t.Chunks {
		var cur []Word
		flush := func() {
			if len(cur) == 0 {
				return
			}
			words := make([]string, len(cur))
			for i, w := range cur {
				words[i] = w.Word
			}
			cues = append(cues, Cue{Start: cur[0].Start, End: cur[len(cur)-1].End, Text: strings.Join(words, " ")})
			cur = cur[:0]
		}
		for _, w := range c.Words {
			if len(cur) == cueWords || (len(cur) > 0 && w.End-cur[0].Start > cueSeconds) {
				flush()
			}
			cur = append(cur, w)
		}
		flush()
	}
	return cues
}

// stamp formats seconds as HH:MM:SS,mmm (SRT) or HH:MM:SS.mmm (WebVTT).
func stamp(sec float64, sep byte) string {
	ms := int64(sec*1000 + 0.5)
	return fmt.Sprintf("%02d:%02d:%02d%c%03d", ms/3600000, ms/60000%60, ms/1000%60, sep, ms%1000)
}
