package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowUpload is a POST whose body a client sends a byte a second from
// the loopback address 127.0.0.from: its status arrives on done (-1 for
// a connection error).
type slowUpload struct {
	conn net.Conn
	done chan int
}

// startSlowUpload opens a connection to addr from 127.0.0.from and sends
// the headers of a 10 000-byte upload, then a byte a second until the
// server answers or stop is closed.
func startSlowUpload(t *testing.T, addr string, from int, stop <-chan struct{}) *slowUpload {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(from))}, Timeout: 5 * time.Second}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Skipf("cannot dial from 127.0.0.%d (the test needs the whole 127/8 loopback net): %v", from, err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST /v1/audio/transcriptions HTTP/1.1\r\nHost: %s\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 10000\r\n\r\n", addr)
	u := &slowUpload{conn: conn, done: make(chan int, 1)}
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
			if _, err := conn.Write([]byte("-")); err != nil {
				return
			}
		}
	}()
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			u.done <- -1
			return
		}
		resp.Body.Close()
		u.done <- resp.StatusCode
	}()
	return u
}

// TestSlowUploads has ten clients (on ten loopback addresses) send their
// bodies at a byte a second while others send normal requests: the
// normal ones are answered at once, as slow bodies hold no worker's
// place, and the slow ones get 408 soon after the grace period. Bounded:
// 10 slow and 3 normal requests, 20 s at most.
func TestSlowUploads(t *testing.T) {
	const grace = 3 * time.Second
	s := newASRServer(t, Options{Jobs: 1, Queue: 2, MinRate: 1 << 10, RateGrace: grace})
	ts := serve(t, s)
	addr := strings.TrimPrefix(ts.URL, "http://")
	stop := make(chan struct{})
	defer close(stop)
	start := time.Now()
	var slow []*slowUpload
	for i := range 10 {
		slow = append(slow, startSlowUpload(t, addr, 2+i, stop))
	}
	for s.clients.readingNow() < 10 { // every slow body is being read
		if time.Since(start) > grace {
			t.Fatalf("only %d slow uploads are being read after %v", s.clients.readingNow(), grace)
		}
		time.Sleep(5 * time.Millisecond)
	}
	wav := readTestdata(t, "hello.wav")
	for i := range 3 {
		body, ct := form(t, wav)
		status, _, data := do(t, "POST", ts.URL+"/v1/audio/transcriptions", ct, body)
		if status != 200 {
			t.Errorf("normal request %d beside 10 slow uploads: %d %s", i, status, data)
		}
	}
	normal := time.Since(start)
	for i, u := range slow {
		select {
		case status := <-u.done:
			if status != http.StatusRequestTimeout {
				t.Errorf("slow upload %d: status %d, want 408", i, status)
			}
		case <-time.After(time.Until(start.Add(20 * time.Second))):
			t.Fatalf("slow upload %d still unanswered after 20 s", i)
		}
	}
	t.Logf("3 normal requests answered in %v beside 10 slow uploads, cut off after %v", normal.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	if n := len(s.admitted); n != 0 {
		t.Errorf("%d requests still admitted", n)
	}
}

// TestPerClientShare: one address may have only its share of the
// requests in the server; another address is still served.
func TestPerClientShare(t *testing.T) {
	s := newASRServer(t, Options{Jobs: 1, Queue: 3, RateGrace: time.Minute}) // share: 2
	ts := serve(t, s)
	addr := strings.TrimPrefix(ts.URL, "http://")
	stop := make(chan struct{})
	defer close(stop)
	for range 2 {
		startSlowUpload(t, addr, 2, stop)
	}
	// The third must come after the server counted the first two: on a
	// busy machine it could otherwise overtake one of them.
	for deadline := time.Now().Add(5 * time.Second); s.clients.readingNow() < 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of 2 slow uploads counted after 5 s", s.clients.readingNow())
		}
	}
	third := startSlowUpload(t, addr, 2, stop)
	select {
	case status := <-third.done:
		if status != http.StatusTooManyRequests {
			t.Errorf("a third request from 127.0.0.2: status %d, want 429", status)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a third request from 127.0.0.2 was not refused")
	}
	body, ct := form(t, readTestdata(t, "hello.wav"))
	if status, _, data := do(t, "POST", ts.URL+"/v1/audio/transcriptions", ct, body); status != 200 {
		t.Errorf("a request from 127.0.0.1: %d %s", status, data)
	}
}

// TestOrigin: a browser's request from another origin is refused unless
// listed, and listed origins get CORS answers.
func TestOrigin(t *testing.T) {
	s := newASRServer(t, Options{Jobs: 1, AllowOrigins: []string{"https://app.example"}})
	ts := serve(t, s)
	wav := readTestdata(t, "hello.wav")
	for _, tc := range []struct {
		name, method, path, origin string
		status                     int
		allow                      string // Access-Control-Allow-Origin
	}{
		{"no origin", "POST", "/v1/audio/transcriptions", "", 200, ""},
		{"own origin", "POST", "/v1/audio/transcriptions", ts.URL, 200, ""},
		{"other origin", "POST", "/v1/audio/transcriptions", "https://evil.example", 403, ""},
		{"null origin", "POST", "/inference", "null", 403, ""},
		{"other origin GET", "GET", "/v1/models", "http://localhost:1234", 403, ""},
		{"listed origin", "POST", "/v1/audio/transcriptions", "https://app.example", 200, "https://app.example"},
		{"listed preflight", "OPTIONS", "/v1/audio/transcriptions", "https://app.example", 204, "https://app.example"},
		{"other preflight", "OPTIONS", "/v1/audio/transcriptions", "https://evil.example", 403, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			ct := ""
			if tc.method == "POST" {
				body, ct = form(t, wav)
			}
			req, _ := http.NewRequest(tc.method, ts.URL+tc.path, body)
			if ct != "" {
				req.Header.Set("Content-Type", ct)
			}
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.method == "OPTIONS" {
				req.Header.Set("Access-Control-Request-Method", "POST")
				req.Header.Set("Access-Control-Request-Headers", "authorization")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tc.status, data)
			}
			if got := resp.Header.Get("Access-Control-Allow-Origin"); got != tc.allow {
				t.Errorf("Access-Control-Allow-Origin %q, want %q", got, tc.allow)
			}
			if tc.status == 403 && errorOf(t, data).Code != "cross_origin" {
				t.Errorf("403 without the code cross_origin: %s", data)
			}
		})
	}
}

// TestAPIKey: with a key, the API needs "Authorization: Bearer KEY";
// the page, its assets and /healthz do not.
func TestAPIKey(t *testing.T) {
	const key = "sk-test-0123"
	s := newASRServer(t, Options{Jobs: 1, APIKey: key})
	ts := serve(t, s)
	wav := readTestdata(t, "hello.wav")
	for _, tc := range []struct {
		method, path, auth string
		status             int
	}{
		{"POST", "/v1/audio/transcriptions", "", 401},
		{"POST", "/v1/audio/transcriptions", "Bearer wrong", 401},
		{"POST", "/v1/audio/transcriptions", key, 401}, // no "Bearer "
		{"POST", "/v1/audio/transcriptions", "Bearer " + key, 200},
		{"POST", "/inference", "", 401},
		{"POST", "/inference", "Bearer " + key, 200},
		{"GET", "/v1/models", "", 401},
		{"GET", "/v1/models", "Bearer " + key, 200},
		{"GET", "/", "", 200},
		{"GET", "/static/asr.js", "", 200},
		{"GET", "/healthz", "", 200},
		{"GET", "/v1/colormaps", "", 200},
	} {
		var body io.Reader
		ct := ""
		if tc.method == "POST" {
			body, ct = form(t, wav)
		}
		req, _ := http.NewRequest(tc.method, ts.URL+tc.path, body)
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s %s (Authorization %q): status %d, want %d: %.200s", tc.method, tc.path, tc.auth, resp.StatusCode, tc.status, data)
		}
		if tc.status == 401 && (resp.Header.Get("WWW-Authenticate") == "" || errorOf(t, data).Code != "invalid_api_key") {
			t.Errorf("%s %s: 401 without WWW-Authenticate or code invalid_api_key: %s", tc.method, tc.path, data)
		}
	}
}

func TestStaticNotListed(t *testing.T) {
	ts := serve(t, newASRServer(t, Options{Jobs: 1}))
	for path, want := range map[string]int{"/static/": 404, "/static": 404, "/static/asr.js": 200, "/static/nothing.js": 404} {
		status, _, data := do(t, "GET", ts.URL+path, "", nil)
		if status != want {
			t.Errorf("GET %s: %d, want %d: %.200s", path, status, want, data)
		}
		if strings.Contains(string(data), "common.js") && !strings.HasSuffix(path, ".js") {
			t.Errorf("GET %s lists the files: %.200s", path, data)
		}
	}
}

// TestAbort: a shutdown waits for the requests in flight (here a slow
// upload) until Abort, which returns at once.
func TestAbort(t *testing.T) {
	s := newASRServer(t, Options{Jobs: 1, RateGrace: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- s.ListenAndServe(ctx, "127.0.0.1:0", func(a net.Addr) { addr <- a }) }()
	stop := make(chan struct{})
	defer close(stop)
	startSlowUpload(t, (<-addr).String(), 1, stop)
	for s.clients.readingNow() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		t.Fatalf("ListenAndServe returned (%v) with a request in flight", err)
	case <-time.After(300 * time.Millisecond):
	}
	t0 := time.Now()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.Abort(); s.Abort() }() // twice: no panic
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ListenAndServe after Abort: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ListenAndServe still running 5 s after Abort")
	}
	wg.Wait()
	t.Logf("returned %v after Abort", time.Since(t0).Round(time.Millisecond))
}

// TestUploadBoundedByTimeout: however generous the rate's grace, a body
// still arriving at the request's timeout is cut off then.
func TestUploadBoundedByTimeout(t *testing.T) {
	s := newASRServer(t, Options{Jobs: 1, Timeout: time.Second, RateGrace: time.Minute})
	ts := serve(t, s)
	stop := make(chan struct{})
	defer close(stop)
	start := time.Now()
	u := startSlowUpload(t, strings.TrimPrefix(ts.URL, "http://"), 2, stop)
	select {
	case status := <-u.done:
		if status != http.StatusRequestTimeout {
			t.Errorf("status %d, want 408", status)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("cut off after %v, want about the 1 s timeout", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a slow upload outlived the request timeout by 9 s")
	}
}
