package speech

import (
	"fmt"
	"io"
	"strings"

	"github.com/attend-go/attend/pipeline/speechmodel"
)

// BlankAudio is the text of a chunk without speech under
// TextOptions.BlankMarker: whisper.cpp's marker.
const BlankAudio = "[BLANK_AUDIO]"

// TextOptions change what the txt, srt and vtt formats show, for the
// habits whisper.cpp users bring; a nil *TextOptions means neither.
type TextOptions struct {
	// Timestamps writes txt as a line per chunk with speech, its times
	// first, as whisper.cpp prints its segments:
	//
	//	[00:00:01.000 --> 00:00:04.200]  text
	//
	// (each line after the prefix, when there is one).
	Timestamps bool
	// BlankMarker shows a chunk without speech (Chunk.NoSpeech) as
	// BlankAudio over the chunk's span, in txt, srt and vtt, rather than
	// nothing. json has no_speech already.
	BlankMarker bool
}

// NewTranscriptWriterOptions is NewTranscriptWriter with o.
func NewTranscriptWriterOptions(w io.Writer, format, prefix string, o *TextOptions) (*TranscriptWriter, error) {
	tw, err := NewTranscriptWriter(w, format, prefix)
	if err == nil && o != nil {
		tw.opts = *o
	}
	return tw, err
}

// WriteTranscriptOptions is WriteTranscript with o.
func WriteTranscriptOptions(w io.Writer, t *Transcript, format string, o *TextOptions) error {
	tw, err := NewTranscriptWriterOptions(w, format, "", o)
	if err != nil {
		return err
	}
	for _, c := range t.Chunks {
		tw.Chunk(c)
	}
	return tw.Finish(t)
}

// marked returns c as TextOptions.BlankMarker shows it: a chunk without
// speech becomes one word, BlankAudio, over its span.
func (tw *TranscriptWriter) marked(c Chunk) Chunk {
	if tw.opts.BlankMarker && c.NoSpeech {
		c.Text = BlankAudio
		c.Words = []speechmodel.Word{{Word: BlankAudio, Start: c.Start, End: c.End}}
	}
	return c
}

// timedLine writes c as a line of timestamped txt.
func (tw *TranscriptWriter) timedLine(b *strings.Builder, c Chunk) {
	fmt.Fprintf(b, "%s[%s --> %s]  %s\n", tw.prefix, stamp(c.Start, '.'), stamp(c.End, '.'), c.Text)
}
