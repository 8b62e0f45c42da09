// Package shareddata locates the project's shared data for tests: the
// real image encoder, Flickr8k, speechocean762. It lies outside the
// repository, in shared/data beside the module root (the directory that
// holds go.mod), or beside the directory of git worktrees
// (../../shared/data from a worktree's root). Tests that need it skip
// without it, so the suite passes on a bare checkout.
package shareddata

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"testing"
)

// EncoderFile is the MobileNetV2 TFLite encoder's path below the shared
// data directory.
const EncoderFile = "mobilenet/mobilenet_v2_1.0_224_quant.tflite"

// EdgeTPUFile is the MobileNet-EdgeTPU 1.0/224 uint8 TFLite encoder's path
// below the shared data directory.
const EdgeTPUFile = "mobilenet-edgetpu/mobilenet_edgetpu_224_1.0_uint8.tflite"

// EncoderFor returns the path below the shared data directory of the
// encoder file named file (a vision.KnownEncoder's File: EncoderFile's or
// EdgeTPUFile's base name), so that a test can take the encoder a caption
// model needs, such as the embedded default's. A name that is neither is
// returned as it is, which Lookup then does not find.
func EncoderFor(file string) string {
	for _, rel := range []string{EncoderFile, EdgeTPUFile} {
		if path.Base(rel) == file {
			return rel
		}
	}
	return file
}

// Lookup returns the path of rel (slash-separated, as "flickr8k" or
// EncoderFile) under the shared data directory of the module holding the
// working directory, or an error saying where it was looked for.
func Lookup(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("shareddata: no go.mod above the working directory, so no shared data beside the module root")
		}
		dir = parent
	}
	first := ""
	for _, up := range []string{"..", filepath.Join("..", "..")} {
		p := filepath.Join(dir, up, "shared", "data", filepath.FromSlash(rel))
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		if first == "" {
			first = p
		}
	}
	return "", errors.New("shareddata: " + first + " is absent (the shared data sits beside the module root)")
}

// Path returns the path of rel under the shared data directory (Lookup),
// skipping the test when it is absent.
func Path(t testing.TB, rel string) string {
	t.Helper()
	p, err := Lookup(rel)
	if err != nil {
		t.Skip("skipping: ", err)
	}
	return p
}
