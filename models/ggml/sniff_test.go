package ggml

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

func TestSniff(t *testing.T) {
	st := make([]byte, 8, 64)
	binary.LittleEndian.PutUint64(st, 40)
	st = append(st, `{"__metadata__":{}}`...)
	tests := []struct {
		name   string
		head   []byte
		format Format
		kind   error  // for an error
		want   string // in the error
	}{
		{"ggml", []byte("lmgg\x00\x00\x00\x00"), FormatGGML, nil, ""},
		{"safetensors", st, FormatSafetensors, nil, ""},
		{"gguf", []byte("GGUF\x03\x00\x00\x00"), FormatUnknown, ErrUnsupported, "GGUF is not supported, use whisper.cpp's ggml .bin"},
		{"ggjt", []byte("tjgg\x03\x00\x00\x00"), FormatUnknown, ErrUnsupported, "ggjt"},
		{"pytorch zip", []byte("PK\x03\x04\x14\x00\x00\x00"), FormatUnknown, ErrUnsupported, "models/convert-pt-to-ggml.py"},
		{"pytorch pickle", []byte("\x80\x02\x8a\x0alm\xfc\x9cF\xf9 j\xa8P\x19."), FormatUnknown, ErrUnsupported, "model.safetensors"},
		{"onnx", []byte("\x08\x07\x12\x07pytorch\x1a\x052.1.0"), FormatUnknown, ErrUnsupported, "ONNX"},
		{"lfs pointer", []byte("version https://git-lfs.github.com/spec/v1\noid sha256:"), FormatUnknown, ErrUnsupported, "Git LFS pointer"},
		{"html", []byte("\n<!DOCTYPE html><html><head>"), FormatUnknown, ErrUnsupported, "HTML page"},
		{"empty", nil, FormatUnknown, ErrFormat, "too few"},
		{"text", []byte("hello, this is not a model at all"), FormatUnknown, ErrFormat, "supported are whisper.cpp's ggml .bin"},
		{"zero safetensors length", append(make([]byte, 8), '{'), FormatUnknown, ErrFormat, "unrecognized"},
	}
	for _, tc := range tests {
		got, err := Sniff(tc.head)
		if got != tc.format {
			t.Errorf("%s: format %v, want %v", tc.name, got, tc.format)
		}
		switch {
		case tc.kind == nil && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.kind != nil && (!errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "ggml: ")):
			t.Errorf("%s: error %v, want %v containing %q", tc.name, err, tc.kind, tc.want)
		}
	}
}

// TestSniffFile recognizes the bundle's files by content.
func TestSniffFile(t *testing.T) {
	dir := shareddata.Path(t, "whisper")
	tests := map[string]Format{
		"small-en.ggml-q5_0.bin":         FormatGGML,
		"for-tests-ggml-tiny.bin":        FormatGGML,
		"small-en.hf.safetensors":        FormatSafetensors,
		"mel_filters.safetensors":        FormatSafetensors,
		"small-en.reference.json":        FormatUnknown,
		"LICENSE.openai-whisper":         FormatUnknown,
		"clips/../gpt2.tiktoken":         FormatUnknown,
		"small-v3.ggml-f16.bin":          FormatGGML,
		"small-v3.reference.json":        FormatUnknown,
		"small-en.reference.safetensors": FormatSafetensors,
	}
	for name, want := range tests {
		got, err := SniffFile(filepath.Join(dir, filepath.FromSlash(name)))
		if got != want || (want == FormatUnknown) != (err != nil) {
			t.Errorf("%s: %v, %v; want %v", name, got, err, want)
		}
	}
	short := filepath.Join(t.TempDir(), "short")
	if err := os.WriteFile(short, []byte("lm"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := SniffFile(short); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), short) {
		t.Errorf("2-byte file: %v", err)
	}
	if _, err := SniffFile(filepath.Join(t.TempDir(), "absent")); err == nil {
		t.Error("absent file: no error")
	}
}
