package vision

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/attend-go/attend/internal/download"
)

// The default image encoder: MobileNetV2 1.0/224, uint8-quantized,
// trained on ImageNet (Sandler et al. 2018, arXiv:1801.04381), as
// published in google-coral/test_data under the Apache 2.0 licence. This
// module does not ship it; LocateEncoder finds or fetches it. The same
// facts are MobileNetV2's KnownEncoder.
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

// KnownEncoder is a pretrained image encoder that LocateEncoder can find
// in the cache and download by name, and that a feature cache or caption
// model names by its SHA-256.
type KnownEncoder struct {
	Name    string   // the short name a user types: "mobilenet-v2", "mobilenet-edgetpu"
	Aliases []string // other names accepted for it ("v2", "edgetpu")
	Title   string   // for people: "MobileNetV2 1.0/224 uint8"
	File    string   // the file name, in the cache and the source
	URL     string   // where LocateEncoder downloads it from
	SHA256  string   // hex SHA-256 of the file
	Size    int64    // bytes

	depths [numGrids]int // channels of each Grid, known without loading the file
}

// Depth returns the number of channels D of the encoder's feature map g
// (GridShape's d), known without loading the file: 1280 for GridFinal;
// 576 (MobileNetV2) or 768 (MobileNet-EdgeTPU) for GridBlock13. 0 for an
// unknown grid.
func (k *KnownEncoder) Depth(g Grid) int {
	if g < 0 || g >= numGrids {
		return 0
	}
	return k.depths[g]
}

func (k *KnownEncoder) String() string {
	return fmt.Sprintf("%s (%s, SHA-256 %s…)", k.Title, k.File, k.SHA256[:12])
}

var (
	// MobileNetV2 is LocateEncoder's default: MobileNetV2 1.0/224 uint8
	// (ImageNet top-1 about 71%, 301 M multiply-adds), EncoderFile. (The
	// embedded default caption model needs MobileNetEdgeTPU; package
	// captioning asks for the encoder a model names.)
	MobileNetV2 = &KnownEncoder{Name: "mobilenet-v2", Aliases: []string{"v2", "mobilenetv2"},
		Title: "MobileNetV2 1.0/224 uint8", File: EncoderFile, URL: EncoderURL, SHA256: EncoderSHA256, Size: 3610798,
		depths: [numGrids]int{GridFinal: 1280, GridBlock13: 576}}
	// MobileNetEdgeTPU is MobileNet-EdgeTPU 1.0/224 uint8 (Gupta and Tan
	// 2019; ImageNet top-1 75.6%, 990 M multiply-adds), as published in
	// mlcommons/mobile_models under the Apache 2.0 licence.
	MobileNetEdgeTPU = &KnownEncoder{Name: "mobilenet-edgetpu", Aliases: []string{"edgetpu"},
		Title: "MobileNet-EdgeTPU 1.0/224 uint8", File: "mobilenet_edgetpu_224_1.0_uint8.tflite",
		URL:    "https://github.com/mlcommons/mobile_models/raw/main/v0_7/tflite/mobilenet_edgetpu_224_1.0_uint8.tflite",
		SHA256: "5d63cb8ebd518217794221bbcb929ebb89c5ec37d736429a95650e88f9e904fa", Size: 4193912,
		depths: [numGrids]int{GridFinal: 1280, GridBlock13: 768}}
	// KnownEncoders are the encoders LocateEncoder knows, the default
	// first.
	KnownEncoders = []*KnownEncoder{MobileNetV2, MobileNetEdgeTPU}
)

// FindEncoder returns the known encoder called name (its Name or an
// alias, any case) or whose SHA-256 is name (hex, any case), or nil.
func FindEncoder(name string) *KnownEncoder {
	for _, k := range KnownEncoders {
		if strings.EqualFold(name, k.Name) || strings.EqualFold(name, k.SHA256) {
			return k
		}
		for _, a := range k.Aliases {
			if strings.EqualFold(name, a) {
				return k
			}
		}
	}
	return nil
}

// EncoderNames lists the known encoders' names for messages and help:
// "mobilenet-v2 (v2), mobilenet-edgetpu (edgetpu)".
func EncoderNames() string {
	var names []string
	for _, k := range KnownEncoders {
		n := k.Name
		if len(k.Aliases) > 0 {
			n += " (" + strings.Join(k.Aliases, ", ") + ")"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// ErrChecksum means a downloaded or cached encoder file does not have the
// expected SHA-256.
var ErrChecksum = download.ErrChecksum

// LocateOptions configures LocateEncoder. A nil *LocateOptions, or the
// zero value, means defaults; each field documents its own.
type LocateOptions struct {
	// Path is a model file chosen explicitly (a --encoder flag). When set
	// it is the only place looked at, a missing file is an error, and its
	// checksum is not checked (it may be another model). A Path that is no
	// file but the name of a known encoder (FindEncoder: "edgetpu",
	// "mobilenet-v2") selects that encoder instead, which is then looked
	// for in the cache and downloaded like the default. Default: unset.
	Path string
	// Known is the encoder looked for in the cache and downloaded when
	// no file is named. Nil means MobileNetV2.
	Known *KnownEncoder
	// Getenv looks up EncoderEnv; a non-empty value is used like Path.
	// Nil means os.Getenv.
	Getenv func(string) string
	// CacheDir holds the cached model, CacheDir/Known.File. Empty means
	// the attend directory in os.UserCacheDir (for example
	// ~/.cache/attend on Linux).
	CacheDir string
	// NoDownload makes a missing or damaged cache an error (wrapping
	// fs.ErrNotExist or ErrChecksum) instead of a download.
	NoDownload bool
	// URL is where the model is downloaded from. Empty means Known.URL.
	URL string
	// SHA256 is the hex SHA-256 that the cached and downloaded file must
	// have. Empty means Known.SHA256.
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
//  3. the cache, CacheDir/mobilenet_v2_1.0_224_quant.tflite (Known.File
//     for another encoder), used if its SHA-256 matches,
//  4. a download from URL into the cache.
//
// The first two are taken as they are, and a missing file there is an
// error naming it (wrapping fs.ErrNotExist), never a reason to download;
// but an opts.Path that names a known encoder ("edgetpu") rather than a
// file skips them and looks for that encoder in 3 and 4.
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
	named := false
	if k := FindEncoder(o.Path); k != nil && o.Path != "" {
		if _, err := os.Stat(o.Path); errors.Is(err, fs.ErrNotExist) {
			o.Known, o.Path, named = k, "", true
		}
	}
	if o.Known == nil {
		o.Known = MobileNetV2
	}
	if o.URL == "" {
		o.URL = o.Known.URL
	}
	if o.SHA256 == "" {
		o.SHA256 = o.Known.SHA256
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
	if p := o.Getenv(EncoderEnv); p != "" && !named {
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
	f := download.File{What: "the encoder", URL: o.URL, Path: filepath.Join(dir, o.Known.File),
		Hash: sha256.New, HashName: "SHA-256", Sum: o.SHA256, MaxBytes: o.MaxBytes}
	_, err := download.Cached(f)
	switch {
	case err == nil:
		return f.Path, nil
	case errors.Is(err, ErrChecksum):
		err = fmt.Errorf("vision: cached encoder %w", err)
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("vision: cached encoder: %w", err)
	default:
		err = fmt.Errorf("vision: encoder not found in %s (%s; set $%s, or allow the download): %w", dir, o.Known.Title, EncoderEnv, err)
	}
	if o.NoDownload {
		return "", err
	}
	if err := download.Fetch(ctx, f, download.Options{Client: o.Client, Progress: o.Progress, Prefix: "vision: "}); err != nil {
		return "", err
	}
	return f.Path, nil
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
