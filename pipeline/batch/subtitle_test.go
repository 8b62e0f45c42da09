package batch

import (
	"strings"
	"testing"
	"time"
)

func TestSubtitles(t *testing.T) {
	cues := []Cue{
		{0, 1500 * time.Millisecond, "hello there"},
		{2 * time.Second, 1 * time.Second, "end before start"},
		{3 * time.Second, 4 * time.Second, "  "},
		{3723*time.Second + 45*time.Millisecond, 3725 * time.Second, "a <b> & c --> d\n\n\nsecond line\r\n"},
		{-time.Second, 0, "negative"},
	}
	tests := []struct {
		name  string
		write func(*strings.Builder) error
		want  string
	}{
		{"srt", func(b *strings.Builder) error { return WriteSRT(b, cues) }, "" +
			"1\n00:00:00,000 --> 00:00:01,500\nhello there\n\n" +
			"2\n00:00:02,000 --> 00:00:02,000\nend before start\n\n" +
			"3\n01:02:03,045 --> 01:02:05,000\na <b> & c --> d\nsecond line\n\n" +
			"4\n00:00:00,000 --> 00:00:00,000\nnegative\n\n"},
		{"vtt", func(b *strings.Builder) error { return WriteVTT(b, cues) }, "WEBVTT\n\n" +
			"00:00:00.000 --> 00:00:01.500\nhello there\n\n" +
			"00:00:02.000 --> 00:00:02.000\nend before start\n\n" +
			"01:02:03.045 --> 01:02:05.000\na &lt;b&gt; &amp; c --&gt; d\nsecond line\n\n" +
			"00:00:00.000 --> 00:00:00.000\nnegative\n\n"},
		{"empty srt", func(b *strings.Builder) error { return WriteSRT(b, nil) }, ""},
		{"empty vtt", func(b *strings.Builder) error { return WriteVTT(b, []Cue{}) }, "WEBVTT\n\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tc.want)
			}
		})
	}
}
