package speechmodel

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
)

var testdata = filepath.Join("..", "..", "testdata")

func TestLoad(t *testing.T) {
	path := filepath.Join(testdata, "hello.wav")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, path string }{{"file", path}, {"stdin", "-"}} {
		sig, err := Load(tc.path, bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if sig.Rate != SampleRate || sig.Channels != 1 || sig.Frames() != 55015 {
			t.Errorf("%s: %d Hz × %d ch × %d frames, want 16000 × 1 × 55015", tc.name, sig.Rate, sig.Channels, sig.Frames())
		}
	}
}

func TestLoadErrorsNameTheInput(t *testing.T) {
	tests := []struct {
		name, path string
		stdin      []byte
		want       string
		is         error
	}{
		{"missing", "no/such.wav", nil, "no/such.wav", os.ErrNotExist},
		{"text as audio", filepath.Join(testdata, "hello.txt"), nil, "hello.txt", audio.ErrFormat},
		{"empty stdin", "-", nil, "standard input", nil},
	}
	for _, tc := range tests {
		_, err := Load(tc.path, bytes.NewReader(tc.stdin))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v does not name %q", tc.name, err, tc.want)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: error %v is not %v", tc.name, err, tc.is)
		}
	}
}
