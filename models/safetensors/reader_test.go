package safetensors_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// attendMeta is a minimal valid __metadata__ entry of an attend file.
const attendMeta = `"__metadata__":{"attend.kind":"asr","attend.format_version":"1","attend.config":"{}","attend.vocab":"[]"}`

// attendFile assembles an attend file whose header holds attendMeta and the
// given tensor entries (JSON members, comma-separated).
func attendFile(entries string, data ...[]byte) []byte {
	h := "{" + attendMeta
	if entries != "" {
		h += "," + entries
	}
	return safetensorsFile(h+"}", 8, data...)
}

// f32bytes encodes values as little-endian F32.
func f32bytes(values ...float32) []byte {
	var b []byte
	for _, v := range values {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

// sameBits reports whether a and b hold bit-identical values, so that -0
// differs from 0 and NaNs compare by payload.
func sameBits(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) })
}

// checkFileError fails t unless err is a well-formed error about a model
// file: prefixed "models: ", wrapping sentinel, and containing msg.
func checkFileError(t *testing.T, err, sentinel error, msg string) {
	t.Helper()
	switch {
	case err == nil:
		t.Fatalf("no error, want one wrapping %v containing %q", sentinel, msg)
	case !errors.Is(err, sentinel):
		t.Fatalf("error %q does not wrap %v", err, sentinel)
	case !strings.HasPrefix(err.Error(), "models: "):
		t.Fatalf("error %q lacks the models: prefix", err)
	case !strings.Contains(err.Error(), msg):
		t.Fatalf("error %q does not contain %q", err, msg)
	}
}

// TestParseRejectsCorruptFiles feeds Parse broken files, one flaw each, and
// checks the error names the flaw. Layout flaws must fail the same way in
// NewReader, which does not need attend metadata.
func TestParseRejectsCorruptFiles(t *testing.T) {
	four := f32bytes(1)     // 4 bytes
	eight := f32bytes(1, 2) // 8 bytes
	valid := attendFile(`"weight":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}`, eight)
	n := binary.LittleEndian.Uint64(valid)
	unpadded := uint64(len(bytes.TrimRight(valid[8:8+n], " ")))
	if unpadded == n {
		t.Fatal("the valid file needs header padding for these cases")
	}
	withLength := func(length uint64) []byte {
		b := slices.Clone(valid)
		binary.LittleEndian.PutUint64(b, length)
		return b
	}
	swallowASCII := safetensorsFile("{}", 8, []byte("abcdefgh"))
	binary.LittleEndian.PutUint64(swallowASCII, 16)
	entry := func(e string, data ...[]byte) []byte { return attendFile(e, data...) }

	tests := []struct {
		name     string
		data     []byte
		sentinel error
		msg      string
	}{
		{"empty file", nil, safetensors.ErrCorrupt, "file is 0 bytes, too short"},
		{"seven bytes", valid[:7], safetensors.ErrCorrupt, "file is 7 bytes"},
		{"header length 0", withLength(0), safetensors.ErrCorrupt, "header length 0 is below the minimum"},
		{"header length 1", withLength(1), safetensors.ErrCorrupt, "header length 1 is below the minimum"},
		{"header length over the cap", withLength(100_000_001), safetensors.ErrCorrupt, "exceeds the limit of 100000000 bytes"},
		{"header length 2^64-1", withLength(math.MaxUint64), safetensors.ErrCorrupt, "exceeds the limit"},
		{"header length past the end", withLength(uint64(len(valid) - 7)), safetensors.ErrCorrupt, fmt.Sprintf("header length %d exceeds the %d bytes after the length prefix (file truncated?)", len(valid)-7, len(valid)-8)},
		{"header length cuts the padding", withLength(n - 1), safetensors.ErrCorrupt, "data bytes [8 9) after the last tensor"},
		{"header length cuts the JSON", withLength(unpadded - 1), safetensors.ErrCorrupt, "not valid JSON"},
		{"header length swallows data", withLength(n + 8), safetensors.ErrCorrupt, "not valid UTF-8"},
		{"header length swallows ASCII data", swallowASCII, safetensors.ErrCorrupt, `header has "abcdefgh" after its closing '}'`},
		{"leading space", safetensorsFile(" {}", 8), safetensors.ErrCorrupt, "does not start with '{'"},
		{"top-level array", safetensorsFile("[]", 8), safetensors.ErrCorrupt, "does not start with '{'"},
		{"invalid UTF-8", safetensorsFile("{\"\xff\":1}", 8), safetensors.ErrCorrupt, "not valid UTF-8"},
		{"syntax error", safetensorsFile(`{"a":}`, 8), safetensors.ErrCorrupt, "not valid JSON: invalid character '}'"},
		{"unterminated", safetensorsFile(`{"a":{`, 8), safetensors.ErrCorrupt, "not valid JSON"},
		{"text after the object", safetensorsFile(`{} x`, 8), safetensors.ErrCorrupt, `header has "x" after its closing '}' at byte 3`},
		{"two objects", safetensorsFile(`{}{}`, 8), safetensors.ErrCorrupt, "after its closing '}'"},
		{"duplicate tensor", entry(`"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"w":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}`, eight), safetensors.ErrCorrupt, `header has key "w" twice`},
		{"duplicate metadata", safetensorsFile(`{"__metadata__":{},"__metadata__":{}}`, 8), safetensors.ErrCorrupt, `key "__metadata__" twice`},
		{"duplicate metadata key", safetensorsFile(`{"__metadata__":{"a":"1","a":"2"}}`, 8), safetensors.ErrCorrupt, `__metadata__ has key "a" twice`},
		{"metadata is an array", safetensorsFile(`{"__metadata__":[]}`, 8), safetensors.ErrCorrupt, "__metadata__ is an array, want an object of strings"},
		{"metadata value is a number", safetensorsFile(`{"__metadata__":{"a":1}}`, 8), safetensors.ErrCorrupt, `__metadata__["a"] is the number 1, want a string`},
		{"metadata value is an object", safetensorsFile(`{"__metadata__":{"a":{}}}`, 8), safetensors.ErrCorrupt, `__metadata__["a"] is an object`},
		{"entry is an array", entry(`"w":[]`), safetensors.ErrCorrupt, `tensor "w": entry is an array, want an object`},
		{"no dtype", entry(`"w":{"shape":[1],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, `tensor "w": no dtype`},
		{"no shape", entry(`"w":{"dtype":"F32","data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, `tensor "w": no shape`},
		{"no offsets", entry(`"w":{"dtype":"F32","shape":[1]}`, four), safetensors.ErrCorrupt, `tensor "w": no data_offsets`},
		{"dtype twice", entry(`"w":{"dtype":"F32","dtype":"F16","shape":[1],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, `tensor "w": dtype given twice`},
		{"dtype not a string", entry(`"w":{"dtype":4,"shape":[1],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, `dtype is the number 4, want a string`},
		{"unknown dtype", entry(`"w":{"dtype":"F33","shape":[1],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, `tensor "w": unknown dtype "F33"`},
		{"lower-case dtype", entry(`"w":{"dtype":"f32","shape":[1],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, `unknown dtype "f32"`},
		{"sub-byte dtype", entry(`"w":{"dtype":"F4","shape":[2],"data_offsets":[0,1]}`, []byte{0}), safetensors.ErrUnsupported, "dtype F4 has less than a byte per element"},
		{"negative dimension", entry(`"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, `tensor "w": shape: element 0 is -1, want a non-negative integer`},
		{"negative zero dimension", entry(`"w":{"dtype":"F32","shape":[-0],"data_offsets":[0,0]}`), safetensors.ErrCorrupt, "element 0 is -0"},
		{"fractional dimension", entry(`"w":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, "element 0 is 1.5"},
		{"dimension 1.0", entry(`"w":{"dtype":"F32","shape":[1.0],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, "element 0 is 1.0"},
		{"exponent dimension", entry(`"w":{"dtype":"F32","shape":[1e0],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, "element 0 is 1e0"},
		{"dimension past int64", entry(`"w":{"dtype":"F32","shape":[99999999999999999999],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, "want a non-negative integer below 2^63"},
		{"dimension is a string", entry(`"w":{"dtype":"F32","shape":["1"],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, `element 0 is the string "1"`},
		{"shape not an array", entry(`"w":{"dtype":"F32","shape":1,"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, "shape: the number 1, want an array"},
		{"element count overflows", entry(`"w":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, "shape [4294967296 4294967296] F32 is too large to address"},
		{"byte count overflows", entry(`"w":{"dtype":"F64","shape":[2305843009213693952],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, "is too large to address"},
		{"one offset", entry(`"w":{"dtype":"F32","shape":[1],"data_offsets":[0]}`, four), safetensors.ErrCorrupt, "data_offsets has 1 numbers, want 2"},
		{"three offsets", entry(`"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4,8]}`, four), safetensors.ErrCorrupt, "data_offsets has 3 numbers"},
		{"negative offset", entry(`"w":{"dtype":"F32","shape":[1],"data_offsets":[-4,0]}`, four), safetensors.ErrCorrupt, "data_offsets: element 0 is -4"},
		{"offsets reversed", entry(`"w":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}`, four), safetensors.ErrCorrupt, `tensor "w": data_offsets [4 0] end before they begin`},
		{"size mismatch", entry(`"enc.w":{"dtype":"F32","shape":[5,6],"data_offsets":[0,100]}`, make([]byte, 100)), safetensors.ErrCorrupt, `tensor "enc.w": data_offsets [0 100] hold 100 bytes, shape [5 6] F32 needs 120`},
		{"past the data", entry(`"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}`, eight), safetensors.ErrCorrupt, `tensor "w": data_offsets [0 16] run past the end of the 8-byte data buffer (file truncated?)`},
		{"truncated", valid[:len(valid)-1], safetensors.ErrCorrupt, "run past the end of the 7-byte data buffer"},
		{"overlap", entry(`"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}`, eight, four), safetensors.ErrCorrupt, `tensors "a" [0 8] and "b" [4 12] overlap`},
		{"same range twice", entry(`"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}`, four), safetensors.ErrCorrupt, "overlap"},
		{"hole", entry(`"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}`, eight, four), safetensors.ErrCorrupt, `data bytes [4 8) belong to no tensor (a hole before "b")`},
		{"hole at the start", entry(`"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}`, eight), safetensors.ErrCorrupt, `data bytes [0 4) belong to no tensor`},
		{"trailing data", entry(`"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}`, eight), safetensors.ErrCorrupt, "data bytes [4 8) after the last tensor belong to no tensor"},
		{"data without tensors", safetensorsFile("{}", 8, four), safetensors.ErrCorrupt, "data bytes [0 4) after the last tensor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := safetensors.Parse(tt.data)
			checkFileError(t, err, tt.sentinel, tt.msg)
			if _, err2 := safetensors.NewReader(bytes.NewReader(tt.data), int64(len(tt.data))); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("NewReader: %v, want the error of Parse: %v", err2, err)
			}
		})
	}
	if _, err := safetensors.Parse(valid); err != nil {
		t.Fatalf("the unbroken file: %v", err)
	}
}

// TestReadFileNamesTheFile checks that ReadFile puts the path in its
// errors, with the exact wording of the rest of the message.
func TestReadFileNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.safetensors")
	data := attendFile(`"enc.w":{"dtype":"F32","shape":[5,6],"data_offsets":[0,100]}`, make([]byte, 100))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := safetensors.ReadFile(path)
	want := fmt.Sprintf(`models: %s: tensor "enc.w": data_offsets [0 100] hold 100 bytes, shape [5 6] F32 needs 120`, path)
	if err == nil || err.Error() != want || !errors.Is(err, safetensors.ErrCorrupt) {
		t.Fatalf("ReadFile: %v\nwant: %s (wrapping ErrCorrupt)", err, want)
	}

	_, err = safetensors.ReadFile(filepath.Join(t.TempDir(), "absent.safetensors"))
	if !errors.Is(err, os.ErrNotExist) || !strings.HasPrefix(err.Error(), "models: open ") {
		t.Fatalf("ReadFile of a missing file: %v, want a models: error wrapping os.ErrNotExist", err)
	}
}

// TestParseEveryTruncation cuts a valid file at every length: each prefix
// must be rejected as corrupt.
func TestParseEveryTruncation(t *testing.T) {
	data := pythonStyleFixture()
	for n := range len(data) {
		if _, err := safetensors.Parse(data[:n]); !errors.Is(err, safetensors.ErrCorrupt) {
			t.Fatalf("Parse of the first %d of %d bytes: %v, want ErrCorrupt", n, len(data), err)
		}
	}
}

// TestParseWrongLengthPrefix gives a valid file every other header length
// within 16 bytes of the right one: each must be rejected.
func TestParseWrongLengthPrefix(t *testing.T) {
	data := pythonStyleFixture()
	n := binary.LittleEndian.Uint64(data)
	for delta := -16; delta <= 16; delta++ {
		if delta == 0 {
			continue
		}
		b := slices.Clone(data)
		binary.LittleEndian.PutUint64(b, uint64(int64(n)+int64(delta)))
		if _, err := safetensors.Parse(b); !errors.Is(err, safetensors.ErrCorrupt) {
			t.Errorf("header length %d%+d: %v, want ErrCorrupt", n, delta, err)
		}
	}
}

// TestParseEveryBitFlip flips each bit of the length prefix and the header
// of a valid file in turn. A flip may leave a valid file (a changed letter
// in a name or a metadata string), but every failure must be a clean
// ErrCorrupt or ErrUnsupported, never a panic or a stray error; flips in
// the length prefix, offsets, shapes and structure must all be caught.
func TestParseEveryBitFlip(t *testing.T) {
	data := pythonStyleFixture()
	headerEnd := 8 + int(binary.LittleEndian.Uint64(data))
	accepted := 0
	for i := range headerEnd {
		for bit := range 8 {
			b := slices.Clone(data)
			b[i] ^= 1 << bit
			_, err := safetensors.Parse(b)
			if err == nil {
				accepted++
				if i < 8 {
					t.Errorf("flipping bit %d of length byte %d was not caught", bit, i)
				}
				continue
			}
			if !errors.Is(err, safetensors.ErrCorrupt) && !errors.Is(err, safetensors.ErrUnsupported) {
				t.Fatalf("byte %d bit %d: %v, want ErrCorrupt or ErrUnsupported", i, bit, err)
			}
		}
	}
	total := headerEnd * 8
	t.Logf("%d of %d single-bit flips rejected", total-accepted, total)
	// The accepted flips turn one printable character of a name, a
	// metadata string or the padding into another: far fewer than half.
	if accepted > total/4 {
		t.Errorf("%d of %d flips accepted", accepted, total)
	}
}

func TestReadSafetensorsForeignFile(t *testing.T) {
	// Header order differs from data order on purpose; no __metadata__.
	header := `{"s":{"dtype":"F32","shape":[],"data_offsets":[24,28]},` +
		`"b":{"dtype":"BF16","shape":[2],"data_offsets":[28,32]},` +
		`"e":{"dtype":"F32","shape":[0,3],"data_offsets":[32,32]},` +
		`"d":{"dtype":"F64","shape":[2],"data_offsets":[0,16],"extra":{"ignored":[1,2]}},` +
		`"i":{"dtype":"I64","shape":[1],"data_offsets":[16,24]}}`
	var d []byte
	d = binary.LittleEndian.AppendUint64(d, math.Float64bits(0.1))
	d = binary.LittleEndian.AppendUint64(d, math.Float64bits(-1e300))
	d = binary.LittleEndian.AppendUint64(d, 7) // i
	d = append(d, f32bytes(2.5)...)            // s
	d = append(d, 0x80, 0x3f, 0x49, 0xc0)      // b: bfloat16 1, -3.140625
	data := safetensorsFile(header, 1, d)

	s, err := safetensors.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if m := s.Metadata(); m != nil {
		t.Errorf("Metadata() = %v, want nil", m)
	}
	var names []string
	for _, ti := range s.Tensors() {
		names = append(names, ti.Name)
	}
	if want := []string{"d", "i", "s", "b", "e"}; !slices.Equal(names, want) {
		t.Errorf("Tensors() in order %v, want data order %v", names, want)
	}
	if info, ok := s.Info("i"); !ok || info.DType != "I64" || info.Begin != 16 || info.End != 24 || info.Len() != 1 {
		t.Errorf("Info(i) = %+v, %v", info, ok)
	}

	f32 := []struct {
		name string
		want []float32
	}{
		{"s", []float32{2.5}},
		{"b", []float32{1, -3.140625}},
		{"d", []float32{float32(0.1), float32(math.Inf(-1))}},
		{"e", []float32{}},
	}
	for _, tt := range f32 {
		got, err := s.Float32s(tt.name)
		if err != nil || !sameBits(got, tt.want) {
			t.Errorf("Float32s(%q) = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
	if got, err := s.Float64s("d"); err != nil || !slices.Equal(got, []float64{0.1, -1e300}) {
		t.Errorf("Float64s(d) = %v, %v; want the exact float64 values", got, err)
	}
	if got, err := s.Float64s("b"); err != nil || !slices.Equal(got, []float64{1, -3.140625}) {
		t.Errorf("Float64s(b) = %v, %v", got, err)
	}
	_, err = s.Float32s("i")
	checkFileError(t, err, safetensors.ErrUnsupported, `tensor "i": dtype I64 cannot be read as floats`)
	_, err = s.Float64s("nope")
	checkFileError(t, err, safetensors.ErrMismatch, `no tensor "nope"`)

	// Parse wants attend metadata.
	_, err = safetensors.Parse(data)
	checkFileError(t, err, safetensors.ErrCorrupt, `__metadata__ has no "attend.kind": not an attend model file`)
}

// TestReadSafetensorsResultsAreCopies checks that callers cannot change
// what a Reader reports.
func TestReadSafetensorsResultsAreCopies(t *testing.T) {
	data := pythonStyleFixture()
	s, err := safetensors.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	s.Metadata()["format"] = "changed"
	s.Tensors()[0].Shape[0] = 99
	info, _ := s.Info("z.w")
	info.Shape[1] = 99
	if got := s.Metadata()["format"]; got != "pt" {
		t.Errorf("metadata changed to %q", got)
	}
	if info, _ := s.Info("z.w"); !slices.Equal(info.Shape, []int{2, 2}) {
		t.Errorf("shape changed to %v", info.Shape)
	}
}

func TestReadSafetensorsMinimal(t *testing.T) {
	tests := []struct {
		name string
		data []byte
	}{
		{"unpadded {}", safetensorsFile("{}", 1)},
		{"padded {}", safetensorsFile("{}", 8)},
		{"tab and newline padding", safetensorsFile("{}\t\r\n", 1)},
		{"null metadata", safetensorsFile(`{"__metadata__":null}`, 8)},
		{"empty tensors only", safetensorsFile(`{"a":{"dtype":"F16","shape":[0],"data_offsets":[0,0]},"b":{"dtype":"F32","shape":[3,0],"data_offsets":[0,0]}}`, 8)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := safetensors.NewReader(bytes.NewReader(tt.data), int64(len(tt.data)))
			if err != nil {
				t.Fatal(err)
			}
			for _, ti := range s.Tensors() {
				if got, err := s.Float32s(ti.Name); err != nil || len(got) != 0 {
					t.Errorf("Float32s(%q) = %v, %v; want no values", ti.Name, got, err)
				}
			}
		})
	}
}

// failingReaderAt serves data but fails reads past limit with err.
type failingReaderAt struct {
	data  []byte
	limit int64
	err   error
}

func (r failingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > r.limit {
		return 0, r.err
	}
	return bytes.NewReader(r.data).ReadAt(p, off)
}

// TestReadIOErrors checks that I/O errors are wrapped, not reported as
// corruption, and that a size larger than the content is caught.
func TestReadIOErrors(t *testing.T) {
	data := pythonStyleFixture()
	headerEnd := int64(8 + binary.LittleEndian.Uint64(data))
	boom := errors.New("disk on fire")
	for _, limit := range []int64{0, 8, headerEnd} {
		_, err := safetensors.Read(failingReaderAt{data, limit, boom}, int64(len(data)))
		if !errors.Is(err, boom) || errors.Is(err, safetensors.ErrCorrupt) || !strings.HasPrefix(err.Error(), "models: reading ") {
			t.Errorf("failing after %d bytes: %v, want a models: error wrapping only the I/O error", limit, err)
		}
	}
	// A size that overstates the content shows as bytes after the last
	// tensor, before anything past the end is read.
	_, err := safetensors.Read(failingReaderAt{data, int64(len(data)), io.ErrUnexpectedEOF}, int64(len(data))+8)
	checkFileError(t, err, safetensors.ErrCorrupt, "after the last tensor")
}
