package ggml

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

// TestWriteRoundTrip writes synthetic files of several seeds and reads
// them back unchanged.
func TestWriteRoundTrip(t *testing.T) {
	for seed := range uint64(4) {
		f := synthFile(t, seed)
		raw := encode(t, f)
		g, err := decode(raw)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if g.Hyper != f.Hyper || !reflect.DeepEqual(g.Filters, f.Filters) || !reflect.DeepEqual(g.Vocab, f.Vocab) {
			t.Errorf("seed %d: header, filters or vocabulary changed", seed)
		}
		if len(g.Tensors) != len(f.Tensors) {
			t.Fatalf("seed %d: %d tensors back, wrote %d", seed, len(g.Tensors), len(f.Tensors))
		}
		for i := range f.Tensors {
			a, b := &f.Tensors[i], &g.Tensors[i]
			if a.Name != b.Name || a.Type != b.Type || a.Len() != b.Len() || !reflect.DeepEqual(a.RowMajorShape(), b.RowMajorShape()) || !bytes.Equal(a.Data, b.Data) {
				t.Errorf("seed %d: tensor %q changed: %v %v → %v %v", seed, a.Name, a.Type, a.Shape, b.Type, b.Shape)
			}
		}
		if again := encode(t, g); !bytes.Equal(again, raw) {
			t.Errorf("seed %d: writing what was read gives other bytes", seed)
		}
	}
}

// TestWriteBundleIdentical reads the bundle's files and writes them back:
// the bytes must be the files' own, so Write writes what whisper.cpp's
// converter and quantizer write. QuantizeFile of the f16 file must give
// the quantized files byte for byte.
func TestWriteBundleIdentical(t *testing.T) {
	for _, name := range []string{"small-en", "small-v3"} {
		for _, kind := range []string{"f16", "q8_0", "q5_0"} {
			file := name + ".ggml-" + kind + ".bin"
			raw, err := os.ReadFile(shareddata.Path(t, "whisper/"+file))
			if err != nil {
				t.Fatal(err)
			}
			f, err := decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(encode(t, f), raw) {
				t.Errorf("%s: Write does not reproduce the file", file)
			}
			if kind == "f16" {
				continue
			}
			src := bundleFile(t, name+".ggml-f16.bin")
			typ := map[string]Type{"q8_0": Q8_0, "q5_0": Q5_0}[kind]
			q, err := QuantizeFile(src, typ)
			if err != nil {
				t.Fatal(err)
			}
			if got := encode(t, q); !bytes.Equal(got, raw) {
				t.Errorf("%s: QuantizeFile+Write differ from whisper-quantize's file at byte %d of %d", file, firstDiff(got, raw), len(raw))
			}
		}
	}
}

// TestQuantizeFileAllTypes makes a model of every quantized type from the
// f16 bundle file and reads it back: whisper.cpp's rule decides which
// tensors are quantized.
func TestQuantizeFileAllTypes(t *testing.T) {
	src := bundleFile(t, "small-en.ggml-f16.bin")
	for _, typ := range blockTypes {
		q, err := QuantizeFile(src, typ)
		if err != nil {
			t.Fatal(err)
		}
		g, err := decode(encode(t, q))
		if err != nil {
			t.Fatalf("%v: %v", typ, err)
		}
		if g.Hyper.FileType().String() != typ.String() || g.Hyper.QuantVersion() != QuantVersion {
			t.Errorf("%v: ftype %d", typ, g.Hyper.FType)
		}
		n := 0
		for _, tn := range g.Tensors {
			if tn.Type == typ {
				n++
			}
		}
		if n != 33 {
			t.Errorf("%v: %d tensors quantized, whisper.cpp quantizes 33 of this model", typ, n)
		}
	}
	if _, err := QuantizeFile(src, F16); err == nil {
		t.Error("QuantizeFile to f16: no error")
	}
}

func TestWriteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "model.bin")
	f := synthFile(t, 9)
	if err := WriteFile(path, f); err != nil {
		t.Fatal(err)
	}
	g, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Tensors) != len(f.Tensors) || g.Lookup("w.q5_1") == nil {
		t.Errorf("read back %d tensors", len(g.Tensors))
	}
	bad := synthFile(t, 9)
	bad.Tensors[3].Data = bad.Tensors[3].Data[1:]
	if err := WriteFile(path, bad); err == nil {
		t.Error("WriteFile of a bad tensor: no error")
	}
	if _, err := ReadFile(path); err != nil {
		t.Errorf("the good file was damaged by a refused write: %v", err)
	}
}

// TestWriteRefuses checks that Write refuses, before writing anything,
// files that Read would refuse.
func TestWriteRefuses(t *testing.T) {
	tests := []struct {
		name   string
		change func(f *File)
		want   string
	}{
		{"zero layers", func(f *File) { f.Hyper.NAudioLayer = 0 }, "n_audio_layer is 0"},
		{"k-quant ftype", func(f *File) { f.Hyper.FType = 2012 }, "unsupported"},
		{"old quant version", func(f *File) { f.Hyper.FType = 7 }, "quantization version"},
		{"filters", func(f *File) { f.Filters.NFFT = 4 }, "mel filters"},
		{"duplicate", func(f *File) { f.Tensors[2].Name = f.Tensors[1].Name }, "twice"},
		{"short data", func(f *File) { f.Tensors[4].Data = f.Tensors[4].Data[:10] }, "needs 40 bytes"},
		{"partial blocks", func(f *File) { f.Tensors[5].Shape = []int{48, 2}; f.Tensors[5].Data = f.Tensors[5].Data[:0] }, "whole 32-element blocks"},
		{"five dims", func(f *File) { f.Tensors[0].Shape = []int{1, 1, 1, 1, 1} }, "5 dimensions"},
		{"zero dim", func(f *File) { f.Tensors[1].Shape = []int{0} }, "must be positive"},
		{"unknown type", func(f *File) { f.Tensors[1].Type = 12 }, "q4_K"},
		{"empty name", func(f *File) { f.Tensors[1].Name = "" }, "empty name"},
	}
	for _, tc := range tests {
		f := synthFile(t, 2)
		tc.change(f)
		var buf bytes.Buffer
		err := Write(&buf, f)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "ggml: ") {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.want)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: %d bytes written before the error", tc.name, buf.Len())
		}
	}
	f := synthFile(t, 2)
	f.Hyper.FType = 2012
	if err := Write(&bytes.Buffer{}, f); !errors.Is(err, ErrUnsupported) {
		t.Errorf("k-quant ftype: %v does not wrap ErrUnsupported", err)
	}
}
