package server

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
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
	// Model is the speech model with its decoding options (speechmodel.Open,
	// speechmodel.NewLAS), shared by every worker.
	Model speechmodel.Model
	// ModelID names it in /v1/models and the answers.
	ModelID string
	// MaxDuration bounds the audio of one request (0: DefaultMaxDuration);
	// longer audio gets 413.
	MaxDuration time.Duration
	// More are further models a request may pick with its "model" field
	// (OpenAI's): an ID listed in /v1/models, or "whisper-1" for the
	// first Whisper model (else the default). Model is the default.
	More []ASRModel
}

// ASRModel is a speech model served under an ID.
type ASRModel struct {
	ID    string
	Model speechmodel.Model
}

// asrService answers the transcription endpoints.
type asrService struct {
	s        *Server
	cfg      ASRConfig
	models   []servedModel // the default first
	liveOnce sync.Once     // live.go: the live streams' semaphore
	liveSem  chan struct{}
}

// servedModel is a model with its Transcribers, one per job: a
// Transcriber is not shared.
type servedModel struct {
	ASRModel
	transcriber chan *speech.Transcriber
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
	all := append([]ASRModel{{ID: cfg.ModelID, Model: cfg.Model}}, cfg.More...)
	var infos []modelInfo
	a := &asrService{cfg: cfg}
	for i, m := range all {
		if m.Model == nil {
			return nil, fmt.Errorf("server: model %q is nil", m.ID)
		}
		for _, other := range all[:i] {
			if other.ID == m.ID {
				return nil, fmt.Errorf("server: two models are called %q", m.ID)
			}
		}
		infos = append(infos, modelInfo{ID: m.ID, Object: "model", OwnedBy: "attend"})
	}
	s := newServer("asr", infos, o)
	a.s = s
	for _, m := range all {
		sm := servedModel{ASRModel: m, transcriber: make(chan *speech.Transcriber, s.o.Jobs)}
		for range s.o.Jobs {
			tr, err := speech.NewTranscriber(m.Model, &speech.TranscribeOptions{KeepAlignment: true})
			if err != nil {
				return nil, err
			}
			sm.transcriber <- tr
		}
		a.models = append(a.models, sm)
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
	model     string // the "model" field: which served model
	language  string // the "language" field, "" for the model's own
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
	req.model, req.language = u.get("model"), strings.TrimSpace(u.get("language"))
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
	m, err := a.pick(req)
	if err != nil {
		return nil, err
	}
	tr, done, err := m.transcriberFor(req.language)
	if err != nil {
		return nil, err
	}
	defer done()
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
		m, _ := a.pick(req) // transcribe picked it already
		writeJSON(w, http.StatusOK, verbose(t, req, m.ID, m.Model.Info().EncoderFrameSeconds))
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

// pick returns the served model a request names in its "model" field:
// the default for none, an ID of /v1/models (or its file's name, with or
// without the extension), or for "whisper-1" (what OpenAI's clients
// send) the first Whisper model, else the default.
func (a *asrService) pick(req *asrRequest) (*servedModel, error) {
	switch req.model {
	case "":
		return &a.models[0], nil
	case "whisper-1":
		return a.ofFamily("whisper"), nil
	}
	var ids []string
	for i := range a.models {
		id := a.models[i].ID
		if id == req.model || filepath.Base(id) == req.model || strings.TrimSuffix(filepath.Base(id), filepath.Ext(id)) == req.model {
			return &a.models[i], nil
		}
		ids = append(ids, id)
	}
	return nil, badRequest("model", "model %q is not served here; models: %s (or whisper-1)", req.model, strings.Join(ids, ", "))
}

// ofFamily returns the first served model of the family a client named
// (speechmodel.ModelInfo.Family), else the default: a name, not a
// difference in how the model is run.
func (a *asrService) ofFamily(family string) *servedModel {
	for i := range a.models {
		if a.models[i].Model.Info().Family == family {
			return &a.models[i]
		}
	}
	return &a.models[0]
}

// transcriberFor returns a Transcriber of m for language ("" for the
// model's own) and the function that gives it back: the model's own
// language takes a pooled one, another language one made for the
// request (modelFor).
func (m *servedModel) transcriberFor(language string) (*speech.Transcriber, func(), error) {
	lm, err := m.modelFor(language)
	if err != nil {
		return nil, nil, err
	}
	if lm == m.Model {
		tr := <-m.transcriber // as many as workers: never waits
		return tr, func() { m.transcriber <- tr }, nil
	}
	tr, err := speech.NewTranscriber(lm, &speech.TranscribeOptions{KeepAlignment: true})
	if err != nil {
		return nil, nil, err
	}
	return tr, func() {}, nil
}

// modelFor returns m's model decoding language: the model itself for ""
// (its own language) or English on a model that cannot choose, else
// the model for that language (speechmodel.Languages), or a bad request.
func (m *servedModel) modelFor(language string) (speechmodel.Model, error) {
	if language == "" {
		return m.Model, nil
	}
	l, ok := m.Model.(speechmodel.Languages)
	if !ok {
		if lang := strings.ToLower(language); lang == "en" || lang == "english" {
			return m.Model, nil
		}
		return nil, badRequest("language", "language %q: model %s transcribes English (en)", language, m.ID)
	}
	lm, err := l.WithLanguage(language)
	if err != nil {
		return nil, badRequest("language", "%v", err)
	}
	return lm, nil
}
