package whisper

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/attend-go/attend/internal/download"
)

// TestLocate serves a fake tiny.en from a local server under the
// published name and digest, and checks the download, the cache, a
// corrupt cache, a wrong digest and unknown names.
func TestLocate(t *testing.T) {
	payload := []byte(strings.Repeat("ggml", 5000))
	sum := sha1.Sum(payload)
	const name = "test-model"
	Published[name] = struct {
		MiB  int
		SHA1 string
	}{1, hex.EncodeToString(sum[:])}
	t.Cleanup(func() { delete(Published, name) })
	var requests atomic.Int32
	body := payload
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.URL.Path != "/ggml-"+name+".bin" {
			http.NotFound(w, r)
			return
		}
		w.Write(body)
	}))
	defer srv.Close()
	dir := t.TempDir()
	opts := &LocateOptions{CacheDir: dir, BaseURL: srv.URL}
	ctx := context.Background()

	if _, err := Locate(ctx, name, &LocateOptions{CacheDir: dir, NoDownload: true}); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("empty cache without download: %v, want fs.ErrNotExist", err)
	}
	path, err := Locate(ctx, name, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(payload) || path != filepath.Join(dir, "ggml-"+name+".bin") {
		t.Fatalf("downloaded %s with %d bytes", path, len(got))
	}
	if _, err := Locate(ctx, name, opts); err != nil || requests.Load() != 1 {
		t.Fatalf("second call: %v after %d requests, want the cache and 1 request", err, requests.Load())
	}
	if err := os.WriteFile(path, []byte("damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Locate(ctx, name, &LocateOptions{CacheDir: dir, NoDownload: true}); !errors.Is(err, download.ErrChecksum) {
		t.Fatalf("damaged cache: %v, want ErrChecksum", err)
	}
	body = []byte("something else")
	if _, err := Locate(ctx, name, opts); !errors.Is(err, download.ErrChecksum) || !strings.Contains(err.Error(), "nothing was saved") {
		t.Fatalf("wrong payload: %v, want ErrChecksum", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "damaged" {
		t.Fatalf("a failed download replaced the cached file")
	}
	if _, err := Locate(ctx, "tiny.fr", opts); !errors.Is(err, ErrUnknownName) || !strings.Contains(err.Error(), "tiny.en") {
		t.Fatalf("unknown name: %v", err)
	}
}
