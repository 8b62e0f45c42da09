package whisper

import (
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/attend-go/attend/internal/download"
)

// Published names whisper.cpp's converted checkpoints: the model's size
// on disk and the SHA-1 of ggml-NAME.bin as whisper.cpp's models/README.md
// lists them, served from the Hugging Face repository
// ggerganov/whisper.cpp.
var Published = map[string]struct {
	MiB  int
	SHA1 string
}{
	"tiny":          {75, "bd577a113a864445d4c299885e0cb97d4ba92b5f"},
	"tiny.en":       {75, "c78c86eb1a8faa21b369bcd33207cc90d64ae9df"},
	"base":          {142, "465707469ff3a37a2b9b8d8f89f2f99de7299dac"},
	"base.en":       {142, "137c40403d78fd54d454da0f9bd998f78703390c"},
	"small":         {466, "55356645c2b361a969dfd0ef2c5a50d530afd8d5"},
	"small.en":      {466, "db8a495a91d927739e50b3fc1cc4c6b8f6c2d022"},
	"medium":        {1536, "fd9727b6e1217c2f614f9b698455c4ffd82463b4"},
	"medium.en":     {1536, "8c30f0e44ce9560643ebd10bbe50cd20eafd3723"},
	"large-v1":      {2970, "b1caaf735c4cc1429223d5a74f0f4d0b9b59a299"},
	"large-v2":      {2970, "0f4c8e34f21cf1a914c59d8b3ce882345ad349d6"},
	"large-v2-q5_0": {1127, "00e39f2196344e901b3a2bd5814807a769bd1630"},
	"large-v3":      {2970, "ad82bf6a9043ceed055076d0fd39f5f186ff8062"},
	"large-v3-q5_0": {1127, "e6e2ed78495d403bef4b7cff42ef4aaadcfea8de"},
}

// PublishedURL is where Locate downloads ggml-NAME.bin from.
const PublishedURL = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/"

// PublishedNames returns the names Locate knows, sorted.
func PublishedNames() []string {
	var names []string
	for n := range Published {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// LocateOptions configures Locate; the zero value means defaults.
type LocateOptions struct {
	// CacheDir holds the models as ggml-NAME.bin. Empty means
	// attend/whisper in os.UserCacheDir (~/.cache/attend/whisper on
	// Linux).
	CacheDir string
	// NoDownload makes a missing or damaged cached file an error instead
	// of a download.
	NoDownload bool
	// BaseURL replaces PublishedURL (a mirror, or a test server).
	BaseURL string
	// Client makes the download request; nil means a client that gives
	// up after an hour.
	Client *http.Client
	// Progress receives human-readable download progress; nil means
	// silence.
	Progress io.Writer
}

// ErrUnknownName means a model name is not one Locate knows.
var ErrUnknownName = errors.New("whisper: unknown model name")

// Locate returns the path of whisper.cpp's published checkpoint called
// name (tiny.en, base, large-v3, …; PublishedNames lists them): the
// cached file when its SHA-1 matches, else a download into the cache,
// checked against the SHA-1 before it is kept.
func Locate(ctx context.Context, name string, opts *LocateOptions) (string, error) {
	var o LocateOptions
	if opts != nil {
		o = *opts
	}
	pub, ok := Published[name]
	if !ok {
		return "", fmt.Errorf("%w %q: known names are %s", ErrUnknownName, name, strings.Join(PublishedNames(), ", "))
	}
	if o.CacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("whisper: no cache directory for model %s (give the file's path instead): %w", name, err)
		}
		o.CacheDir = filepath.Join(base, "attend", "whisper")
	}
	if o.BaseURL == "" {
		o.BaseURL = PublishedURL
	}
	file := "ggml-" + name + ".bin"
	f := download.File{What: "Whisper model " + name, URL: strings.TrimSuffix(o.BaseURL, "/") + "/" + file,
		Path: filepath.Join(o.CacheDir, file), Hash: sha1.New, HashName: "SHA-1", Sum: pub.SHA1,
		MaxBytes: int64(pub.MiB+pub.MiB/10+1) << 20}
	_, err := download.Cached(f)
	switch {
	case err == nil:
		return f.Path, nil
	case errors.Is(err, download.ErrChecksum):
		err = fmt.Errorf("whisper: cached model %w", err)
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("whisper: cached model: %w", err)
	default:
		err = fmt.Errorf("whisper: model %s is not in %s (download %s%s there, or allow the download): %w", name, o.CacheDir, PublishedURL, file, err)
	}
	if o.NoDownload {
		return "", err
	}
	if err := download.Fetch(ctx, f, download.Options{Client: o.Client, Progress: o.Progress, Prefix: "whisper: "}); err != nil {
		return "", err
	}
	return f.Path, nil
}
