package ggml

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Format is a model file format recognized by its content.
type Format int

// The formats Sniff recognizes as supported.
const (
	FormatUnknown     Format = iota
	FormatGGML               // whisper.cpp's ggml .bin (this package)
	FormatSafetensors        // safetensors, as Hugging Face's model.safetensors
)

func (f Format) String() string {
	switch f {
	case FormatGGML:
		return "ggml"
	case FormatSafetensors:
		return "safetensors"
	}
	return "unknown"
}

// SniffLen is how many bytes of a file's head Sniff needs to tell every
// format it knows apart; fewer are fine for a short file.
const SniffLen = sniffLen

const sniffLen = 64

// supported says what to use instead, for the errors.
const supported = "supported are whisper.cpp's ggml .bin models (f32, f16, q4_0, q4_1, q5_0, q5_1, q8_0) and Hugging Face's model.safetensors"

// convert says how to turn an OpenAI checkpoint into a supported file.
const convert = "convert it with whisper.cpp's models/convert-pt-to-ggml.py, or use model.safetensors from the Hugging Face repository openai/whisper-NAME"

// Sniff recognizes a model file by its first bytes (SniffLen of them, or
// the whole file if shorter): FormatGGML for a whisper.cpp ggml file
// (magic 0x67676d6c little-endian), FormatSafetensors for a safetensors
// file (an 8-byte little-endian header length, then the JSON header's
// '{'). Anything else is an error saying what the file looks like and
// what is supported: wrapping ErrUnsupported for a format it recognizes
// (GGUF, llama.cpp's older ggjt/ggmf, a PyTorch .pt zip archive or
// pickle, ONNX, a Git LFS pointer, an HTML page), ErrFormat otherwise.
func Sniff(head []byte) (Format, error) {
	if len(head) >= 4 {
		switch string(head[:4]) {
		case "lmgg": // Magic, little-endian
			return FormatGGML, nil
		case "GGUF":
			return FormatUnknown, unsupported("a GGUF file; GGUF is not supported, use whisper.cpp's ggml .bin (ggml-NAME.bin from the Hugging Face repository ggerganov/whisper.cpp) or Hugging Face's model.safetensors")
		case "tjgg", "fmgg": // 0x67676a74 "ggjt", 0x67676d66 "ggmf"
			return FormatUnknown, unsupported("llama.cpp's old ggjt/ggmf format, not a whisper.cpp model; " + supported)
		case "PK\x03\x04":
			return FormatUnknown, unsupported("a zip archive, as a PyTorch .pt checkpoint is; PyTorch checkpoints are not read: " + convert)
		}
	}
	if len(head) >= 9 && head[8] == '{' {
		if n := binary.LittleEndian.Uint64(head); n >= 2 && n < 1<<32 {
			return FormatSafetensors, nil
		}
	}
	switch {
	case len(head) >= 2 && head[0] == 0x80 && head[1] >= 2 && head[1] <= 5:
		return FormatUnknown, unsupported(fmt.Sprintf("a Python pickle (protocol %d), as a legacy PyTorch .pt checkpoint is; PyTorch checkpoints are not read: %s", head[1], convert))
	case looksLikeONNX(head):
		return FormatUnknown, unsupported("an ONNX model (protobuf); ONNX is not supported: " + supported)
	case bytes.HasPrefix(head, []byte("version https://git-lfs")):
		return FormatUnknown, unsupported("a Git LFS pointer, not the model itself: fetch the file (git lfs pull, or download it directly); " + supported)
	case looksLikeHTML(head):
		return FormatUnknown, unsupported("an HTML page, not a model (a failed download?); " + supported)
	case len(head) < 9:
		return FormatUnknown, fmt.Errorf("%w: %d bytes are too few to be a model; %s", ErrFormat, len(head), supported)
	}
	return FormatUnknown, fmt.Errorf("%w: unrecognized content (first bytes % x); %s", ErrFormat, head[:min(len(head), 16)], supported)
}

// SniffFile reads the head of the file at path and calls Sniff.
func SniffFile(path string) (Format, error) {
	fh, err := os.Open(path)
	if err != nil {
		return FormatUnknown, fmt.Errorf("ggml: %w", err)
	}
	defer fh.Close()
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(fh, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return FormatUnknown, fmt.Errorf("ggml: reading %s: %w", path, err)
	}
	format, err := Sniff(head[:n])
	if err != nil {
		return format, fmt.Errorf("%w (file %s)", err, path)
	}
	return format, nil
}

func unsupported(what string) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, what)
}

// looksLikeONNX reports whether head starts as an ONNX ModelProto does:
// field 1 (ir_version, a small varint), then another of its fields
// (producer_name 2, producer_version 3, domain 4, model_version 5,
// doc_string 6, graph 7, opset_import 8).
func looksLikeONNX(head []byte) bool {
	if len(head) < 3 || head[0] != 0x08 || head[1] == 0 || head[1] > 20 {
		return false
	}
	switch head[2] {
	case 0x12, 0x1a, 0x22, 0x28, 0x32, 0x3a, 0x42:
		return true
	}
	return false
}

func looksLikeHTML(head []byte) bool {
	s := strings.ToLower(strings.TrimLeft(string(head), " \t\r\n\ufeff"))
	return strings.HasPrefix(s, "<!doctype html") || strings.HasPrefix(s, "<html") || strings.HasPrefix(s, "<?xml")
}

// errKind returns the sentinel err wraps.
func errKind(err error) error {
	for _, kind := range []error{ErrTruncated, ErrUnsupported, ErrFormat} {
		if errors.Is(err, kind) {
			return kind
		}
	}
	return ErrFormat
}

// trimPrefix returns err's message without the sentinel's text.
func trimPrefix(err error) string {
	msg := err.Error()
	for _, kind := range []error{ErrUnsupported, ErrFormat} {
		msg = strings.TrimPrefix(msg, kind.Error()+": ")
	}
	return msg
}
