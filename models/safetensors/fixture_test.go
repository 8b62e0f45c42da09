package safetensors_test

import (
	"bytes"
	"encoding/binary"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// updateSafetensors rewrites the golden files under testdata.
// (Not -update: other tests of this package may define that flag.)
var updateSafetensors = flag.Bool("update-safetensors", false, "rewrite testdata golden files")

// safetensorsFile assembles a safetensors file from its header JSON, padded
// with spaces to a multiple of pad bytes (1: no padding), and its data.
func safetensorsFile(header string, pad int, data ...[]byte) []byte {
	h := []byte(header)
	for len(h)%pad != 0 {
		h = append(h, ' ')
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	out = append(out, h...)
	for _, d := range data {
		out = append(out, d...)
	}
	return out
}

// pythonStyleHeader is the header Python's safetensors writes (through its
// Rust serializer) for
//
//	save_file({"z.w": f32 [[1, -2], [0.5, 3.25]],
//	           "a.h": f16 [1, -2, 65504],
//	           "b.h": f16 [[2⁻²⁴, 0.1, -0], [1/3, 0.5, -65504]]}, metadata)
//
// compact JSON with __metadata__ first (its keys in hash-map order, so in no
// particular order), then the entries in data order: by dtype, larger
// alignment first (F32 before F16), then by name. The header is padded with
// spaces to a multiple of 8 bytes.
const pythonStyleHeader = `{"__metadata__":{"format":"pt","attend.vocab":"[\"<eos>\",\"a\",\"b\"]",` +
	`"attend.kind":"asr","attend.format_version":"1","attend.config":"{\"hidden\":16}"},` +
	`"z.w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},` +
	`"a.h":{"dtype":"F16","shape":[3],"data_offsets":[16,22]},` +
	`"b.h":{"dtype":"F16","shape":[2,3],"data_offsets":[22,34]}}`

// pythonStyleFixture returns, byte by byte, the file described at
// pythonStyleHeader. It is committed as
// testdata/python_style.safetensors.
func pythonStyleFixture() []byte {
	return safetensorsFile(pythonStyleHeader, 8,
		// z.w, F32 little-endian: 1, -2, 0.5, 3.25
		[]byte{0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x3f, 0x00, 0x00, 0x50, 0x40},
		// a.h, F16: 1 (0x3c00), -2 (0xc000), 65504 (0x7bff)
		[]byte{0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b},
		// b.h, F16: 2⁻²⁴ (0x0001), 0.1 (0x2e66), -0 (0x8000),
		// 1/3 (0x3555), 0.5 (0x3800), -65504 (0xfbff)
		[]byte{0x01, 0x00, 0x66, 0x2e, 0x00, 0x80, 0x55, 0x35, 0x00, 0x38, 0xff, 0xfb},
	)
}

// pythonStyleTensors are the values of pythonStyleFixture in data order, as
// float32.
var pythonStyleTensors = []struct {
	name  string
	shape []int
	data  []float32
}{
	{"z.w", []int{2, 2}, []float32{1, -2, 0.5, 3.25}},
	{"a.h", []int{3}, []float32{1, -2, 65504}},
	{"b.h", []int{2, 3}, []float32{0x1p-24, 0.0999755859375, float32(math.Copysign(0, -1)), 0.333251953125, 0.5, -65504}},
}

// goldenFile compares got with the file testdata/name, or rewrites
// the file with -update-safetensors.
func goldenFile(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateSafetensors {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update-safetensors to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("bytes differ from %s (%d bytes, want %d); if the change is intended, rerun with -update-safetensors", path, len(got), len(want))
	}
}
