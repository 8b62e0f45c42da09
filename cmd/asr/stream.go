package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/stream"
)

func init() {
	commands.Add("stream", "transcribe audio while it arrives (a microphone through a pipe), partial and final text", runStream)
}

const streamUsage = `Usage: asr stream [flags] [FILE]

Transcribes speech while it arrives. Without FILE (or with "-"), it reads
raw signed 16-bit little-endian PCM from standard input, of -rate Hz and
-channels channels: a microphone through a pipe,

	arecord -q -f S16_LE -r 16000 -c 1 | asr stream
	parec --format=s16le --rate=16000 --channels=1 | asr stream
	ffmpeg -loglevel quiet -f pulse -i default -f s16le -ac 1 -ar 16000 - | asr stream

With FILE, an audio file (WAV, FLAC, OGG Vorbis or MP3) is streamed as
fast as it decodes, or at real-time pace with -realtime (-speed N plays it
N times faster): a demonstration, or a test of the live path.

The voice activity detector cuts the audio into utterances as it arrives,
where "asr transcribe" would cut it. While an utterance is being spoken, a
partial transcript (a quick search) is shown every -partial of audio,
rewritten in place on a terminal; when it ends (once -end-silence of
non-speech has followed it), its final transcript (the full search, the
same text "asr transcribe" gives for it when the cuts agree) is printed
with its times:

	[00:01.230 --> 00:03.420] text

-format json writes one JSON object per line and event instead:
{"partial": "…"} while speaking, {"final": "…", "start": s, "end": s,
"words": [{"word", "start", "end", "confidence"}]} per utterance. Partials
go to a terminal or to json only. End of input or Ctrl-C (SIGINT)
transcribes the utterance still open and exits.

Flags:
`

const streamExamples = `
Examples:

	asr stream -beam 1 testdata/hello.wav
	asr stream -beam 1 -format json -realtime -speed 8 testdata/hello.wav
`

func runStream(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("stream", streamUsage, streamExamples, stderr)
	modelPath := fs.String("model", "", "model `file` (default: the embedded model)")
	format := fs.String("format", "txt", "output format: txt or json (one object per event)")
	rate := fs.Int("rate", 16000, "sample rate of the raw PCM on standard input, in `Hz`")
	channels := fs.Int("channels", 1, "channels of the raw PCM on standard input (mixed down)")
	realtime := fs.Bool("realtime", false, "play FILE at real-time pace")
	speed := fs.Float64("speed", 1, "with -realtime, play FILE this many `times` faster")
	partial := fs.Duration("partial", stream.DefaultPartialInterval, "audio between partial transcripts; 0 for none")
	endSilence := fs.Duration("end-silence", stream.DefaultEndSilence,
		"non-speech after an utterance that ends it (at least 200ms); 0 waits the detector's 1.5 s look-ahead for exactly asr transcribe's cuts")
	sf := addSearchFlags(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if *format != "txt" && *format != "json" {
		return cli.Usagef("-format %q: want txt or json", *format)
	}
	if fs.NArg() > 1 {
		return cli.Usagef("stream takes one FILE at most")
	}
	if !(*speed > 0) {
		return cli.Usagef("-speed %v: want more than 0", *speed)
	}
	if *partial < 0 {
		return cli.Usagef("-partial %v: want 0 (none) or more", *partial)
	}
	if *endSilence != 0 && *endSilence < 200*time.Millisecond {
		return cli.Usagef("-end-silence %v: want 0 (the detector's cuts) or at least 200ms (the speech padding)", *endSilence)
	}
	path := fs.Arg(0)
	if path == "" {
		path = "-"
	}
	search, lm, err := sf.finish(fs)
	if err != nil {
		return err
	}
	model, err := speechmodel.Open(*modelPath, &speechmodel.Decoding{Search: search, LM: lm})
	if err != nil {
		return err
	}
	opts := &stream.Options{PartialInterval: *partial, PartialLoad: stream.DefaultPartialLoad, EndSilence: *endSilence}
	if *endSilence == 0 {
		opts.EndSilence = -1
	}
	if *partial == 0 {
		opts.PartialInterval = -1
	}
	st, err := stream.New(model, opts)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	p := &eventPrinter{w: stdout, json: *format == "json", terminal: cli.IsTerminal(stdout)}
	var pieces <-chan []float32
	errc := make(chan error, 1)
	if path == "-" {
		pcm, err := stream.NewPCM(*rate, *channels)
		if err != nil {
			return cli.Usagef("%v", err)
		}
		pieces = readPCM(ctx, stdin, pcm, errc)
	} else {
		if *realtime == false {
			*speed = 0
		}
		pieces = readFile(ctx, path, stdin, *speed, errc)
	}
	for piece := range pieces {
		// Take everything that arrived while the last piece was decoded:
		// one partial for it, not one per interval.
	drain:
		for {
			select {
			case more, ok := <-pieces:
				if !ok {
					break drain
				}
				piece = append(piece, more...)
			default:
				break drain
			}
		}
		events, err := st.Write(piece)
		if err != nil {
			return err
		}
		if err := p.print(events); err != nil {
			return err
		}
	}
	events, err := st.Close()
	if err != nil {
		return err
	}
	if err := p.print(events); err != nil {
		return err
	}
	p.clear()
	select {
	case err := <-errc:
		return err
	default:
		return nil
	}
}

// readPCM reads raw PCM from r until EOF or ctx is done and sends its
// samples, piece by piece as they come; an error reading goes to errc.
func readPCM(ctx context.Context, r io.Reader, pcm *stream.PCM, errc chan<- error) <-chan []float32 {
	out := make(chan []float32, 64)
	go func() {
		defer close(out)
		buf := make([]byte, 3200) // 100 ms of 16 kHz mono
		for {
			n, err := r.Read(buf)
			samples := pcm.Decode(nil, buf[:n])
			if err != nil {
				samples = pcm.Flush(samples)
			}
			if len(samples) > 0 {
				select {
				case out <- samples:
				case <-ctx.Done():
					return
				}
			}
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				errc <- fmt.Errorf("standard input: %w", err)
				return
			}
			if ctx.Err() != nil {
				return
			}
		}
	}()
	return out
}

// readFile plays the audio file at path (stream.Play) and sends its
// samples in pieces; an error reading it goes to errc.
func readFile(ctx context.Context, path string, stdin io.Reader, speed float64, errc chan<- error) <-chan []float32 {
	out := make(chan []float32, 64)
	go func() {
		defer close(out)
		err := stream.Play(ctx, path, stdin, speed, func(piece []float32) error {
			select {
			case out <- piece:
			case <-ctx.Done():
			}
			return nil
		})
		if err != nil {
			errc <- err
		}
	}()
	return out
}

// eventPrinter writes a Streamer's events: JSON lines, or text with the
// partial rewritten in place on a terminal.
type eventPrinter struct {
	w              io.Writer
	json, terminal bool
	shown          bool // a partial is on the terminal's last line
}

func (p *eventPrinter) print(events []stream.Event) error {
	for _, e := range events {
		var err error
		switch {
		case p.json && e.Final:
			err = writeJSONLine(p.w, struct {
				Final string             `json:"final"`
				Start float64            `json:"start"`
				End   float64            `json:"end"`
				Words []speechmodel.Word `json:"words"`
			}{e.Text, e.Start, e.End, e.Words})
		case p.json:
			err = writeJSONLine(p.w, struct {
				Partial string `json:"partial"`
			}{e.Text})
		case e.Final:
			p.clear()
			_, err = fmt.Fprintf(p.w, "[%s --> %s] %s\n", clock(e.Start), clock(e.End), e.Text)
		case p.terminal:
			p.clear()
			_, err = fmt.Fprintf(p.w, "%s", lastRunes(e.Text, partialWidth))
			p.shown = true
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// partialWidth is the most of a partial shown on a terminal: its end,
// so that it stays on one line of 80 columns, where "\r" and erasing
// the line rewrite it.
const partialWidth = 79

// lastRunes returns the last n runes of s, "…" and the last n−1 if it
// is longer.
func lastRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

// clear erases the partial on the terminal's line.
func (p *eventPrinter) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// clock writes seconds as MM:SS.mmm (HH:MM:SS.mmm past an hour).
func clock(sec float64) string {
	ms := int64(sec*1000 + 0.5)
	h, m, s := ms/3600000, ms/60000%60, float64(ms%60000)/1000
	if h > 0 {
		return fmt.Sprintf("%02d:%02d:%06.3f", h, m, s)
	}
	return strings.TrimSpace(fmt.Sprintf("%02d:%06.3f", m, s))
}
