package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attend-go/attend/pipeline/captioning"
)

// form returns a multipart body with file (when not nil) and fields.
func form(t testing.TB, file []byte, fields ...string) (*bytes.Buffer, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	if file != nil {
		fw, err := w.CreateFormFile("file", "upload.bin")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(file)
	}
	for i := 0; i+1 < len(fields); i += 2 {
		w.WriteField(fields[i], fields[i+1])
	}
	w.Close()
	return &b, w.FormDataContentType()
}

// do sends a request and returns the status, content type and body.
func do(t testing.TB, method, url, contentType string, body io.Reader) (int, string, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), data
}

func readTestdata(t testing.TB, parts ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(append([]string{repoRoot, "testdata"}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// errorOf decodes an OpenAI error body, failing when it is not one.
func errorOf(t testing.TB, body []byte) APIError {
	t.Helper()
	var e struct{ Error *APIError }
	if err := json.Unmarshal(body, &e); err != nil || e.Error == nil || e.Error.Message == "" || e.Error.Type == "" {
		t.Fatalf("not an OpenAI error body: %s", body)
	}
	return *e.Error
}

func TestTranscriptionFormats(t *testing.T) {
	ts := serve(t, newASRServer(t, Options{Jobs: 1}))
	wav := readTestdata(t, "hello.wav")
	tests := []struct {
		name, path, format, contentType string
		check                           func(t *testing.T, body []byte)
	}{
		{"openai json", "/v1/audio/transcriptions", "", "application/json", func(t *testing.T, body []byte) {
			var v map[string]any
			if err := json.Unmarshal(body, &v); err != nil || len(v) != 1 || v["text"] == "" {
				t.Errorf("want {\"text\": …}, got %s", body)
			}
		}},
		{"text", "/v1/audio/transcriptions", "text", "text/plain; charset=utf-8", func(t *testing.T, body []byte) {
			if !strings.HasSuffix(string(body), "\n") || len(body) < 2 {
				t.Errorf("text %q", body)
			}
		}},
		{"srt", "/v1/audio/transcriptions", "srt", "text/plain; charset=utf-8", func(t *testing.T, body []byte) {
			if !strings.HasPrefix(string(body), "1\n00:00:0") {
				t.Errorf("srt %q", body)
			}
		}},
		{"vtt", "/inference", "vtt", "text/vtt; charset=utf-8", func(t *testing.T, body []byte) {
			if !strings.HasPrefix(string(body), "WEBVTT\n\n00:00:0") {
				t.Errorf("vtt %q", body)
			}
		}},
		{"whisper.cpp json", "/inference", "json", "application/json", func(t *testing.T, body []byte) {
			if !strings.HasPrefix(string(body), `{"text":`) {
				t.Errorf("json %s", body)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body, ct := form(t, wav, "model", "whisper-1", "response_format", tc.format)
			if tc.format == "" {
				body, ct = form(t, wav, "model", "whisper-1")
			}
			status, gotCT, data := do(t, "POST", ts.URL+tc.path, ct, body)
			if status != 200 || gotCT != tc.contentType {
				t.Fatalf("status %d, %s: %s", status, gotCT, data)
			}
			tc.check(t, data)
		})
	}
}

func TestVerboseJSON(t *testing.T) {
	ts := serve(t, newASRServer(t, Options{Jobs: 1}))
	body, ct := form(t, readTestdata(t, "hello.wav"), "response_format", "verbose_json",
		"timestamp_granularities[]", "word", "timestamp_granularities[]", "segment")
	status, _, data := do(t, "POST", ts.URL+"/v1/audio/transcriptions", ct, body)
	if status != 200 {
		t.Fatalf("status %d: %s", status, data)
	}
	var v Verbose
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if v.Task != "transcribe" || v.Language != "english" || v.Duration < 3 || v.Text == "" || len(v.Words) == 0 || len(v.Segments) == 0 || v.Attend == nil {
		t.Fatalf("verbose answer %+v", v)
	}
	for i, w := range v.Words {
		if w.End <= w.Start || w.Confidence <= 0 || w.Confidence > 1 || (i > 0 && w.Start < v.Words[i-1].End) {
			t.Errorf("word %d: %+v", i, w)
		}
	}
	words := 0
	for i, c := range v.Attend.Chunks {
		al, err := base64.StdEncoding.DecodeString(c.Alignment)
		if err != nil || len(al) != len(c.Chars)*c.EncoderFrames || c.AlignmentMax <= 0 || c.AlignmentMax > 1 {
			t.Errorf("chunk %d: alignment of %d bytes for %d chars × %d frames (max %v, %v)", i, len(al), len(c.Chars), c.EncoderFrames, c.AlignmentMax, err)
		}
		mel, err := base64.StdEncoding.DecodeString(c.Mel)
		if err != nil || len(mel) != c.MelFrames*c.MelBins || c.MelBins != 80 || !(c.MelHi > c.MelLo) {
			t.Errorf("chunk %d: mel of %d bytes for %d × %d (%v..%v, %v)", i, len(mel), c.MelFrames, c.MelBins, c.MelLo, c.MelHi, err)
		}
		if c.FirstWord != words {
			t.Errorf("chunk %d: first word %d, want %d", i, c.FirstWord, words)
		}
		words += c.Words
	}
	if words != len(v.Words) {
		t.Errorf("the chunks hold %d words, the answer %d", words, len(v.Words))
	}
	// Compact: the alignment and spectrogram of 3.4 s take well under a
	// byte per weight in JSON.
	if len(data) > 64<<10 {
		t.Errorf("verbose_json of 3.4 s is %d bytes", len(data))
	}
	// include_attention=false leaves attend's extras out.
	body, ct = form(t, readTestdata(t, "hello.wav"), "response_format", "verbose_json", "include_attention", "false")
	if _, _, data = do(t, "POST", ts.URL+"/v1/audio/transcriptions", ct, body); bytes.Contains(data, []byte(`"attend"`)) || bytes.Contains(data, []byte(`"words"`)) {
		t.Errorf("include_attention=false, segment granularity: %s", data)
	}
}

func TestErrors(t *testing.T) {
	s := newASRServer(t, Options{Jobs: 1, MaxBytes: 200 << 10, Timeout: 2 * time.Second})
	ts := serve(t, s)
	wav := readTestdata(t, "hello.wav")
	post := func(file []byte, fields ...string) (io.Reader, string) {
		b, ct := form(t, file, fields...)
		return b, ct
	}
	type req struct {
		body io.Reader
		ct   string
	}
	mk := func(b io.Reader, ct string) req { return req{b, ct} }
	tests := []struct {
		name   string
		method string
		path   string
		req    req
		status int
		param  string
	}{
		{"no file", "POST", "/v1/audio/transcriptions", mk(post(nil, "model", "whisper-1")), 400, "file"},
		{"bad format", "POST", "/v1/audio/transcriptions", mk(post(wav, "response_format", "xml")), 400, "response_format"},
		{"bad granularity", "POST", "/v1/audio/transcriptions", mk(post(wav, "timestamp_granularities[]", "char")), 400, "timestamp_granularities[]"},
		{"other language", "POST", "/v1/audio/transcriptions", mk(post(wav, "language", "de")), 400, "language"},
		{"not audio", "POST", "/v1/audio/transcriptions", mk(post([]byte("hello, this is text"))), 415, "file"},
		{"truncated wav header", "POST", "/inference", mk(post(wav[:30])), 415, "file"},
		{"raw body", "POST", "/v1/audio/transcriptions", mk(bytes.NewReader(wav[:1000]), "audio/wav"), 415, ""},
		{"no content type", "POST", "/inference", mk(bytes.NewReader(wav[:1000]), ""), 415, ""},
		{"urlencoded", "POST", "/inference", mk(strings.NewReader("file=x"), "application/x-www-form-urlencoded"), 415, ""},
		{"too large", "POST", "/v1/audio/transcriptions", mk(post(make([]byte, 300<<10))), 413, ""},
		{"no such endpoint", "GET", "/v1/nothing", mk(nil, ""), 404, ""},
		{"wrong method", "GET", "/v1/audio/transcriptions", mk(nil, ""), 405, ""},
		{"wrong method, whisper.cpp", "PUT", "/inference", mk(nil, ""), 405, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, ct, data := do(t, tc.method, ts.URL+tc.path, tc.req.ct, tc.req.body)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %s", status, tc.status, data)
			}
			if ct != "application/json" {
				t.Errorf("content type %q", ct)
			}
			if e := errorOf(t, data); e.Param != tc.param {
				t.Errorf("param %q, want %q (%s)", e.Param, tc.param, data)
			}
		})
	}
}

func TestBusy(t *testing.T) {
	s := newASRServer(t, Options{Jobs: 1, Queue: -1, Timeout: 300 * time.Millisecond})
	ts := serve(t, s)
	wav := readTestdata(t, "hello.wav")
	// The one worker is busy: a request waits for the whole timeout, then 503.
	s.working <- struct{}{}
	body, ct := form(t, wav)
	status, _, data := do(t, "POST", ts.URL+"/v1/audio/transcriptions", ct, body)
	if status != 503 || errorOf(t, data).Type != typeBusy {
		t.Errorf("worker busy: status %d, %s", status, data)
	}
	<-s.working
	// The queue is full (one admitted, none may wait): 429 at once.
	release, err := s.admit()
	if err != nil {
		t.Fatal(err)
	}
	body, ct = form(t, wav)
	status, _, data = do(t, "POST", ts.URL+"/v1/audio/transcriptions", ct, body)
	if status != 429 || errorOf(t, data).Code != "queue_full" {
		t.Errorf("queue full: status %d, %s", status, data)
	}
	release()
	body, ct = form(t, wav)
	if status, _, data = do(t, "POST", ts.URL+"/v1/audio/transcriptions", ct, body); status != 200 {
		t.Errorf("free again: status %d, %s", status, data)
	}
}

func TestHealthModelsPage(t *testing.T) {
	ts := serve(t, newASRServer(t, Options{Jobs: 1}))
	for _, tc := range []struct{ path, ct, want string }{
		{"/healthz", "application/json", `"status":"ok"`},
		{"/v1/models", "application/json", `"object":"list"`},
		{"/v1/colormaps", "application/json", `"inferno":[0,0,4,`},
		{"/", "text/html; charset=utf-8", `src="/static/asr.js"`},
		{"/static/asr.js", "text/javascript; charset=utf-8", "MediaRecorder"},
		{"/static/app.css", "text/css; charset=utf-8", ".word"},
	} {
		status, ct, data := do(t, "GET", ts.URL+tc.path, "", nil)
		if status != 200 || ct != tc.ct || !strings.Contains(string(data), tc.want) {
			t.Errorf("GET %s: %d %s, want %s containing %q:\n%.300s", tc.path, status, ct, tc.ct, tc.want, data)
		}
	}
}

// TestGracefulShutdown stops the server while a request waits for a
// worker: the request is still answered, and ListenAndServe returns.
func TestGracefulShutdown(t *testing.T) {
	s := newASRServer(t, Options{Jobs: 1})
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- s.ListenAndServe(ctx, "127.0.0.1:0", func(a net.Addr) { addr <- a }) }()
	url := "http://" + (<-addr).String()
	s.working <- struct{}{} // hold the worker
	answered := make(chan int, 1)
	go func() {
		body, ct := form(t, readTestdata(t, "hello.wav"))
		status, _, _ := do(t, "POST", url+"/v1/audio/transcriptions", ct, body)
		answered <- status
	}()
	for len(s.admitted) == 0 { // the request is in, waiting
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	time.Sleep(50 * time.Millisecond)
	<-s.working // let it work
	if status := <-answered; status != 200 {
		t.Errorf("the request in flight got %d", status)
	}
	if err := <-done; err != nil {
		t.Errorf("ListenAndServe: %v", err)
	}
	// A Host that is no loopback name is refused (DNS rebinding).
	if loopbackHost("attacker.example:8080") || !loopbackHost("localhost:8080") || !loopbackHost("[::1]:1") || !loopbackHost("127.0.0.1") {
		t.Error("loopbackHost")
	}
}

func TestCaptionAPI(t *testing.T) {
	c := newCaptioner(t)
	s, err := NewCaption(CaptionConfig{Captioner: c, ModelID: "test"}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	ts := serve(t, s)
	photo := readTestdata(t, "photos", "coffee.jpg")
	body, ct := form(t, photo, "beam", "4", "alternatives", "2")
	status, _, data := do(t, "POST", ts.URL+"/v1/captions", ct, body)
	if status != 200 {
		t.Fatalf("status %d: %s", status, data)
	}
	var a CaptionAnswer
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if a.Caption.Caption == "" || len(a.Words) == 0 || len(a.Attention) != len(a.Words) || len(a.Beta) != len(a.Words) ||
		a.GridH != 7 || a.GridW != 7 || len(a.Alternatives) != 2 || a.Beam != 4 || a.Width == 0 {
		t.Fatalf("answer %s", data)
	}
	// The encoder's labels of the same pass: an espresso is what
	// ImageNet's classes make of the coffee cup; the confidence in [0, 1];
	// the familiarity of the default model's memory, low for a cup.
	if a.Familiarity == nil {
		t.Fatalf("no familiarity: %s", data)
	}
	low := float64(a.Confidence) < captioning.LowConfidence || float64(*a.Familiarity) < captioning.LowFamiliarity
	if len(a.Labels) != captioning.TopLabels || a.Labels[0].Label != "espresso" || a.Labels[0].Prob < 0.5 ||
		!(a.Confidence >= 0 && a.Confidence <= 1) || a.LowConfidence != low || !a.LowConfidence {
		t.Errorf("labels %v, confidence %v, familiarity %v (low %v)", a.Labels, a.Confidence, *a.Familiarity, a.LowConfidence)
	}
	for i, g := range a.Attention {
		var sum float32
		for _, row := range g {
			for _, v := range row {
				sum += v
			}
		}
		if len(g) != 7 || sum < 0.99 || sum > 1.01 {
			t.Errorf("word %d: %d rows summing to %v", i, len(g), sum)
		}
	}
	// A raw body, parameters in the query.
	status, _, data = do(t, "POST", ts.URL+"/v1/captions?beam=1", "image/jpeg", bytes.NewReader(photo))
	if status != 200 || !strings.Contains(string(data), `"beam":1`) {
		t.Errorf("raw body: %d %.200s", status, data)
	}
	for _, tc := range []struct {
		name, url, ct string
		body          []byte
		status        int
	}{
		{"bad beam", "/v1/captions?beam=0", "image/jpeg", photo, 400},
		{"not an image", "/v1/captions", "application/octet-stream", []byte("GIF89a\x10\x00\x10\x00\x80\x00\x00"), 400},
		{"text", "/v1/captions", "application/octet-stream", []byte("plain words, no picture"), 415},
		{"empty", "/v1/captions", "image/png", nil, 400},
	} {
		status, _, data := do(t, "POST", ts.URL+tc.url, tc.ct, bytes.NewReader(tc.body))
		if status != tc.status {
			t.Errorf("%s: status %d, want %d: %s", tc.name, status, tc.status, data)
		}
		errorOf(t, data)
	}
	// An image over the pixel limit is refused from its header.
	small, err := NewCaption(CaptionConfig{Captioner: c, MaxPixels: 1000}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	ts2 := serve(t, small)
	if status, _, data := do(t, "POST", ts2.URL+"/v1/captions", "image/jpeg", bytes.NewReader(photo)); status != 413 {
		t.Errorf("too many pixels: %d %s", status, data)
	}
}
