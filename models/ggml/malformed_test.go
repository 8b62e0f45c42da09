package ggml

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

// TestReadTruncated cuts files at many offsets: every cut is an error
// wrapping ErrTruncated that names an offset, never a panic.
func TestReadTruncated(t *testing.T) {
	files := map[string][]byte{"synthetic": encode(t, synthFile(t, 3)), "header-only": headerOnly(t)}
	if p, err := shareddata.Lookup("whisper/for-tests-ggml-tiny.en.bin"); err == nil {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files["for-tests-ggml-tiny.en.bin"] = raw
	}
	for name, raw := range files {
		if _, err := decode(raw); err != nil {
			t.Fatalf("%s: the whole file fails: %v", name, err)
		}
		for _, n := range cuts(len(raw)) {
			g, err := decode(raw[:n])
			if err == nil {
				// A cut right after the vocabulary or a tensor leaves a
				// shorter valid file, which must be that prefix.
				if n < 4 || !bytes.Equal(encode(t, g), raw[:n]) {
					t.Fatalf("%s cut at %d of %d: no error", name, n, len(raw))
				}
				continue
			}
			if n >= 4 && (!errors.Is(err, ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF)) {
				t.Fatalf("%s cut at %d: %v does not wrap ErrTruncated", name, n, err)
			}
			var fe *FormatError
			if !strings.HasPrefix(err.Error(), "ggml: ") || !errors.As(err, &fe) || fe.Offset > int64(n) {
				t.Fatalf("%s cut at %d: %v", name, n, err)
			}
		}
	}
}

// cuts returns the lengths to cut a file of n bytes at: every one for a
// small file, else the first 2,048, then about 1,000 spread over the rest.
func cuts(n int) []int {
	var out []int
	for i := 0; i < n; i++ {
		out = append(out, i)
		if i >= 2048 {
			i += (n - 2048) / 1000
		}
	}
	return out
}

// field is a 4-byte header field of the synthetic file, located by
// parsing it the way Read does.
type field struct {
	name string
	off  int
}

// fields returns the offsets of the header fields of the file f encodes.
func fields(f *File) []field {
	var out []field
	off := 0
	add := func(name string) { out = append(out, field{name, off}); off += 4 }
	add("magic")
	for _, fl := range f.Hyper.fields() {
		add(fl.name)
	}
	add("n_mel")
	add("n_fft")
	off += 4 * len(f.Filters.Data)
	add("n_vocab stored")
	for i, tok := range f.Vocab {
		add(fmt.Sprintf("token %d length", i))
		off += len(tok)
	}
	for _, tn := range f.Tensors {
		add(tn.Name + " n_dims")
		add(tn.Name + " name_len")
		add(tn.Name + " type")
		for d := range tn.Shape {
			add(fmt.Sprintf("%s ne[%d]", tn.Name, d))
		}
		off += len(tn.Name) + len(tn.Data)
	}
	return out
}

// TestReadCorruptFields sets every header field of a synthetic file to
// hostile values: each result is a clean error or, where the value is
// harmless, a file that reads; never a panic, and never an allocation
// beyond the file (the values include 2³¹−1 counts).
func TestReadCorruptFields(t *testing.T) {
	f := synthFile(t, 4)
	raw := encode(t, f)
	values := []int32{0, -1, 1, 2, 5, 7, 4, 12, 1 << 20, -1 << 31, 1<<31 - 1}
	for _, fl := range fields(f) {
		for _, v := range values {
			bad := bytes.Clone(raw)
			binary.LittleEndian.PutUint32(bad[fl.off:], uint32(v))
			g, err := decode(bad)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "ggml: ") || !(errors.Is(err, ErrFormat) || errors.Is(err, ErrTruncated) || errors.Is(err, ErrUnsupported)) {
					t.Errorf("%s = %d: error %v has no prefix or sentinel", fl.name, v, err)
				}
				continue
			}
			// Accepted: the file must still be consistent.
			if _, err := decode(encode(t, g)); err != nil {
				t.Errorf("%s = %d: read, but does not round-trip: %v", fl.name, v, err)
			}
		}
	}
}

// TestReadErrors checks the messages of specific faults.
func TestReadErrors(t *testing.T) {
	good := encode(t, synthFile(t, 5))
	f := synthFile(t, 5)
	at := map[string]int{}
	for _, fl := range fields(f) {
		at[fl.name] = fl.off
	}
	set := func(name string, v int32) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint32(b[at[name]:], uint32(v))
		return b
	}
	dup := synthFile(t, 5)
	dup.Tensors[2].Name, dup.Tensors[2].Data = dup.Tensors[1].Name, dup.Tensors[1].Data
	dup.Tensors[2].Type, dup.Tensors[2].Shape = dup.Tensors[1].Type, dup.Tensors[1].Shape
	dupRaw := encode(t, &File{Hyper: dup.Hyper, Filters: dup.Filters, Vocab: dup.Vocab, Tensors: dup.Tensors[:2]})
	dupRaw = append(dupRaw, dupRaw[len(dupRaw)-(12+4+len("bias")+20):]...)
	tests := []struct {
		name string
		raw  []byte
		kind error
		want string
	}{
		{"empty", nil, ErrFormat, "too few"},
		{"gguf", []byte("GGUF\x03\x00\x00\x00 and more bytes than that"), ErrUnsupported, "GGUF is not supported"},
		{"bad magic", append([]byte("lmgh"), good[4:]...), ErrFormat, "not a whisper.cpp ggml file"},
		{"negative vocab", set("n_vocab", -3), ErrFormat, "n_vocab is -3"},
		{"k-quant ftype", set("ftype", 2012), ErrUnsupported, "file type"},
		{"huge filters", set("n_mel", 1<<30), ErrTruncated, "mel filters: "},
		{"negative filters", set("n_fft", -1), ErrFormat, "must not be negative"},
		{"huge vocab", set("n_vocab stored", 1<<30), ErrTruncated, "tokens need at least"},
		{"huge token", set("token 1 length", 1<<30), ErrTruncated, "token 1 of 5 is 1073741824 bytes"},
		{"n_dims", set("bias n_dims", 5), ErrFormat, "n_dims 5"},
		{"name length", set("bias name_len", 0), ErrFormat, "name is 0 bytes"},
		{"k-quant tensor", set("bias type", 12), ErrUnsupported, "q4_K"},
		{"unknown tensor type", set("bias type", 99), ErrUnsupported, "type 99"},
		{"zero dim", set("bias ne[0]", 0), ErrFormat, "must be positive"},
		{"partial block", set("w.q4_0 ne[0]", 48), ErrFormat, "whole 32-element blocks"},
		{"huge tensor", set("w.q8_0 ne[2]", 1<<30), ErrTruncated, "needs more than"},
		{"trailing bytes", append(bytes.Clone(good), 1, 2, 3), ErrTruncated, "tensor 9's header"},
		{"duplicate", dupRaw, ErrFormat, "appears twice"},
		{"old quantization", set("ftype", 7), ErrUnsupported, "quantization version 0"},
		{"pytorch", []byte("PK\x03\x04\x00\x00\x08\x08\x00\x00\x00\x00"), ErrUnsupported, "convert-pt-to-ggml.py"},
	}
	for _, tc := range tests {
		_, err := decode(tc.raw)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		var fe *FormatError
		if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &fe) {
			t.Errorf("%s: %v; want a *FormatError wrapping %v containing %q", tc.name, err, tc.kind, tc.want)
		}
	}
}

// failingReader fails every read after limit bytes with an I/O error.
type failingReader struct {
	r     io.ReaderAt
	limit int64
}

var errDisk = errors.New("disk on fire")

func (f failingReader) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.limit {
		return 0, errDisk
	}
	return f.r.ReadAt(p, off)
}

func TestReadIOError(t *testing.T) {
	raw := encode(t, synthFile(t, 6))
	for _, limit := range []int64{0, 10, 100, int64(len(raw)) - 1} {
		_, err := Read(failingReader{bytes.NewReader(raw), limit}, int64(len(raw)))
		if !errors.Is(err, errDisk) {
			t.Errorf("limit %d: %v does not wrap the reader's error", limit, err)
		}
	}
	if _, err := Read(bytes.NewReader(raw), int64(len(raw))+10); !errors.Is(err, ErrTruncated) {
		t.Errorf("size larger than the data: %v", err)
	}
	if _, err := Read(bytes.NewReader(raw), -1); err == nil {
		t.Error("negative size: no error")
	}
}

func TestReadHeaderOnly(t *testing.T) {
	f, err := decode(headerOnly(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Tensors) != 0 || len(f.Vocab) != 5 || f.Lookup("bias") != nil {
		t.Errorf("header-only file read as %d tensors, %d tokens", len(f.Tensors), len(f.Vocab))
	}
}
