package main

import (
	"io"
	"strings"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/server"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

func init() {
	commands.Add("serve", "serve an OpenAI-compatible transcription API and a page that shows where the model listened", runServe)
}

const serveUsage = `Usage: asr serve [flags]

Serves speech recognition over HTTP on -addr (127.0.0.1:8080), with the
model and decoding flags of "asr transcribe":

	POST /v1/audio/transcriptions  OpenAI's API: multipart "file", response_format
	                               json | text | srt | vtt | verbose_json,
	                               timestamp_granularities[] word | segment;
	                               stream=true answers server-sent events as
	                               chunks are decoded (transcript.text.delta)
	POST /inference                whisper.cpp's server endpoint, the same form
	GET  /v1/audio/live            live transcription over a WebSocket in Vosk's
	                               protocol: raw 16-bit PCM in, partial and final
	                               transcripts out (at most -j streams at once)
	GET  /                         a page: upload, record or transcribe live
	                               from the microphone, see the
	                               transcript, the spectrogram and the attention
	                               alignment; hover a word to see where the
	                               model listened, click it to hear it
	GET  /healthz, /v1/models

verbose_json adds each word's confidence and, under "attend", each
chunk's alignment and log-mel spectrogram as base64 bytes. Errors are
OpenAI's {"error": {...}} with status 400, 413 (over -max-mb or
-max-duration), 415, 429 (queue full) or 503 (timed out).

-j requests are transcribed at once and -queue more may wait; uploads
stay in memory and no request can name a file on the server. SIGINT or
SIGTERM stops accepting, finishes the requests in flight and exits.
Listening on a loopback address (the default), the server answers only
requests addressed to localhost or a loopback IP.

` + cli.ServeGuards + `
Flags:
`

const serveExamples = `
Examples:

	asr serve -check -addr 127.0.0.1:0 -j 1

Recipes:

	asr serve
	ATTEND_API_KEY=$(openssl rand -hex 16) asr serve -addr 0.0.0.0:8080
	asr serve -addr 127.0.0.1:9000 -j 2 -beam 8
	asr serve -model "" -model ggml-base.bin   # our model by default; "model": "whisper-1" picks Whisper
	curl -s http://127.0.0.1:8080/v1/audio/transcriptions -F file=@testdata/hello.wav
	curl -s http://127.0.0.1:8080/v1/audio/transcriptions -F file=@testdata/hello.wav -F response_format=srt
	curl -s http://127.0.0.1:8080/inference -F file=@testdata/hello.wav -F response_format=text
`

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("serve", serveUsage, serveExamples, stderr)
	var sf cli.Serve
	sf.Register(fs, "127.0.0.1:8080")
	var modelPaths stringList
	fs.Var(&modelPaths, "model", "model `file` or Whisper model name (default: the embedded model); repeat it to serve several, the first the default: a request picks one with its \"model\" field (an ID of /v1/models, or whisper-1 for the first Whisper model)")
	maxDuration := fs.Duration("max-duration", server.DefaultMaxDuration, "longest audio a request may hold")
	search := addSearchFlags(fs)
	noFallback := fs.Bool("no-fallback", false, "keep the first decoding even where it looks broken: no CTC fallback (our model), no temperature fallback (Whisper models, whisper.cpp's -nf)")
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("serve takes no arguments (got %s)", strings.Join(fs.Args(), " "))
	}
	dec, err := search.decoding(fs)
	if err != nil {
		return err
	}
	dec.Search.NoFallback, dec.Whisper.NoFallback = *noFallback, *noFallback
	if *maxDuration <= 0 {
		return cli.Usagef("-max-duration %v: want a positive duration", *maxDuration)
	}
	opts, err := sf.Options(stderr)
	if err != nil {
		return err
	}
	if len(modelPaths) == 0 {
		modelPaths = stringList{""}
	}
	var models []server.ASRModel
	for _, path := range modelPaths {
		model, err := speechmodel.Open(path, &dec)
		if err != nil {
			return err
		}
		models = append(models, server.ASRModel{ID: speechmodel.ModelID(path), Model: model})
	}
	srv, err := server.NewASR(server.ASRConfig{Model: models[0].Model, ModelID: models[0].ID, More: models[1:], MaxDuration: *maxDuration}, opts)
	if err != nil {
		return err
	}
	return sf.Run("asr", srv, stdout, stderr)
}
