package vision

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// modelServer serves payload on a loopback server through handler (nil:
// a plain 200 response) and counts requests.
type modelServer struct {
	*httptest.Server
	requests atomic.Int64
}

func newModelServer(t *testing.T, payload []byte, handler http.HandlerFunc) *modelServer {
	t.Helper()
	s := &modelServer{}
	if handler == nil {
		handler = func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(len(payload)))
			w.Write(payload)
		}
	}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		handler(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func testPayload() ([]byte, string) {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 100_000)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	sum := sha256.Sum256(b)
	return b, hex.EncodeToString(sum[:])
}

func noEnv(string) string { return "" }

// dirEntries lists the names in dir, to check that nothing (not even a
// temporary file) was left behind.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestLocateEncoderDownload(t *testing.T) {
	payload, sum := testPayload()
	srv := newModelServer(t, payload, nil)
	dir := filepath.Join(t.TempDir(), "cache", "attend")
	var progress bytes.Buffer
	opts := &LocateOptions{Getenv: noEnv, CacheDir: dir, URL: srv.URL + "/model", SHA256: strings.ToUpper(sum), Client: srv.Client(), Progress: &progress}
	path, err := LocateEncoder(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, EncoderFile); path != want {
		t.Errorf("path %s, want %s", path, want)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, payload) {
		t.Fatalf("cached file: %d bytes, err %v; want the %d payload bytes", len(got), err, len(payload))
	}
	if names := dirEntries(t, dir); len(names) != 1 {
		t.Errorf("cache holds %v, want only %s", names, EncoderFile)
	}
	for _, want := range []string{"downloading the encoder (0.1 MB) from " + srv.URL, "50% of 0.1 MB", "SHA-256 verified"} {
		if !strings.Contains(progress.String(), want) {
			t.Errorf("progress output lacks %q:\n%s", want, progress.String())
		}
	}
	// Second call: served from the cache.
	if _, err := LocateEncoder(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if n := srv.requests.Load(); n != 1 {
		t.Errorf("%d requests, want 1 (the second call must use the cache)", n)
	}
}

func TestLocateEncoderFailedDownloads(t *testing.T) {
	payload, sum := testPayload()
	cases := []struct {
		name     string
		handler  http.HandlerFunc
		sha      string
		maxBytes int64
		is       error
		want     string
	}{
		{
			name: "wrong checksum",
			sha:  strings.Repeat("0", 64),
			is:   ErrChecksum,
			want: "SHA-256 " + sum + ", want 0000",
		},
		{
			name: "truncated body",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", strconv.Itoa(len(payload)))
				w.Write(payload[:len(payload)/2])
			},
			want: "after 50000 bytes: unexpected EOF",
		},
		{
			name: "not found",
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.NotFound(w, r)
			},
			want: "HTTP status 404 Not Found",
		},
		{
			name:     "too large",
			maxBytes: 1000,
			want:     "100000 bytes, more than the limit of 1000",
		},
		{
			name: "too large, no length",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.(http.Flusher).Flush() // chunked: no Content-Length
				w.Write(payload)
			},
			maxBytes: 1000,
			want:     "more than the limit of 1000 bytes",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newModelServer(t, payload, tc.handler)
			dir := t.TempDir()
			sha := sum
			if tc.sha != "" {
				sha = tc.sha
			}
			_, err := LocateEncoder(context.Background(), &LocateOptions{
				Getenv: noEnv, CacheDir: dir, URL: srv.URL, SHA256: sha, Client: srv.Client(), MaxBytes: tc.maxBytes,
			})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), srv.URL) {
				t.Errorf("LocateEncoder: %v\nwant an error naming the URL and containing %q", err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v does not wrap %v", err, tc.is)
			}
			if names := dirEntries(t, dir); len(names) != 0 {
				t.Errorf("cache holds %v after a failed download, want nothing", names)
			}
		})
	}
}

func TestLocateEncoderSources(t *testing.T) {
	payload, sum := testPayload()
	dir := t.TempDir()
	file := filepath.Join(dir, "my.tflite")
	if err := os.WriteFile(file, []byte("any model"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.tflite")
	cache := filepath.Join(dir, "cache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(dir, "corrupt")
	if err := os.MkdirAll(corrupt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cache, EncoderFile), payload, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corrupt, EncoderFile), payload[:10], 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == EncoderEnv {
				return v
			}
			return ""
		}
	}
	cases := []struct {
		name string
		opts LocateOptions
		want string // the path, or for wantErr the error's text
		is   error  // what the error must wrap, if anything
		fail bool
	}{
		{name: "explicit path", opts: LocateOptions{Path: file, Getenv: env(missing)}, want: file},
		{name: "explicit path missing", opts: LocateOptions{Path: missing}, want: "vision: encoder file: stat " + missing, is: fs.ErrNotExist, fail: true},
		{name: "explicit path is a directory", opts: LocateOptions{Path: dir}, want: "is a directory", fail: true},
		{name: "environment", opts: LocateOptions{Getenv: env(file), CacheDir: cache}, want: file},
		{name: "environment missing", opts: LocateOptions{Getenv: env(missing), CacheDir: cache}, want: "vision: $ATTEND_ENCODER: stat " + missing, is: fs.ErrNotExist, fail: true},
		{name: "cache", opts: LocateOptions{Getenv: noEnv, CacheDir: cache}, want: filepath.Join(cache, EncoderFile)},
		{name: "empty cache, no download", opts: LocateOptions{Getenv: noEnv, CacheDir: filepath.Join(dir, "empty"), NoDownload: true}, want: "encoder not found in", is: fs.ErrNotExist, fail: true},
		{name: "corrupt cache, no download", opts: LocateOptions{Getenv: noEnv, CacheDir: corrupt, NoDownload: true}, want: "cached encoder " + filepath.Join(corrupt, EncoderFile) + " has SHA-256", is: ErrChecksum, fail: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newModelServer(t, payload, nil)
			tc.opts.URL, tc.opts.SHA256, tc.opts.Client = srv.URL, sum, srv.Client()
			path, err := LocateEncoder(context.Background(), &tc.opts)
			switch {
			case !tc.fail:
				if err != nil || path != tc.want {
					t.Errorf("LocateEncoder = %q, %v; want %q", path, err, tc.want)
				}
			case err == nil || !strings.Contains(err.Error(), tc.want) || (tc.is != nil && !errors.Is(err, tc.is)):
				t.Errorf("LocateEncoder: %v\nwant an error wrapping %v containing %q", err, tc.is, tc.want)
			}
			if n := srv.requests.Load(); n != 0 {
				t.Errorf("%d requests, want none", n)
			}
		})
	}
}

func TestLocateEncoderReplacesCorruptCache(t *testing.T) {
	payload, sum := testPayload()
	srv := newModelServer(t, payload, nil)
	dir := t.TempDir()
	path := filepath.Join(dir, EncoderFile)
	if err := os.WriteFile(path, []byte("half a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LocateEncoder(context.Background(), &LocateOptions{Getenv: noEnv, CacheDir: dir, URL: srv.URL, SHA256: sum, Client: srv.Client()})
	if err != nil || got != path {
		t.Fatalf("LocateEncoder = %q, %v", got, err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, payload) {
		t.Errorf("the corrupt cache file was not replaced")
	}
}

func TestLocateEncoderCanceled(t *testing.T) {
	payload, sum := testPayload()
	srv := newModelServer(t, payload, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	_, err := LocateEncoder(ctx, &LocateOptions{Getenv: noEnv, CacheDir: dir, URL: srv.URL, SHA256: sum, Client: srv.Client()})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("LocateEncoder with a canceled context: %v, want context.Canceled", err)
	}
	if names := dirEntries(t, dir); len(names) != 0 {
		t.Errorf("cache holds %v, want nothing", names)
	}
}

func TestFindEncoder(t *testing.T) {
	for _, c := range []struct {
		name string
		want *KnownEncoder
	}{
		{"mobilenet-v2", MobileNetV2}, {"V2", MobileNetV2}, {EncoderSHA256, MobileNetV2},
		{"mobilenet-edgetpu", MobileNetEdgeTPU}, {"EdgeTPU", MobileNetEdgeTPU},
		{strings.ToUpper(MobileNetEdgeTPU.SHA256), MobileNetEdgeTPU},
		{"", nil}, {"resnet50", nil}, {"mobilenet_v2_1.0_224_quant.tflite", nil},
	} {
		if got := FindEncoder(c.name); got != c.want {
			t.Errorf("FindEncoder(%q) = %v, want %v", c.name, got, c.want)
		}
	}
	if got, want := EncoderNames(), "mobilenet-v2 (v2, mobilenetv2), mobilenet-edgetpu (edgetpu)"; got != want {
		t.Errorf("EncoderNames() = %q, want %q", got, want)
	}
}

// TestLocateKnownEncoder: a known encoder's name in Path, or Known, looks
// for that encoder's file in the cache and downloads it there; the
// environment variable is not consulted for a name; a file called like a
// name is still a file.
func TestLocateKnownEncoder(t *testing.T) {
	payload, sum := testPayload()
	srv := newModelServer(t, payload, nil)
	dir := t.TempDir()
	env := func(string) string { return filepath.Join(dir, "no-such-file") }
	want := filepath.Join(dir, MobileNetEdgeTPU.File)
	for _, opts := range []*LocateOptions{
		{Path: "edgetpu", Getenv: env, CacheDir: dir, URL: srv.URL, SHA256: sum, Client: srv.Client()},
		{Known: MobileNetEdgeTPU, Getenv: noEnv, CacheDir: dir, NoDownload: true, SHA256: sum},
	} {
		got, err := LocateEncoder(context.Background(), opts)
		if err != nil || got != want {
			t.Fatalf("LocateEncoder(%+v) = %q, %v; want %q", opts, got, err, want)
		}
	}
	if n := srv.requests.Load(); n != 1 {
		t.Errorf("%d requests, want 1 (the second call must use the cache)", n)
	}
	_, err := LocateEncoder(context.Background(), &LocateOptions{Known: MobileNetEdgeTPU, Getenv: noEnv, CacheDir: t.TempDir(), NoDownload: true})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), MobileNetEdgeTPU.Title) {
		t.Errorf("empty cache: %v, want a not-exist error naming %s", err, MobileNetEdgeTPU.Title)
	}
	t.Chdir(dir)
	if err := os.WriteFile("edgetpu", payload, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := LocateEncoder(context.Background(), &LocateOptions{Path: "edgetpu"}); err != nil || got != "edgetpu" {
		t.Errorf("a file called edgetpu: %q, %v; want the file", got, err)
	}
}
