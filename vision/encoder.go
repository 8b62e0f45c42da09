package vision

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/attend-go/attend/internal/atomicfile"
)

// The default image encoder: MobileNetV2 1.0/224, uint8-quantized,
// trained on ImageNet (Sandler et al. 2018, arXiv:1801.04381), as
// published in google-coral/test_data under the Apache 2.0 licence. This
// module does not ship it; LocateEncoder finds or fetches it.
const (
	// EncoderFile is the model's file name, in the cache and the source.
	EncoderFile = "mobilenet_v2_1.0_224_quant.tflite"
	// EncoderURL is where LocateEncoder downloads the model from.
	EncoderURL = "https://github.com/google-coral/test_data/raw/master/" + EncoderFile
	// EncoderSHA256 is the SHA-256 of the file (3,610,798 bytes).
	EncoderSHA256 = "7aad0c74c5e3c06e5eb3c827e13304fdd68a83da6087d92ee169c24ff9fd4776"
	// EncoderEnv is the environment variable naming a model file.
	EncoderEnv = "ATTEND_ENCODER"
)

// ErrChecksum means a downloaded or cached encoder file does not have the
// expected SHA-256.
var ErrChecksum = errors.New("vision: checksum mismatch")

// LocateOptions configures LocateEncoder. A nil *LocateOptions, or the
// zero value, means defaults; each field documents its own.
type LocateOptions struct {
	// Path is a model file chosen explicitly (a --encoder flag). When set
	// it is the only place looked at, a missing file is an error, and its
	// checksum is not checked (it may be another model). Default: unset.
	Path string
	// Getenv looks up EncoderEnv; a non-empty value is used like Path.
	// Nil means os.Getenv.
	Getenv func(string) string
	// CacheDir holds the cached model, CacheDir/EncoderFile. Empty means
	// the attend directory in os.UserCacheDir (for example
	// ~/.cache/attend on Linux).
	CacheDir string
	// NoDownload makes a missing or damaged cache an error (wrapping
	// fs.ErrNotExist or ErrChecksum) instead of a download.
	NoDownload bool
	// URL is where the model is downloaded from. Empty means EncoderURL.
	URL string
	// SHA256 is the hex SHA-256 that the cached and downloaded file must
	// have. Empty means EncoderSHA256.
	SHA256 string
	// MaxBytes bounds the download. Zero means 64 MiB.
	MaxBytes int64
	// Client makes the download request. Nil means a client that gives
	// up after 10 minutes; cancel ctx to stop sooner.
	Client *http.Client
	// Progress receives human-readable lines about a download: where
	// from and to, progress every 10%, the result. Nil means silence.
	Progress io.Writer
}

var defaultClient = &http.Client{Timeout: 10 * time.Minute}

// LocateEncoder returns the path of the encoder model, looking in order at
//
//  1. opts.Path (the --encoder flag),
//  2. $ATTEND_ENCODER,
//  3. the cache, CacheDir/mobilenet_v2_1.0_224_quant.tflite, used if its
//     SHA-256 matches,
//  4. a download from URL into the cache.
//
// The first two are taken as they are, and a missing file there is an
// error naming it (wrapping fs.ErrNotExist), never a reason to download.
// A download is written to a temporary file in the cache directory,
// checked against its Content-Length and SHA-256, synced and then renamed
// into place, so the cache never holds a partial or wrong file, and
// concurrent downloads by several processes are safe.
func LocateEncoder(ctx context.Context, opts *LocateOptions) (string, error) {
	var o LocateOptions
	if opts != nil {
		o = *opts
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.URL == "" {
		o.URL = EncoderURL
	}
	if o.SHA256 == "" {
		o.SHA256 = EncoderSHA256
	}
	o.SHA256 = strings.ToLower(o.SHA256)
	if o.MaxBytes == 0 {
		o.MaxBytes = 64 << 20
	}
	if o.Client == nil {
		o.Client = defaultClient
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}

	if o.Path != "" {
		return explicitFile(o.Path, "encoder file")
	}
	if p := o.Getenv(EncoderEnv); p != "" {
		return explicitFile(p, "$"+EncoderEnv)
	}
	dir := o.CacheDir
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("vision: no cache directory for the encoder (set $%s or pass a path): %w", EncoderEnv, err)
		}
		dir = filepath.Join(base, "attend")
	}
	path := filepath.Join(dir, EncoderFile)
	sum, err := fileSHA256(path)
	switch {
	case err == nil && sum == o.SHA256:
		return path, nil
	case err == nil:
		err = fmt.Errorf("%w: cached encoder %s has SHA-256 %s, want %s", ErrChecksum, path, sum, o.SHA256)
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("vision: cached encoder: %w", err)
	default:
		err = fmt.Errorf("vision: encoder not found in %s (set $%s, or allow the download): %w", dir, EncoderEnv, err)
	}
	if o.NoDownload {
		return "", err
	}
	if err := download(ctx, &o, dir, path); err != nil {
		return "", err
	}
	return path, nil
}

// explicitFile checks that a file the user named exists and is a file.
func explicitFile(path, what string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("vision: %s: %w", what, err)
	}
	if st.IsDir() {
		return "", fmt.Errorf("vision: %s %s is a directory, want a .tflite file", what, path)
	}
	return path, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// download fetches o.URL into path through a temporary file in dir.
func download(ctx context.Context, o *LocateOptions, dir, path string) (err error) {
	wrap := func(err error) error {
		return fmt.Errorf("vision: downloading the encoder from %s: %w", o.URL, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return wrap(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.URL, nil)
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
	if resp.ContentLength > o.MaxBytes {
		return wrap(fmt.Errorf("%d bytes, more than the limit of %d", resp.ContentLength, o.MaxBytes))
	}

	tmp, err := atomicfile.Create(path, nil)
	if err != nil {
		return wrap(err)
	}
	defer tmp.Abort() // removes the file unless committed
	fmt.Fprintf(o.Progress, "vision: downloading the encoder (%s) from %s to %s\n", sizeString(resp.ContentLength), o.URL, path)
	h := sha256.New()
	pw := &progressWriter{w: o.Progress, total: resp.ContentLength}
	n, err := io.Copy(io.MultiWriter(tmp, h, pw), io.LimitReader(resp.Body, o.MaxBytes+1))
	switch {
	case err != nil:
		return wrap(fmt.Errorf("after %d bytes: %w", n, err))
	case n > o.MaxBytes:
		return wrap(fmt.Errorf("more than the limit of %d bytes", o.MaxBytes))
	case resp.ContentLength >= 0 && n != resp.ContentLength:
		return wrap(fmt.Errorf("got %d of %d bytes: %w", n, resp.ContentLength, io.ErrUnexpectedEOF))
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != o.SHA256 {
		return wrap(fmt.Errorf("%w: SHA-256 %s, want %s; nothing was saved", ErrChecksum, sum, o.SHA256))
	}
	if err := tmp.Commit(); err != nil {
		return wrap(err)
	}
	fmt.Fprintf(o.Progress, "vision: saved %s (%s, SHA-256 verified)\n", path, sizeString(n))
	return nil
}

// progressWriter reports every 10% of a download of known size.
type progressWriter struct {
	w           io.Writer
	total, done int64
	reported    int64 // tenths reported
}

func (p *progressWriter) Write(b []byte) (int, error) {
	p.done += int64(len(b))
	if p.total > 0 {
		for tenth := p.done * 10 / p.total; p.reported < tenth && p.reported < 9; {
			p.reported++
			fmt.Fprintf(p.w, "vision: %d%% of %s\n", p.reported*10, sizeString(p.total))
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
