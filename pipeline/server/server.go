package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of Options.
const (
	// DefaultMaxBytes is the largest request body: 25 MiB, the file
	// limit of OpenAI's transcription API.
	DefaultMaxBytes = 25 << 20
	// DefaultTimeout bounds a request from its first byte to its answer,
	// waiting in the queue included.
	DefaultTimeout = 2 * time.Minute
	// DefaultQueue is how many requests may wait per worker for one to be
	// free before the server answers 429.
	DefaultQueue = 4
)

// errTimeout means a request ran out of its time (Options.Timeout).
var errTimeout = errors.New("server: request timed out")

// Options configures a Server. The zero value of a field means the
// default noted.
type Options struct {
	// Jobs is how many requests are worked on at once (0: GOMAXPROCS).
	Jobs int
	// Queue is how many more may wait for a worker (0: DefaultQueue per
	// job; negative: none wait). Beyond that the server answers 429.
	Queue int
	// MaxBytes bounds a request body (0: DefaultMaxBytes).
	MaxBytes int64
	// Timeout bounds a request, read, queue and work (0: DefaultTimeout);
	// a request still waiting for a worker then gets 503, and one being
	// worked on is stopped where the work can stop (between chunks of
	// audio) and gets 503.
	Timeout time.Duration
	// Log receives one line per request (nil: none).
	Log io.Writer

	// PerClient is how many requests one client address may have in the
	// server at once, reading, waiting or worked on (0: half of
	// Jobs+Queue, at least 1; negative: no limit). Beyond it that
	// address gets 429, so one address cannot take every slot.
	PerClient int
	// Uploads is how many request bodies may be read at once (0: four
	// times Jobs+Queue, at least 16). A request reads its body before it
	// queues for a worker, so a slow upload holds no worker's place.
	Uploads int
	// MinRate is the slowest a body may arrive, in bytes per second, once
	// RateGrace has passed (0: DefaultMinRate); a slower one gets 408.
	MinRate int64
	// RateGrace is how long a body may lag behind MinRate at first (0:
	// DefaultRateGrace).
	RateGrace time.Duration
	// APIKey, when set, is required by the API endpoints (not the page,
	// its assets or /healthz) as "Authorization: Bearer KEY"; the page
	// asks for it.
	APIKey string
	// AllowOrigins lists the origins ("https://example.com", or "*" for
	// any) whose pages may call the server; a browser's request from any
	// other origin but the server's own gets 403.
	AllowOrigins []string
}

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if o.Jobs <= 0 {
		o.Jobs = runtime.GOMAXPROCS(0)
	}
	switch {
	case o.Queue == 0:
		o.Queue = DefaultQueue * o.Jobs
	case o.Queue < 0:
		o.Queue = 0
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	switch {
	case o.PerClient == 0:
		o.PerClient = max(1, (o.Jobs+o.Queue)/2)
	case o.PerClient < 0:
		o.PerClient = math.MaxInt
	}
	if o.Uploads <= 0 {
		o.Uploads = max(16, 4*(o.Jobs+o.Queue))
	}
	if o.MinRate <= 0 {
		o.MinRate = DefaultMinRate
	}
	if o.RateGrace <= 0 {
		o.RateGrace = DefaultRateGrace
	}
	return o
}

// Server answers the HTTP API and serves the page of one tool (asr or
// caption); NewASR and NewCaption make one. Its Handler is safe for
// concurrent use.
type Server struct {
	o        Options
	tool     string // "asr" or "caption": which page "/" serves
	models   []modelInfo
	mux      *http.ServeMux
	posts    map[string]bool // the POST endpoints, to answer 405 to other methods
	admitted chan struct{}   // a token per request admitted: working or waiting
	working  chan struct{}   // a token per request being worked on
	clients  clients         // requests per client address, bodies being read
	abort    chan struct{}   // closed by Abort
	aborted  sync.Once
	// loopback restricts the Host header to loopback names, against DNS
	// rebinding, when the server listens on a loopback address only.
	loopback atomic.Bool
}

// newServer sets up the routes common to both tools.
func newServer(tool string, models []modelInfo, o Options) *Server {
	o = o.withDefaults()
	s := &Server{o: o, tool: tool, models: models, mux: http.NewServeMux(),
		admitted: make(chan struct{}, o.Jobs+o.Queue), working: make(chan struct{}, o.Jobs), posts: map[string]bool{},
		clients: clients{perClient: o.PerClient, uploads: o.Uploads, in: map[string]int{}}, abort: make(chan struct{})}
	s.mux.HandleFunc("GET /healthz", s.healthz)
	s.mux.HandleFunc("GET /v1/models", s.listModels)
	s.mux.HandleFunc("GET /v1/colormaps", serveColormaps)
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", staticFiles()))
	s.mux.HandleFunc("GET /{$}", s.page)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if s.posts[r.URL.Path] {
			w.Header().Set("Allow", "POST")
			writeError(w, &APIError{Status: http.StatusMethodNotAllowed, Type: typeInvalid, Message: r.URL.Path + " takes POST, not " + r.Method})
			return
		}
		writeError(w, &APIError{Status: http.StatusNotFound, Type: typeNotFound, Message: r.Method + " " + r.URL.Path + ": no such endpoint"})
	})
	return s
}

// Options returns the options in effect, defaults filled in.
func (s *Server) Options() Options { return s.o }

// Handler returns the server's HTTP handler: security headers, a panic
// turned into a 500, the request log, then the routes.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h := rec.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; frame-ancestors 'none'")
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.logf("panic serving %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
				if !rec.wrote {
					writeError(rec, fmt.Errorf("internal error: %v", v))
				}
			}
			if s.o.Log != nil {
				s.logf("%s %s %d %d %s", r.Method, r.URL.Path, rec.status, rec.bytes, time.Since(start).Round(time.Millisecond))
			}
		}()
		if s.loopback.Load() && !loopbackHost(r.Host) {
			writeError(rec, &APIError{Status: http.StatusMisdirectedRequest, Type: typeInvalid,
				Message: "this server answers only requests to localhost or a loopback address"})
			return
		}
		if !s.checkOrigin(rec, r) || !s.checkKey(rec, r) {
			return
		}
		s.mux.ServeHTTP(rec, r)
	})
}

// logf writes one line to Options.Log.
func (s *Server) logf(format string, args ...any) {
	if s.o.Log != nil {
		fmt.Fprintf(s.o.Log, time.Now().Format("2006-01-02T15:04:05.000 ")+format+"\n", args...)
	}
}

// admit admits a request into the bounded queue, once its body is read
// (receive), or refuses it with 429 when Jobs+Queue requests are in already.
// The caller calls release when done.
func (s *Server) admit() (release func(), err error) {
	select {
	case s.admitted <- struct{}{}:
		return func() { <-s.admitted }, nil
	default:
		return nil, &APIError{Status: http.StatusTooManyRequests, Type: typeBusy, Code: "queue_full",
			Message: fmt.Sprintf("the server is busy: %d requests are being worked on or waiting; retry later", cap(s.admitted))}
	}
}

// work runs fn on a worker once one is free (503 if ctx ends first),
// with ctx; an admitted request calls it.
func (s *Server) work(ctx context.Context, fn func(context.Context) error) error {
	select {
	case s.working <- struct{}{}:
	case <-ctx.Done():
		return &APIError{Status: http.StatusServiceUnavailable, Type: typeBusy, Code: "queue_timeout",
			Message: "the server stayed busy for the whole request timeout; retry later"}
	}
	defer func() { <-s.working }()
	if err := fn(ctx); err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return fmt.Errorf("%w after %v", errTimeout, s.o.Timeout)
		}
		return err
	}
	return nil
}

// ListenAndServe serves on addr until ctx is done, then shuts down
// gracefully: it stops accepting, lets the requests in flight finish
// (for up to Options.Timeout, or until Abort) and returns. ready, if not nil, receives
// the address listened on (addr may name port 0).
func (s *Server) ListenAndServe(ctx context.Context, addr string, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		s.loopback.Store(true)
	}
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       s.o.Timeout,
		WriteTimeout:      s.o.Timeout + 10*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	if ready != nil {
		ready(ln.Addr())
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), s.o.Timeout+10*time.Second)
	defer cancel()
	go func() {
		select {
		case <-s.abort:
			cancel()
		case <-shutdown.Done():
		}
	}()
	if err := hs.Shutdown(shutdown); err != nil {
		select {
		case <-s.abort:
			_ = hs.Close() // cut the requests in flight
			<-served
			return nil
		default:
		}
		return fmt.Errorf("server: shutting down: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("server: %w", err)
	}
	return nil
}

// Abort cuts a graceful shutdown short: ListenAndServe closes the
// connections of the requests still in flight and returns. A second
// Ctrl-C calls it.
func (s *Server) Abort() { s.aborted.Do(func() { close(s.abort) }) }

// loopbackHost reports whether a Host header names this machine by a
// loopback name: localhost or a loopback IP, any port.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// statusRecorder remembers the status and size of an answer, for the
// log and for the panic handler.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool
}

func (r *statusRecorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// modelInfo is one entry of GET /v1/models, in OpenAI's shape.
type modelInfo struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"status": "ok", "tool": s.tool,
		"working": len(s.working), "waiting": len(s.admitted) - len(s.working),
		"jobs": s.o.Jobs, "queue": s.o.Queue,
	})
}

func (s *Server) listModels(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": s.models})
}

// handlePost routes POST path to h.
func (s *Server) handlePost(path string, h http.HandlerFunc) {
	s.posts[path] = true
	s.mux.HandleFunc("POST "+path, h)
}
