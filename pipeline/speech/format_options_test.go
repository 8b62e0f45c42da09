package speech

import (
	"bytes"
	"testing"

	"github.com/attend-go/attend/pipeline/speechmodel"
)

func TestTextOptions(t *testing.T) {
	tr := &Transcript{Chunks: []Chunk{
		{Start: 0, End: 1, NoSpeech: true},
		{Start: 1, End: 4.2, Text: "hello world", Words: []speechmodel.Word{{Word: "hello", Start: 1.1, End: 1.6}, {Word: "world", Start: 1.7, End: 2.3}}},
		{Start: 4.2, End: 65.5, Text: "again", Words: []speechmodel.Word{{Word: "again", Start: 5, End: 5.5}}},
	}}
	for _, tc := range []struct {
		name, format string
		o            *TextOptions
		want         string
	}{
		{"plain txt", "txt", nil, "hello world again\n"},
		{"timestamps", "txt", &TextOptions{Timestamps: true},
			"[00:00:01.000 --> 00:00:04.200]  hello world\n[00:00:04.200 --> 00:01:05.500]  again\n"},
		{"timestamps and blank", "txt", &TextOptions{Timestamps: true, BlankMarker: true},
			"[00:00:00.000 --> 00:00:01.000]  [BLANK_AUDIO]\n[00:00:01.000 --> 00:00:04.200]  hello world\n[00:00:04.200 --> 00:01:05.500]  again\n"},
		{"blank txt", "txt", &TextOptions{BlankMarker: true}, "[BLANK_AUDIO] hello world again\n"},
		{"blank srt", "srt", &TextOptions{BlankMarker: true},
			"1\n00:00:00,000 --> 00:00:01,000\n[BLANK_AUDIO]\n\n2\n00:00:01,100 --> 00:00:02,300\nhello world\n\n3\n00:00:05,000 --> 00:00:05,500\nagain\n\n"},
		{"blank vtt", "vtt", &TextOptions{BlankMarker: true},
			"WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n[BLANK_AUDIO]\n\n00:00:01.100 --> 00:00:02.300\nhello world\n\n00:00:05.000 --> 00:00:05.500\nagain\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteTranscriptOptions(&b, tr, tc.format, tc.o); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tc.want)
			}
		})
	}
	// A file without speech, timestamped: no line at all; with the marker,
	// the marker's.
	silent := &Transcript{Chunks: []Chunk{{Start: 0, End: 2, NoSpeech: true}}}
	for o, want := range map[TextOptions]string{{Timestamps: true}: "", {Timestamps: true, BlankMarker: true}: "[00:00:00.000 --> 00:00:02.000]  [BLANK_AUDIO]\n"} {
		var b bytes.Buffer
		if err := WriteTranscriptOptions(&b, silent, "txt", &o); err != nil || b.String() != want {
			t.Errorf("silence with %+v: %q, %v; want %q", o, b.String(), err, want)
		}
	}
}
