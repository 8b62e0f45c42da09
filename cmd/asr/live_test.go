package main

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/stream"
)

// offlineTexts returns the texts of the chunks "asr transcribe -beam 1"
// finds in path.
func offlineTexts(t *testing.T, path string) []string {
	t.Helper()
	code, out, stderr := asrRun(t, "", "transcribe", "-beam", "1", "-format", "json", path)
	if code != 0 {
		t.Fatal(stderr)
	}
	var tr speech.Transcript
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, c := range tr.Chunks {
		if c.Text != "" {
			texts = append(texts, c.Text)
		}
	}
	return texts
}

// TestStreamFileAndPipe streams a recording of several utterances as a
// file played at (compressed) real-time pace and as raw PCM on standard
// input, with the live endpointer and without (-end-silence 0): the
// finals are the chunks of "asr transcribe", and txt prints
// one timed line per final.
func TestStreamFileAndPipe(t *testing.T) {
	long := longWAV(t, 3)
	want := offlineTexts(t, long)
	sig, err := speechmodel.Load(long, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pcm []byte
	for _, v := range sig.Samples {
		pcm = binary.LittleEndian.AppendUint16(pcm, uint16(int16(math.Round(float64(max(-1, min(v, 32767.0/32768))*32768)))))
	}
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
	}{
		{"file, realtime ×50", "", []string{"-realtime", "-speed", "50", long}},
		{"pcm on stdin", string(pcm), nil},
		{"pcm on stdin, the detector's cuts", string(pcm), []string{"-end-silence", "0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := asrRun(t, tc.stdin, append([]string{"stream", "-beam", "1", "-format", "json"}, tc.args...)...)
			if code != 0 {
				t.Fatal(stderr)
			}
			var finals []string
			partials := 0
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var e struct {
					Partial *string
					Final   *string
					Words   []speechmodel.Word
				}
				if err := json.Unmarshal([]byte(line), &e); err != nil {
					t.Fatalf("line %q: %v", line, err)
				}
				switch {
				case e.Partial != nil:
					partials++
				case e.Final != nil:
					finals = append(finals, *e.Final)
					if len(e.Words) != len(strings.Fields(*e.Final)) {
						t.Errorf("final %q has words %v", *e.Final, e.Words)
					}
				}
			}
			if strings.Join(finals, "|") != strings.Join(want, "|") {
				t.Errorf("finals %q, want the offline chunks %q", finals, want)
			}
			// How many partials come depends on the machine's speed: audio
			// that arrives while one is decoded goes into the next Write
			// (pipeline/stream's tests count them, deterministically).
			t.Logf("%d partials", partials)
		})
	}
	code, out, stderr := asrRun(t, string(pcm), "stream", "-beam", "1")
	if code != 0 {
		t.Fatal(stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(want) || !strings.HasPrefix(lines[0], "[00:0") || !strings.HasSuffix(lines[0], "] "+want[0]) {
		t.Errorf("txt output %q, want %d timed lines of %q", out, len(want), want)
	}
	if strings.Contains(out, "\r") {
		t.Errorf("piped output rewrites lines: %q", out)
	}
}

// TestStreamPrinter: on a terminal a partial is rewritten in place (its
// end, on one line) and erased by the final line; piped, only the finals
// are printed; json prints every event.
func TestStreamPrinter(t *testing.T) {
	events := []stream.Event{
		{Text: "the qik"},
		{Text: "the quick bro"},
		{Final: true, Text: "the quick brown", Start: 0.5, End: 2.25, Words: []speechmodel.Word{{Word: "the", Start: 0.5, End: 0.7, Confidence: 0.9}}},
		{Text: "fox"},
		{Text: strings.Repeat("a", 100)},
	}
	for _, tc := range []struct {
		name           string
		json, terminal bool
		want           string
	}{
		{"terminal", false, true, "the qik\r\x1b[Kthe quick bro\r\x1b[K[00:00.500 --> 00:02.250] the quick brown\nfox\r\x1b[K…" + strings.Repeat("a", 78) + "\r\x1b[K"},
		{"pipe", false, false, "[00:00.500 --> 00:02.250] the quick brown\n"},
		{"json", true, false, `{"partial":"the qik"}` + "\n" + `{"partial":"the quick bro"}` + "\n" +
			`{"final":"the quick brown","start":0.5,"end":2.25,"words":[{"word":"the","start":0.5,"end":0.7,"confidence":0.9}]}` + "\n" +
			`{"partial":"fox"}` + "\n" + `{"partial":"` + strings.Repeat("a", 100) + `"}` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			p := &eventPrinter{w: &b, json: tc.json, terminal: tc.terminal}
			if err := p.print(events); err != nil {
				t.Fatal(err)
			}
			p.clear()
			if b.String() != tc.want {
				t.Errorf("printed %q\nwant    %q", b.String(), tc.want)
			}
		})
	}
}
