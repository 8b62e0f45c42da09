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
// error naming both encoders and the fix; so does the default model,
// which needs MobileNet-EdgeTPU, given MobileNetV2.
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

	v2, err := shareddata.Lookup(shareddata.EncoderFile)
	if err != nil {
		t.Skip("skipping the real encoder: ", err)
	}
	for _, m := range []string{model, ""} { // "": the embedded default
		c, err = NewCaptioner(context.Background(), CaptionerOptions{Model: m, Encoder: v2})
		if err != nil {
			t.Fatal(err)
		}
		if k := c.NeededEncoder(); k != vision.MobileNetEdgeTPU {
			t.Errorf("model %q: NeededEncoder() = %v, want MobileNet-EdgeTPU", m, k)
		}
		_, err = c.Caption(fixtureImage("red-square"), nil)
		for _, want := range []string{vision.MobileNetEdgeTPU.Title, vision.MobileNetV2.Title} {
			if !errors.Is(err, ErrWrongEncoder) || !strings.Contains(err.Error(), want) {
				t.Errorf("model %q, caption with MobileNetV2: %v; want ErrWrongEncoder naming %q", m, err, want)
			}
		}
	}
}

// TestCaptionerFindsNeededEncoder: with no encoder given, each model takes
// the encoder its features came from out of the user cache (each under its
// own file name there), with both encoders cached: a MobileNetV2 model
// MobileNetV2's file, one trained on MobileNet-EdgeTPU features and the
// embedded default model (DefaultEncoder) MobileNet-EdgeTPU's. Taking the
// other file would fail with ErrWrongEncoder.
func TestCaptionerFindsNeededEncoder(t *testing.T) {
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
	for _, k := range []*vision.KnownEncoder{vision.MobileNetV2, vision.MobileNetEdgeTPU} {
		src := shareddata.Path(t, shareddata.EncoderFor(k.File))
		if err := os.Symlink(src, filepath.Join(base, "attend", k.File)); err != nil {
			t.Fatal(err)
		}
	}
	if DefaultEncoder() != vision.MobileNetEdgeTPU {
		t.Errorf("DefaultEncoder() = %v, want MobileNet-EdgeTPU (the embedded model's features note names it)", DefaultEncoder())
	}
	for _, tc := range []struct {
		name, model string
		want        *vision.KnownEncoder
	}{
		{"MobileNetV2 model", fixtureModel, vision.MobileNetV2},
		{"MobileNet-EdgeTPU model", edgeTPUModel(t), vision.MobileNetEdgeTPU},
		{"embedded default", "", DefaultEncoder()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewCaptioner(context.Background(), CaptionerOptions{Model: tc.model, Beam: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if k := c.NeededEncoder(); k != tc.want {
				t.Errorf("NeededEncoder() = %v, want %v", k, tc.want)
			}
			if _, err := c.Caption(fixtureImage("red-square"), nil); err != nil {
				t.Fatalf("caption: %v", err)
			}
		})
	}
}
