package speech

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

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

func TestLoadFeatures(t *testing.T) {
	rep, err := LoadFeatures(filepath.Join(testdata, "hello.wav"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Features.Frames != 342 || rep.Features.Bins != 80 || len(rep.Energy) != 342 {
		t.Fatalf("features %d×%d, energy %d; want 342×80", rep.Features.Frames, rep.Features.Bins, len(rep.Energy))
	}
	// The clip ends in silence: the last frames are the quietest.
	if last, mid := rep.Energy[340], rep.Energy[100]; !(last < mid-3) {
		t.Errorf("energy at the silent end %v, mid-speech %v", last, mid)
	}
}

func TestSparkline(t *testing.T) {
	tests := []struct {
		values []float32
		width  int
		want   string
	}{
		{nil, 5, ""},
		{[]float32{1, 2}, 0, ""},
		{[]float32{0, 7}, 2, "▁█"},
		{[]float32{3, 3, 3}, 3, "▁▁▁"},
		{[]float32{0, 0, 7, 7}, 2, "▁█"},
		{[]float32{0, 1}, 10, "▁█"},
	}
	for _, tc := range tests {
		got := Sparkline(tc.values, tc.width)
		if got != tc.want {
			t.Errorf("Sparkline(%v, %d) = %q, want %q", tc.values, tc.width, got, tc.want)
		}
		if n := utf8.RuneCountInString(got); n > tc.width {
			t.Errorf("Sparkline(%v, %d) is %d wide", tc.values, tc.width, n)
		}
	}
}
