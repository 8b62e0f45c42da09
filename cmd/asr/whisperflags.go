package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/internal/atomicfile"
	"github.com/attend-go/attend/pipeline/speech"
)

// whisperFlags are the output habits people bring from whisper.cpp's
// command line: -otxt, -osrt, -ovtt and -ojson write the transcript next
// to each input file (talk.wav → talk.wav.srt), several at once;
// -timestamps times the txt lines; -blank-audio marks chunks without
// speech [BLANK_AUDIO].
type whisperFlags struct {
	txt, srt, vtt, json bool
	timestamps, blank   bool
}

func (w *whisperFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&w.txt, "otxt", false, "also write each file's transcript to FILE.txt, as whisper.cpp does")
	fs.BoolVar(&w.srt, "osrt", false, "also write each file's subtitles to FILE.srt")
	fs.BoolVar(&w.vtt, "ovtt", false, "also write each file's subtitles to FILE.vtt")
	fs.BoolVar(&w.json, "ojson", false, "also write each file's transcript to FILE.json (as -format json)")
	fs.BoolVar(&w.timestamps, "timestamps", false, "txt: a line per chunk, its times first: \"[00:00:01.000 --> 00:00:04.200]  text\", as whisper.cpp prints")
	fs.BoolVar(&w.blank, "blank-audio", false, "show a chunk without speech as [BLANK_AUDIO] (txt, srt, vtt), as whisper.cpp does")
}

// formats returns the formats of the files to write beside each input.
func (w *whisperFlags) formats() []string {
	var out []string
	for _, f := range []struct {
		on   bool
		name string
	}{{w.txt, "txt"}, {w.srt, "srt"}, {w.vtt, "vtt"}, {w.json, "json"}} {
		if f.on {
			out = append(out, f.name)
		}
	}
	return out
}

// textOptions returns what -timestamps and -blank-audio ask of the text
// formats.
func (w *whisperFlags) textOptions() *speech.TextOptions {
	return &speech.TextOptions{Timestamps: w.timestamps, BlankMarker: w.blank}
}

// check refuses what cannot be done, before any model is loaded: the
// flags apply to files, not batches, and standard input has no name to
// write beside.
func (w *whisperFlags) check(paths []string, isBatch bool) error {
	formats := w.formats()
	switch {
	case isBatch && len(formats) > 0:
		return cli.Usagef("-o%s writes beside single files; a batch writes a file per input with --format %s (beside it, or below --out-dir)", formats[0], formats[0])
	case isBatch && (w.timestamps || w.blank):
		return cli.Usagef("-timestamps and -blank-audio apply to files, not batches")
	}
	for _, p := range paths {
		if p == "-" && len(formats) > 0 {
			return cli.Usagef("-o%s writes beside each input file, and standard input has no name: redirect standard output instead", formats[0])
		}
	}
	return nil
}

// write writes t beside the input path in each format asked for,
// atomically (a file already there is replaced, as whisper.cpp does), and
// returns the files written.
func (w *whisperFlags) write(path string, t *speech.Transcript) ([]string, error) {
	var written []string
	for _, format := range w.formats() {
		dst := path + "." + format
		err := atomicfile.WriteFile(dst, func(out io.Writer) error {
			return speech.WriteTranscriptOptions(out, t, format, w.textOptions())
		}, nil)
		if err != nil {
			return written, fmt.Errorf("%s: %w", dst, err)
		}
		written = append(written, dst)
	}
	return written, nil
}
