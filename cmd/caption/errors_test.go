package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionableErrors: the mistakes people make get messages that say
// what to do, naming the file.
func TestActionableErrors(t *testing.T) {
	png := filepath.Join("..", "..", "testdata", "gradient.png")
	asrModel := filepath.Join("..", "..", "models", "asr", "default.safetensors")
	encoder := filepath.Join("..", "..", "..", "..", "shared", "data", "mobilenet", "mobilenet_v2_1.0_224_quant.tflite")
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
	if _, err := os.Stat(encoder); err == nil {
		tests = append(tests, struct {
			name   string
			args   []string
			code   int
			stderr []string
		}{"the encoder as the model", []string{"-model", encoder, png}, 1,
			[]string{"is not an attend model file", "TensorFlow Lite model: the image encoder is -encoder"}})
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
