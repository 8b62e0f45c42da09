package batch

import (
	"bytes"
	"errors"
	"image"
	"path/filepath"
	"strings"

	// The decoders package vision reads (JPEG, PNG, GIF, BMP, TIFF,
	// WebP), registered with package image for IsImage.
	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"

	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"

	"github.com/attend-go/attend/audio"
)

// SniffLen is how many leading bytes of each file a directory walk reads
// for CollectOptions.Accept by default: audio.SniffLen plus room for a
// small ID3v2 tag.
const SniffLen = 4096

// IsAudio is a CollectOptions.Accept for speech: it takes a file whose
// first bytes are a format package audio decodes (audio.Sniff), and also
// a file whose name ends in a common audio extension whatever its bytes,
// so that an empty, truncated or unsupported recording (clip.m4a) is
// reported as a failure with its reason instead of being passed over in
// silence.
func IsAudio(path string, head []byte) bool {
	if _, err := audio.Sniff(head); err == nil {
		return true
	}
	return hasExt(path, audioExts)
}

// IsImage is a CollectOptions.Accept for images: it takes a file whose
// first bytes match the magic of a decoder package vision reads (JPEG,
// PNG, GIF, BMP, TIFF, WebP; this package registers the same decoders
// with package image), and also
// a file whose name ends in a common image extension whatever its bytes
// (so that a HEIC photo or an empty .jpg is reported, not ignored).
//
// The magic check is image.DecodeConfig's: an image.ErrFormat answer
// means no registered format recognized the bytes; any other answer (the
// header decoded, or a decoder failed on the truncated head) means one
// did.
func IsImage(path string, head []byte) bool {
	if _, _, err := image.DecodeConfig(bytes.NewReader(head)); !errors.Is(err, image.ErrFormat) {
		return true
	}
	return hasExt(path, imageExts)
}

var (
	audioExts = []string{".wav", ".wave", ".flac", ".ogg", ".oga", ".mp3", ".opus", ".m4a", ".aac", ".wma", ".aif", ".aiff", ".webm", ".mka"}
	imageExts = []string{".jpg", ".jpeg", ".png", ".gif", ".bmp", ".tif", ".tiff", ".webp", ".heic", ".heif", ".avif", ".jxl"}
)

func hasExt(path string, exts []string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range exts {
		if ext == e {
			return true
		}
	}
	return false
}
