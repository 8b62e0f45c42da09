package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

// TestActionableErrors: the mistakes people make get messages that say
// what to do, naming the file.
func TestActionableErrors(t *testing.T) {
	png := filepath.Join("..", "..", "testdata", "gradient.png")
	asrModel := filepath.Join("..", "..", "models", "asr", "default.safetensors")
	encoder, noEncoder := shareddata.Lookup(shareddata.EncoderFile)
	other := filepath.Join(t.TempDir(), "other.png")
	if err := os.WriteFile(other, mustRead(t, fixtureImage("red-square")), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"the speech model", []string{"-model", asrModel, png}, 1,
			[]string{asrModel + " is a speech recognition model (for asr), not an image captioning model"}},
		{"not a model", []string{"-model", "main.go", png}, 1,
			[]string{"main.go is not an attend model file", "not a safetensors file"}},
		{"image over the limit", []string{"inspect", "-max-pixels", "1000", png}, 1,
			[]string{"64x48 = 3072 pixels, over the limit of 1000 pixels (-max-pixels raises the limit)"}},
		{"image over the limit, described", []string{other, "-max-pixels", "100", "-model", fixtureModel, "-cache", fixtureCache}, 1,
			[]string{"over the limit of 100 pixels (-max-pixels raises the limit)"}},
		{"bad limit", []string{"-max-pixels", "0", png}, 2, []string{"-max-pixels 0"}},
	}
	if noEncoder == nil {
		tests = append(tests, struct {
			name   string
			args   []string
			code   int
			stderr []string
		}{"the encoder as the model", []string{"-model", encoder, png}, 1,
			[]string{"is not an attend model file", "(it is a TensorFlow Lite model, such as the image encoder)", "give the image encoder with -encoder"}})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCase(tc.args, nil)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, stderr)
			}
			for _, want := range tc.stderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr %q lacks %q", stderr, want)
				}
			}
			if strings.Contains(stderr, "header length") || strings.Contains(stderr, "DecodeOptions") {
				t.Errorf("stderr %q speaks of internals", stderr)
			}
		})
	}
}

// TestNoEncoderHelp: without an encoder, each image fails saying why and
// the run ends by saying once how to get the one the model needs: the
// flag, the environment variable, the cache path, the URL and its SHA-256
// (MobileNetV2 for the fixture model, MobileNet-EdgeTPU for the embedded
// default).
func TestNoEncoderHelp(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a.png"), filepath.Join(t.TempDir(), "b.png")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, mustRead(t, fixtureImage("red-square")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	none := filepath.Join(t.TempDir(), "none.tflite")
	for _, tc := range []struct {
		name  string
		model []string
		want  []string
	}{
		{"MobileNetV2 model", []string{"-model", fixtureModel}, []string{"-encoder FILE", "$ATTEND_ENCODER", "attend/mobilenet_v2_1.0_224_quant.tflite", "https://github.com/google-coral/test_data/raw/master/mobilenet_v2_1.0_224_quant.tflite", "7aad0c74c5e3c06e5eb3c827e13304fdd68a83da6087d92ee169c24ff9fd4776"}},
		{"the default model", nil, []string{"-encoder FILE", "$ATTEND_ENCODER", "attend/mobilenet_edgetpu_224_1.0_uint8.tflite", "https://github.com/mlcommons/mobile_models/raw/main/v0_7/tflite/mobilenet_edgetpu_224_1.0_uint8.tflite", "5d63cb8ebd518217794221bbcb929ebb89c5ec37d736429a95650e88f9e904fa"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCase(append(tc.model, "-encoder", none, a, b), nil)
			if code != 1 || strings.Count(stderr, "no image encoder") != 2 || strings.Count(stderr, "curl -L -o") != 1 {
				t.Fatalf("exit %d, stderr %q; want each image failed and the help once", code, stderr)
			}
			for _, want := range tc.want {
				if !strings.Contains(stderr, want) {
					t.Errorf("the help lacks %q:\n%s", want, stderr)
				}
			}
		})
	}
}
