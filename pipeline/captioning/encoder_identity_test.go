package captioning

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/vision"
)

func TestNoteEncoderSHA(t *testing.T) {
	sha := vision.MobileNetEdgeTPU.SHA256
	for _, c := range []struct{ note, want string }{
		{`grid 7x7x1280 layer GridFinal preprocess "CenterCrop 224" encoder_sha256 ` + sha, sha},
		{"encoder_sha256 " + strings.ToUpper(sha) + " more", sha},
		{"", ""},
		{"grid 7x7x1280", ""},
		{"encoder_sha256 abc", ""},
		{"encoder_sha256 " + strings.Repeat("z", 64), ""},
	} {
		if got := noteEncoderSHA(c.note); got != c.want {
			t.Errorf("noteEncoderSHA(%q) = %q, want %q", c.note, got, c.want)
		}
	}
}

// edgeTPUModel writes the fixture model with its features note naming
// MobileNet-EdgeTPU, as a model trained on its features has it.
func edgeTPUModel(t *testing.T) string {
	t.Helper()
	f, err := safetensors.ReadFile(fixtureModel)
	if err != nil {
		t.Fatal(err)
	}
	note := f.Extra[featuresKey]
	if noteEncoderSHA(note) != vision.EncoderSHA256 {
		t.Fatalf("fixture model's note %q does not name MobileNetV2", note)
	}
	f.Extra[featuresKey] = strings.Replace(note, vision.EncoderSHA256, vision.MobileNetEdgeTPU.SHA256, 1)
	path := filepath.Join(t.TempDir(), "edgetpu-model.safetensors")
	if err := safetensors.WriteFile(path, f, safetensors.F32); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCaptionerWrongEncoder: a model trained on MobileNet-EdgeTPU features
// refuses another encoder file, and a cache of other features, with an
// error naming both encoders and the fix; the default model needs
// MobileNetV2.
func TestCaptionerWrongEncoder(t *testing.T) {
	model := edgeTPUModel(t)
	fake := filepath.Join(t.TempDir(), "other.tflite")
	if err := os.WriteFile(fake, []byte("not the encoder"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := NewCaptioner(context.Background(), CaptionerOptions{Model: model, Encoder: fake})
	if err != nil {
		t.Fatal(err)
	}
	if k := c.NeededEncoder(); k != vision.MobileNetEdgeTPU {
		t.Errorf("NeededEncoder() = %v, want MobileNet-EdgeTPU", k)
	}
	_, err = c.Caption(fixtureImage("red-square"), nil)
	for _, want := range []string{vision.MobileNetEdgeTPU.Title, "an encoder this tool does not know", fake, "-encoder mobilenet-edgetpu"} {
		if !errors.Is(err, ErrWrongEncoder) || !strings.Contains(err.Error(), want) {
			t.Errorf("caption with another encoder file: %v; want ErrWrongEncoder saying %q", err, want)
		}
	}

	_, err = NewCaptioner(context.Background(), CaptionerOptions{Model: model, Cache: fixtureCache})
	for _, want := range []string{vision.MobileNetEdgeTPU.Title, vision.MobileNetV2.Title, fixtureCache} {
		if !errors.Is(err, ErrWrongEncoder) || !strings.Contains(err.Error(), want) {
			t.Errorf("cache of MobileNetV2 features: %v; want ErrWrongEncoder saying %q", err, want)
		}
	}

	d, err := NewCaptioner(context.Background(), CaptionerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if k := d.NeededEncoder(); k != vision.MobileNetV2 {
		t.Errorf("default model: NeededEncoder() = %v, want MobileNetV2", k)
	}

	v2, err := shareddata.Lookup(shareddata.EncoderFile)
	if err != nil {
		t.Skip("skipping the real encoder: ", err)
	}
	c, err = NewCaptioner(context.Background(), CaptionerOptions{Model: model, Encoder: v2})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Caption(fixtureImage("red-square"), nil)
	for _, want := range []string{vision.MobileNetEdgeTPU.Title, vision.MobileNetV2.Title} {
		if !errors.Is(err, ErrWrongEncoder) || !strings.Contains(err.Error(), want) {
			t.Errorf("caption with MobileNetV2: %v; want ErrWrongEncoder naming %q", err, want)
		}
	}
}

// TestCaptionerFindsNeededEncoder: with no encoder given, a model trained
// on MobileNet-EdgeTPU features takes that encoder from the user cache
// (its own file name there), not MobileNetV2's.
func TestCaptionerFindsNeededEncoder(t *testing.T) {
	src := shareddata.Path(t, shareddata.EdgeTPUFile)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	t.Setenv(vision.EncoderEnv, "")
	base, err := os.UserCacheDir()
	if err != nil {
		t.Skip("skipping: no user cache directory: ", err)
	}
	if err := os.MkdirAll(filepath.Join(base, "attend"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(src, filepath.Join(base, "attend", vision.MobileNetEdgeTPU.File)); err != nil {
		t.Fatal(err)
	}
	c, err := NewCaptioner(context.Background(), CaptionerOptions{Model: edgeTPUModel(t)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Caption(fixtureImage("red-square"), nil); err != nil {
		t.Fatalf("caption: %v", err)
	}
}
