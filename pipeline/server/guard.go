package server

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// Defaults of the guards against slow and greedy clients.
const (
	// DefaultMinRate is the slowest upload accepted once RateGrace has
	// passed, in bytes per second: 16 KiB/s, a 25 MiB file in under 27
	// minutes (the request timeout cuts it sooner), a slow phone's uplink
	// several times over.
	DefaultMinRate = 16 << 10
	// DefaultRateGrace is how long a body may arrive slower than MinRate
	// at first (a connection's slow start, a phone waking its radio).
	DefaultRateGrace = 10 * time.Second
)

// clients counts the requests in the server per client address, and the
// request bodies being read, so that neither a few slow uploads nor one
// greedy address can take every slot. A request holds its address's
// count from its first byte to its answer, and an upload slot while its
// body is read; only then does it queue for a worker (admit).
type clients struct {
	mu        sync.Mutex
	perClient int // the most requests one address may have in the server
	uploads   int // the most bodies read at once
	reading   int
	in        map[string]int
}

// enter counts a request from addr (a RemoteAddr, host:port) and an
// upload slot for it, or answers 429 when the address already has its
// share or every upload slot is taken. done releases the address's
// count; readDone the upload slot (once the body is read).
func (c *clients) enter(addr string) (done, readDone func(), err error) {
	host := clientHost(addr)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.in[host] >= c.perClient:
		return nil, nil, &APIError{Status: http.StatusTooManyRequests, Type: typeBusy, Code: "client_busy",
			Message: fmt.Sprintf("%d requests from %s are in the server already, its share; retry when one is answered", c.in[host], host)}
	case c.reading >= c.uploads:
		return nil, nil, &APIError{Status: http.StatusTooManyRequests, Type: typeBusy, Code: "uploads_full",
			Message: fmt.Sprintf("the server is busy: %d uploads are arriving; retry later", c.reading)}
	}
	c.in[host]++
	c.reading++
	var once, readOnce sync.Once
	readDone = func() {
		readOnce.Do(func() {
			c.mu.Lock()
			c.reading--
			c.mu.Unlock()
		})
	}
	done = func() {
		readDone()
		once.Do(func() {
			c.mu.Lock()
			if c.in[host]--; c.in[host] <= 0 {
				delete(c.in, host)
			}
			c.mu.Unlock()
		})
	}
	return done, readDone, nil
}

// readingNow is how many bodies are being read.
func (c *clients) readingNow() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reading
}

// clientHost is the address of a RemoteAddr without its port: the unit
// of fairness. Behind a reverse proxy every request has the proxy's.
func clientHost(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

// receive reads and checks a request's upload before the request queues
// for a worker, so that a slow body never holds a worker's place: it
// counts the request against its address's share, reads the body at no
// less than Options.MinRate (after Options.RateGrace) and up to
// Options.MaxBytes, then admits the request into the queue. The caller
// calls release once answered.
func (s *Server) receive(w http.ResponseWriter, r *http.Request, raw bool) (u *upload, release func(), err error) {
	done, readDone, err := s.clients.enter(r.RemoteAddr)
	if err != nil {
		// Close rather than drain the unread body before answering,
		// which a slow client could drag out.
		w.Header().Set("Connection", "close")
		return nil, nil, err
	}
	rc := http.NewResponseController(w)
	start := time.Now()
	r.Body = &rateReader{r: r.Body, rc: rc, start: start, grace: s.o.RateGrace, rate: s.o.MinRate, end: start.Add(s.o.Timeout)}
	u, err = readUpload(w, r, s.o.MaxBytes, raw)
	// The body is read (or abandoned): lift the deadline, whose expiry
	// would otherwise end the request's context while it is worked on.
	_ = rc.SetReadDeadline(time.Time{})
	readDone()
	if err != nil {
		if api := classify(err); api.Code == codeSlowBody {
			w.Header().Set("Connection", "close") // the rest of the body is not worth waiting for
		}
		done()
		return nil, nil, err
	}
	unqueue, err := s.admit()
	if err != nil {
		done()
		return nil, nil, err
	}
	return u, func() { unqueue(); done() }, nil
}

// codeSlowBody is the code of the 408 answered to a body that arrived
// slower than Options.MinRate.
const codeSlowBody = "upload_too_slow"

// rateReader reads a request body with a read deadline that moves with
// the bytes received: byte n must arrive by start + grace + n/rate, so a
// client keeping up at rate bytes/s is never cut off, and one trickling
// a byte a second is cut off soon after grace.
type rateReader struct {
	r     io.ReadCloser
	rc    *http.ResponseController
	start time.Time
	grace time.Duration
	rate  int64     // bytes per second
	end   time.Time // the request's deadline (Options.Timeout), which caps every other
	n     int64     // bytes read so far
}

func (b *rateReader) Read(p []byte) (int, error) {
	due := b.start.Add(b.grace + time.Duration(float64(b.n)/float64(b.rate)*float64(time.Second)))
	if due.After(b.end) {
		due = b.end
	}
	_ = b.rc.SetReadDeadline(due) // unsupported (a test's recorder): no deadline
	n, err := b.r.Read(p)
	b.n += int64(n)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		return n, &APIError{Status: http.StatusRequestTimeout, Type: typeInvalid, Code: codeSlowBody,
			Message: fmt.Sprintf("the upload arrived slower than %d bytes/s (%d bytes in %v)", b.rate, b.n, time.Since(b.start).Round(time.Millisecond))}
	}
	return n, err
}

func (b *rateReader) Close() error { return b.r.Close() }

// checkOrigin refuses a request a browser sent from another origin (a
// page elsewhere POSTing to this server: simple cross-origin requests
// get no preflight) unless Options.AllowOrigins lists that origin, for
// which it answers CORS. It reports whether the request may go on
// (false: answered).
func (s *Server) checkOrigin(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || sameOrigin(r, origin) {
		return true
	}
	if !slices.ContainsFunc(s.o.AllowOrigins, func(o string) bool { return o == "*" || strings.EqualFold(o, origin) }) {
		w.Header().Set("Connection", "close") // do not drain a body refused unread
		writeError(w, &APIError{Status: http.StatusForbidden, Type: typeInvalid, Code: "cross_origin",
			Message: fmt.Sprintf("a request from the page of %s is refused: start the server with -allow-origin %s to allow it", origin, origin)})
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" { // a preflight
		h.Set("Access-Control-Allow-Methods", "GET, POST")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
		h.Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
		return false
	}
	return true
}

// sameOrigin reports whether origin is the server's own, the scheme and
// Host the request was sent to.
func sameOrigin(r *http.Request, origin string) bool {
	scheme := "http://"
	if r.TLS != nil {
		scheme = "https://"
	}
	return strings.EqualFold(origin, scheme+r.Host)
}

// needsKey reports whether path is an endpoint that Options.APIKey
// guards: the API, not the page, its assets, its colormaps or /healthz.
func needsKey(path string) bool {
	return path == "/inference" || strings.HasPrefix(path, "/v1/") && path != "/v1/colormaps"
}

// checkKey answers 401 to an API request without the key
// ("Authorization: Bearer KEY", as OpenAI's clients send it) when
// Options.APIKey is set. It reports whether the request may go on.
func (s *Server) checkKey(w http.ResponseWriter, r *http.Request) bool {
	if s.o.APIKey == "" || !needsKey(r.URL.Path) {
		return true
	}
	auth := r.Header.Get("Authorization")
	key, ok := strings.CutPrefix(auth, "Bearer ")
	if ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(key)), []byte(s.o.APIKey)) == 1 {
		return true
	}
	msg := "this server needs an API key: send the header \"Authorization: Bearer KEY\""
	if auth != "" {
		msg = "the API key is not this server's"
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="attend"`)
	w.Header().Set("Connection", "close") // do not drain a body refused unread
	writeError(w, &APIError{Status: http.StatusUnauthorized, Type: typeInvalid, Code: "invalid_api_key", Message: msg})
	return false
}
