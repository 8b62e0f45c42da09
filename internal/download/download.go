// Package download fetches a model file over HTTP into a cache, checked
// against a known digest, so that a cache never holds a partial or wrong
// file. The image encoder (package vision) and Whisper checkpoints named
// by size (pipeline) use it.
package download

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/attend-go/attend/internal/atomicfile"
)

// ErrChecksum means a downloaded or cached file does not have the
// expected digest.
var ErrChecksum = errors.New("checksum mismatch")

// File is one file to fetch.
type File struct {
	// What names the file in messages ("the encoder", "Whisper model tiny.en").
	What string
	// URL is where it is downloaded from.
	URL string
	// Path is where it is kept.
	Path string
	// Hash makes the digest the file must have (sha256.New, sha1.New),
	// HashName names it in messages ("SHA-256") and Sum is its value in
	// hex.
	Hash     func() hash.Hash
	HashName string
	Sum      string
	// MaxBytes bounds the download.
	MaxBytes int64
}

// Options are how to download. The zero value means defaults.
type Options struct {
	// Client makes the request. Nil means a client that gives up after
	// an hour; cancel the context to stop sooner.
	Client *http.Client
	// Progress receives human-readable lines: where from and to, every
	// 10 %, the result. Nil means silence.
	Progress io.Writer
	// Prefix starts every progress line and error ("vision: ").
	Prefix string
}

var defaultClient = &http.Client{Timeout: time.Hour}

// Cached reports whether f.Path holds the file with the right digest:
// (true, nil) when it does, (false, err) with err wrapping fs.ErrNotExist
// when it is absent or ErrChecksum when it differs, and other errors when
// it cannot be read.
func Cached(f File) (bool, error) {
	sum, err := fileSum(f.Path, f.Hash)
	switch {
	case err != nil:
		return false, err
	case sum != strings.ToLower(f.Sum):
		return false, fmt.Errorf("%s has %s %s, want %s: %w", f.Path, f.HashName, sum, f.Sum, ErrChecksum)
	}
	return true, nil
}

func fileSum(path string, newHash func() hash.Hash) (string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	h := newHash()
	if _, err := io.Copy(h, fh); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Fetch downloads f.URL to f.Path through a temporary file beside it,
// checked against its Content-Length, f.MaxBytes and its digest, synced
// and renamed into place, so that concurrent downloads by several
// processes are safe and a failure leaves nothing behind.
func Fetch(ctx context.Context, f File, o Options) (err error) {
	if o.Client == nil {
		o.Client = defaultClient
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	wrap := func(err error) error {
		return fmt.Errorf("%sdownloading %s from %s: %w", o.Prefix, f.What, f.URL, err)
	}
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
		return wrap(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.URL, nil)
	if err != nil {
		return wrap(err)
	}
	resp, err := o.Client.Do(req)
	if err != nil {
		return wrap(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return wrap(fmt.Errorf("HTTP status %s", resp.Status))
	}
	if resp.ContentLength > f.MaxBytes {
		return wrap(fmt.Errorf("%d bytes, more than the limit of %d", resp.ContentLength, f.MaxBytes))
	}
	tmp, err := atomicfile.Create(f.Path, nil)
	if err != nil {
		return wrap(err)
	}
	defer tmp.Abort() // removes the file unless committed
	fmt.Fprintf(o.Progress, "%sdownloading %s (%s) from %s to %s\n", o.Prefix, f.What, sizeString(resp.ContentLength), f.URL, f.Path)
	h := f.Hash()
	pw := &progressWriter{w: o.Progress, prefix: o.Prefix, total: resp.ContentLength}
	n, err := io.Copy(io.MultiWriter(tmp, h, pw), io.LimitReader(resp.Body, f.MaxBytes+1))
	switch {
	case err != nil:
		return wrap(fmt.Errorf("after %d bytes: %w", n, err))
	case n > f.MaxBytes:
		return wrap(fmt.Errorf("more than the limit of %d bytes", f.MaxBytes))
	case resp.ContentLength >= 0 && n != resp.ContentLength:
		return wrap(fmt.Errorf("got %d of %d bytes: %w", n, resp.ContentLength, io.ErrUnexpectedEOF))
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != strings.ToLower(f.Sum) {
		return wrap(fmt.Errorf("%w: %s %s, want %s; nothing was saved", ErrChecksum, f.HashName, sum, f.Sum))
	}
	if err := tmp.Commit(); err != nil {
		return wrap(err)
	}
	fmt.Fprintf(o.Progress, "%ssaved %s (%s, %s verified)\n", o.Prefix, f.Path, sizeString(n), f.HashName)
	return nil
}

// IsMissing reports whether err says a cached file is absent or damaged.
func IsMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrChecksum)
}

// progressWriter reports every 10 % of a download of known size.
type progressWriter struct {
	w           io.Writer
	prefix      string
	total, done int64
	reported    int64 // tenths reported
}

func (p *progressWriter) Write(b []byte) (int, error) {
	p.done += int64(len(b))
	if p.total > 0 {
		for tenth := p.done * 10 / p.total; p.reported < tenth && p.reported < 9; {
			p.reported++
			fmt.Fprintf(p.w, "%s%d%% of %s\n", p.prefix, p.reported*10, sizeString(p.total))
		}
	}
	return len(b), nil
}

func sizeString(n int64) string {
	if n < 0 {
		return "size unknown"
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
