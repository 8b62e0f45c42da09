package speech

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/attend-go/attend/pipeline/speechmodel"
)

// Formats lists the transcript output formats of WriteTranscript.
var Formats = []string{"txt", "json", "srt", "vtt"}

// WriteTranscript writes t in format: "txt" the text and a newline,
// "json" one JSON object (Transcript: text, chunks with words, their
// start and end times and confidences), "srt" and "vtt" subtitle cues of
// at most cueWords words (and 6 s) each.
func WriteTranscript(w io.Writer, t *Transcript, format string) error {
	tw, err := NewTranscriptWriter(w, format, "")
	if err != nil {
		return err
	}
	for _, c := range t.Chunks {
		tw.Chunk(c)
	}
	return tw.Finish(t)
}

// A TranscriptWriter writes a transcript in one of the Formats as its
// chunks are decoded (TranscribeOptions.OnChunk), so that the text and
// subtitles of a long recording appear while it is transcribed: txt
// prints each chunk's text as it comes and ends the line at Finish; srt
// and vtt print each chunk's cues; json, one object per file, is written
// whole at Finish. The bytes are those of WriteTranscript.
type TranscriptWriter struct {
	w       io.Writer
	format  string
	prefix  string // of the txt line
	started bool   // something was written
	cues    int    // numbered so far (srt)
	prevEnd float64
	err     error
	opts    TextOptions
}

// NewTranscriptWriter returns a writer of one transcript in format; a
// txt line starts with prefix (as "PATH\t" when there are several files).
func NewTranscriptWriter(w io.Writer, format, prefix string) (*TranscriptWriter, error) {
	switch format {
	case "txt", "json", "srt", "vtt":
		return &TranscriptWriter{w: w, format: format, prefix: prefix}, nil
	}
	return nil, fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// Chunk writes what the format shows of c, the next chunk. A chunk
// without speech shows nothing. Errors are kept for Finish.
func (tw *TranscriptWriter) Chunk(c Chunk) {
	if tw.err != nil {
		return
	}
	c = tw.marked(c)
	var b strings.Builder
	switch tw.format {
	case "txt":
		if c.Text == "" {
			return
		}
		if tw.opts.Timestamps {
			tw.timedLine(&b, c)
			break
		}
		if !tw.started {
			b.WriteString(tw.prefix)
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(c.Text)
	case "srt", "vtt":
		tw.header(&b)
		for _, cue := range chunkCues(c, &tw.prevEnd) {
			tw.cues++
			if tw.format == "srt" {
				fmt.Fprintf(&b, "%d\n%s --> %s\n%s\n\n", tw.cues, stamp(cue.Start, ','), stamp(cue.End, ','), cue.Text)
			} else {
				fmt.Fprintf(&b, "%s --> %s\n%s\n\n", stamp(cue.Start, '.'), stamp(cue.End, '.'), cue.Text)
			}
		}
	default:
		return
	}
	tw.write(b.String())
}

// header starts a WebVTT file.
func (tw *TranscriptWriter) header(b *strings.Builder) {
	if !tw.started && tw.format == "vtt" {
		b.WriteString("WEBVTT\n\n")
	}
}

func (tw *TranscriptWriter) write(s string) {
	if s == "" || tw.err != nil {
		return
	}
	tw.started = true
	_, tw.err = io.WriteString(tw.w, s)
}

// Finish ends the transcript t, whose chunks were written: the end of
// the txt line, the JSON object, the WebVTT header of a file without
// cues.
func (tw *TranscriptWriter) Finish(t *Transcript) error {
	if tw.err != nil {
		return tw.err
	}
	switch tw.format {
	case "txt":
		if tw.opts.Timestamps {
			break // each line ended with its chunk
		}
		if !tw.started {
			tw.write(tw.prefix)
		}
		tw.write("\n")
	case "json":
		tw.err = json.NewEncoder(tw.w).Encode(t)
	case "vtt":
		var b strings.Builder
		tw.header(&b)
		tw.write(b.String())
	}
	return tw.err
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
// words and cueSeconds, never across chunks, and never overlapping: a
// cue ends by its chunk's end and starts after the cue before it.
func Cues(t *Transcript) []Cue {
	var cues []Cue
	prevEnd := 0.0
	for _, c := range t.Chunks {
		cues = append(cues, chunkCues(c, &prevEnd)...)
	}
	return cues
}

// chunkCues returns the cues of one chunk, starting at or after
// *prevEnd, the end of the cue before them, which it advances.
func chunkCues(c Chunk, prevEnd *float64) []Cue {
	var cues []Cue
	var cur []speechmodel.Word
	flush := func() {
		if len(cur) == 0 {
			return
		}
		words := make([]string, len(cur))
		for i, w := range cur {
			words[i] = w.Word
		}
		cue := Cue{Start: max(cur[0].Start, *prevEnd), End: cur[len(cur)-1].End, Text: strings.Join(words, " ")}
		if c.End > cue.Start {
			cue.End = min(cue.End, c.End)
		}
		cue.End = max(cue.End, cue.Start)
		*prevEnd = cue.End
		cues = append(cues, cue)
		cur = cur[:0]
	}
	for _, w := range c.Words {
		if len(cur) == cueWords || (len(cur) > 0 && w.End-cur[0].Start > cueSeconds) {
			flush()
		}
		cur = append(cur, w)
	}
	flush()
	return cues
}

// stamp formats seconds as HH:MM:SS,mmm (SRT) or HH:MM:SS.mmm (WebVTT).
func stamp(sec float64, sep byte) string {
	ms := int64(sec*1000 + 0.5)
	return fmt.Sprintf("%02d:%02d:%02d%c%03d", ms/3600000, ms/60000%60, ms/1000%60, sep, ms%1000)
}
