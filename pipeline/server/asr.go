package server

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speech"
)

// DefaultMaxDuration is the longest audio a request may hold when
// ASRConfig.MaxDuration is 0: 30 minutes, about what the default
// timeout transcribes on one busy core.
const DefaultMaxDuration = 30 * time.Minute

// ResponseFormats are the response_format values of the transcription
// endpoints, OpenAI's.
var ResponseFormats = []string{"json", "text", "srt", "vtt", "verbose_json"}

// ASRConfig configures NewASR.
type ASRConfig struct {
	// Model is the speech model with its decoding options (speech.Open,
	// speech.NewLAS), shared by every worker.
	Model speech.Model
	// ModelID names it in /v1/models and the answers.
	ModelID string
	// MaxDuration bounds the audio of one request (0: DefaultMaxDuration);
	// longer audio gets 413.
	MaxDuration time.Duration
}

// asrService answers the transcription endpoints.
type asrService struct {
	s           *Server
	cfg         ASRConfig
	transcriber chan *speech.Transcriber // one per job: a Transcriber is not shared
	liveOnce    sync.Once                // live.go: the live streams' semaphore
	liveSem     chan struct{}
}

// NewASR returns the server of "asr serve": POST
// /v1/audio/transcriptions (OpenAI's API), POST /inference (whisper.cpp's
// server) and the page that shows the attention alignment.
func NewASR(cfg ASRConfig, o Options) (*Server, error) {
	if cfg.Model == nil {
		return nil, fmt.Errorf("server: no speech model")
	}
	if cfg.MaxDuration <= 0 {
		cfg.MaxDuration = DefaultMaxDuration
	}
	s := newServer("asr", []modelInfo{{ID: cfg.ModelID, Object: "model", OwnedBy: "attend"}}, o)
	a := &asrService{s: s, cfg: cfg, transcriber: make(chan *speech.Transcriber, s.o.Jobs)}
	for range s.o.Jobs {
		tr, err := speech.NewTranscriber(cfg.Model, &speech.TranscribeOptions{KeepAlignment: true})
		if err != nil {
			return nil, err
		}
		a.transcriber <- tr
	}
	s.handlePost("/v1/audio/transcriptions", a.openAI)
	s.handlePost("/inference", a.inference)
	s.mux.HandleFunc("GET "+LivePath, a.live)
	return s, nil
}

// asrRequest is a transcription request, parsed and checked.
type asrRequest struct {
	audio     []byte
	name      string
	format    string // one of ResponseFormats
	words     bool   // timestamp_granularities includes word
	segments  bool   // ... segment (the default)
	attention bool   // verbose_json carries attend's alignment extras
	stream    bool   // answer server-sent events as chunks are decoded (sse.go)
}

// parseASRFields checks the parameters of an upload.
func parseASRFields(u *upload, defaultFormat string) (*asrRequest, error) {
	req := &asrRequest{audio: u.data, name: u.name, format: u.get("response_format"), attention: true}
	if req.format == "" {
		req.format = defaultFormat
	}
	if !slices.Contains(ResponseFormats, req.format) {
		return nil, badRequest("response_format", "response_format %q: want one of %s", req.format, strings.Join(ResponseFormats, ", "))
	}
	grains := append(u.fields["timestamp_granularities[]"], u.fields["timestamp_granularities"]...)
	for _, g := range grains {
		for _, g := range strings.Split(g, ",") {
			switch strings.TrimSpace(g) {
			case "word":
				req.words = true
			case "segment":
				req.segments = true
			default:
				return nil, badRequest("timestamp_granularities[]", "timestamp granularity %q: want word or segment", g)
			}
		}
	}
	if len(grains) == 0 {
		req.segments = true
	}
	if lang := strings.ToLower(u.get("language")); lang != "" && lang != "en" && lang != "english" {
		return nil, badRequest("language", "language %q: this model transcribes English (en)", lang)
	}
	req.stream = u.get("stream") == "true"
	switch v := u.get("include_attention"); v {
	case "", "true", "1":
	case "false", "0":
		req.attention = false
	default:
		return nil, badRequest("include_attention", "include_attention %q: want true or false", v)
	}
	return req, nil
}

// openAI answers POST /v1/audio/transcriptions.
func (a *asrService) openAI(w http.ResponseWriter, r *http.Request) { a.answer(w, r, "json") }

// inference answers whisper.cpp's POST /inference (json by default, as
// there).
func (a *asrService) inference(w http.ResponseWriter, r *http.Request) { a.answer(w, r, "json") }

func (a *asrService) answer(w http.ResponseWriter, r *http.Request, defaultFormat string) {
	ctx, cancel := context.WithTimeout(r.Context(), a.s.o.Timeout)
	defer cancel()
	u, release, err := a.s.receive(w, r, false)
	if err != nil {
		writeError(w, err)
		return
	}
	defer release()
	req, err := parseASRFields(u, defaultFormat)
	if err != nil {
		writeError(w, err)
		return
	}
	if req.stream {
		a.streamEvents(ctx, w, req)
		return
	}
	var t *speech.Transcript
	err = a.s.work(ctx, func(ctx context.Context) error {
		t, err = a.transcribe(ctx, req)
		return err
	})
	if err != nil {
		writeError(w, err)
		return
	}
	a.write(w, req, t)
}

// transcribe decodes and transcribes the audio of req on a worker's
// Transcriber, stopping between chunks once ctx is done.
func (a *asrService) transcribe(ctx context.Context, req *asrRequest) (*speech.Transcript, error) {
	stream, _, err := audio.OpenWithOptions(bytes.NewReader(req.audio), &audio.DecodeOptions{MaxDuration: a.cfg.MaxDuration})
	if err != nil {
		return nil, err
	}
	tr := <-a.transcriber // as many as workers: never waits
	defer func() { a.transcriber <- tr }()
	name := req.name
	if name == "" {
		name = "upload"
	}
	return tr.Stream(name, &ctxStream{Stream: stream, ctx: ctx})
}

// ctxStream ends an audio stream once ctx is done: the transcriber reads
// a chunk at a time, so a request out of time stops at the next chunk.
type ctxStream struct {
	audio.Stream
	ctx context.Context
}

func (s *ctxStream) Read(dst []float32) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	return s.Stream.Read(dst)
}

// write answers the transcript in the requested format.
func (a *asrService) write(w http.ResponseWriter, req *asrRequest, t *speech.Transcript) {
	switch req.format {
	case "json":
		writeJSON(w, http.StatusOK, map[string]string{"text": t.Text})
	case "verbose_json":
		writeJSON(w, http.StatusOK, verbose(t, req, a.cfg.ModelID, a.cfg.Model.Info().EncoderFrameSeconds))
	default:
		var b bytes.Buffer
		format := req.format
		if format == "text" {
			format = "txt"
		}
		if err := speech.WriteTranscript(&b, t, format); err != nil {
			writeError(w, err)
			return
		}
		ct := "text/plain; charset=utf-8"
		if format == "vtt" {
			ct = "text/vtt; charset=utf-8"
		}
		w.Header().Set("Content-Type", ct)
		_, _ = w.Write(b.Bytes())
	}
}
