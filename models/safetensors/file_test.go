package safetensors_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// sampleFile returns a small model file exercising the format: a scalar,
// an empty tensor, names that need JSON escaping, values that are not
// halves, and vocabulary with markup and non-ASCII tokens.
func sampleFile() *safetensors.File {
	return &safetensors.File{
		Kind:   "asr",
		Config: json.RawMessage(`{ "hidden": 4, "layers": [1, 2],  "name": "tiny" }`),
		Vocab:  []string{"<blank>", "<eos>", "a", "é", "😀", `"`},
		Extra:  map[string]string{"trained_on": "speechocean762", "note": "line1\nline2"},
		Tensors: []safetensors.Tensor{
			{Name: "enc.w", Shape: []int{2, 3}, Data: []float32{1, -2, 0.1, 1.0 / 3, 65504, -0x1p-24}},
			{Name: "dec.b", Shape: []int{3}, Data: []float32{0.5, 0, float32(math.Copysign(0, -1))}},
			{Name: "scale", Shape: []int{}, Data: []float32{2.5}},
			{Name: "empty", Shape: []int{0, 4}, Data: []float32{}},
			{Name: `odd "name"\ü`, Shape: []int{1, 1, 1}, Data: []float32{math.Pi}},
		},
	}
}

// encodeModel writes f with Write and returns the bytes.
func encodeModel(t *testing.T, f *safetensors.File, dtype safetensors.DType) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := safetensors.Write(&b, f, dtype); err != nil {
		t.Fatalf("Write %s: %v", dtype, err)
	}
	return b.Bytes()
}

// roundTo returns data as stored in dtype and read back.
func roundTo(data []float32, dtype safetensors.DType) []float32 {
	if dtype == safetensors.F32 {
		return data
	}
	out := make([]float32, len(data))
	for i, v := range data {
		out[i] = safetensors.Float16frombits(safetensors.Float16bits(v))
	}
	return out
}

func TestWriteParseRoundTrip(t *testing.T) {
	for _, dtype := range []safetensors.DType{safetensors.F32, safetensors.F16} {
		t.Run(dtype.String(), func(t *testing.T) {
			in := sampleFile()
			got, err := safetensors.Parse(encodeModel(t, in, dtype))
			if err != nil {
				t.Fatal(err)
			}
			if got.Kind != in.Kind || got.FormatVersion != safetensors.FormatVersion || got.Source != "" {
				t.Errorf("Kind, FormatVersion, Source = %q, %d, %q", got.Kind, got.FormatVersion, got.Source)
			}
			if want := `{"hidden":4,"layers":[1,2],"name":"tiny"}`; string(got.Config) != want {
				t.Errorf("Config = %s, want the compacted %s", got.Config, want)
			}
			if !slices.Equal(got.Vocab, in.Vocab) {
				t.Errorf("Vocab = %q, want %q", got.Vocab, in.Vocab)
			}
			if !maps.Equal(got.Extra, in.Extra) {
				t.Errorf("Extra = %q, want %q", got.Extra, in.Extra)
			}
			want := slices.Clone(in.Tensors)
			slices.SortFunc(want, func(a, b safetensors.Tensor) int { return strings.Compare(a.Name, b.Name) })
			if len(got.Tensors) != len(want) {
				t.Fatalf("%d tensors, want %d", len(got.Tensors), len(want))
			}
			for i, g := range got.Tensors {
				w := want[i]
				if g.Name != w.Name || !slices.Equal(g.Shape, w.Shape) || !sameBits(g.Data, roundTo(w.Data, dtype)) {
					t.Errorf("tensor %d = %q %v %v, want %q %v %v", i, g.Name, g.Shape, g.Data, w.Name, w.Shape, roundTo(w.Data, dtype))
				}
			}
		})
	}
}

// TestWriteGolden pins the bytes Write produces, so that a format change
// cannot slip in unnoticed.
func TestWriteGolden(t *testing.T) {
	goldenFile(t, "sample_f32.safetensors", encodeModel(t, sampleFile(), safetensors.F32))
	goldenFile(t, "sample_f16.safetensors", encodeModel(t, sampleFile(), safetensors.F16))
}

// TestWriteLayout checks the byte layout Write promises: an 8-byte aligned
// header padded with spaces, __metadata__ first with sorted keys, entries
// sorted by name and laid out contiguously in that order.
func TestWriteLayout(t *testing.T) {
	for _, dtype := range []safetensors.DType{safetensors.F32, safetensors.F16} {
		data := encodeModel(t, sampleFile(), dtype)
		n := binary.LittleEndian.Uint64(data)
		header := string(data[8 : 8+n])
		if n%8 != 0 {
			t.Errorf("%s: header length %d is not a multiple of 8", dtype, n)
		}
		body := strings.TrimRight(header, " ")
		if len(header)-len(body) >= 8 || !strings.HasSuffix(body, "}") {
			t.Errorf("%s: header padding %q", dtype, header[len(body):])
		}
		const start = `{"__metadata__":{"attend.config":"{\"hidden\":4,\"layers\":[1,2],\"name\":\"tiny\"}","attend.format_version":"1","attend.kind":"asr","attend.vocab":"[\"<blank>\",\"<eos>\",\"a\",\"é\",\"😀\",\"\\\"\"]","note":"line1\nline2","trained_on":"speechocean762"},`
		if !strings.HasPrefix(body, start) {
			t.Errorf("%s: header starts %.300s\nwant %s", dtype, body, start)
		}
		s, err := safetensors.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		var end int64
		var names []string
		for _, ti := range s.Tensors() {
			if ti.Begin != end || ti.DType != dtype {
				t.Errorf("%s: tensor %q at [%d %d] %s, want it to begin at %d", dtype, ti.Name, ti.Begin, ti.End, ti.DType, end)
			}
			end = ti.End
			names = append(names, ti.Name)
		}
		if !slices.IsSorted(names) {
			t.Errorf("%s: data order %q is not name order", dtype, names)
		}
	}
}

// TestWriteIsDeterministic writes the same content given in different
// orders: the bytes must not change.
func TestWriteIsDeterministic(t *testing.T) {
	a := sampleFile()
	b := sampleFile()
	slices.Reverse(b.Tensors)
	b.Extra = map[string]string{}
	for _, k := range []string{"trained_on", "note"} { // other insertion order
		b.Extra[k] = a.Extra[k]
	}
	for _, dtype := range []safetensors.DType{safetensors.F32, safetensors.F16} {
		if !bytes.Equal(encodeModel(t, a, dtype), encodeModel(t, b, dtype)) {
			t.Errorf("%s: bytes depend on the order of tensors or Extra", dtype)
		}
	}
}

// TestParsePythonStyleFixture loads the committed file laid out the way
// Python's safetensors writes (F32 tensor first, metadata keys in hash
// order, an extra "format" key) and checks every value.
func TestParsePythonStyleFixture(t *testing.T) {
	goldenFile(t, "python_style.safetensors", pythonStyleFixture())
	path := filepath.Join("testdata", "python_style.safetensors")
	f, err := safetensors.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != "asr" || f.FormatVersion != 1 || string(f.Config) != `{"hidden":16}` || f.Source != path {
		t.Errorf("Kind, FormatVersion, Config, Source = %q, %d, %s, %q", f.Kind, f.FormatVersion, f.Config, f.Source)
	}
	if want := []string{"<eos>", "a", "b"}; !slices.Equal(f.Vocab, want) {
		t.Errorf("Vocab = %q, want %q", f.Vocab, want)
	}
	if want := map[string]string{"format": "pt"}; !maps.Equal(f.Extra, want) {
		t.Errorf("Extra = %q, want %q", f.Extra, want)
	}
	if len(f.Tensors) != len(pythonStyleTensors) {
		t.Fatalf("%d tensors, want %d", len(f.Tensors), len(pythonStyleTensors))
	}
	for i, want := range pythonStyleTensors {
		got := f.Tensors[i]
		if got.Name != want.name || !slices.Equal(got.Shape, want.shape) || !sameBits(got.Data, want.data) {
			t.Errorf("tensor %d = %q %v %v, want %q %v %v", i, got.Name, got.Shape, got.Data, want.name, want.shape, want.data)
		}
	}
}

// TestParseAttendMetadata checks the attend.* entries Read requires.
func TestParseAttendMetadata(t *testing.T) {
	withMeta := func(meta string) []byte {
		return safetensorsFile(`{"__metadata__":{`+meta+`}}`, 8)
	}
	const (
		kind    = `"attend.kind":"asr"`
		version = `"attend.format_version":"1"`
		config  = `"attend.config":"{}"`
		vocab   = `"attend.vocab":"[]"`
	)
	join := func(parts ...string) []byte { return withMeta(strings.Join(parts, ",")) }
	tests := []struct {
		name     string
		data     []byte
		sentinel error
		msg      string
	}{
		{"no metadata", safetensorsFile("{}", 8), safetensors.ErrCorrupt, `__metadata__ has no "attend.kind": not an attend model file`},
		{"no kind", join(version, config, vocab), safetensors.ErrCorrupt, `no "attend.kind"`},
		{"empty kind", join(`"attend.kind":""`, version, config, vocab), safetensors.ErrCorrupt, "attend.kind is empty"},
		{"no version", join(kind, config, vocab), safetensors.ErrCorrupt, `__metadata__ has no "attend.format_version"`},
		{"version not a number", join(kind, `"attend.format_version":"one"`, config, vocab), safetensors.ErrCorrupt, `attend.format_version is "one", want a positive decimal integer`},
		{"version zero", join(kind, `"attend.format_version":"0"`, config, vocab), safetensors.ErrCorrupt, `attend.format_version is "0"`},
		{"version with a leading zero", join(kind, `"attend.format_version":"01"`, config, vocab), safetensors.ErrCorrupt, `attend.format_version is "01"`},
		{"version with a plus", join(kind, `"attend.format_version":"+1"`, config, vocab), safetensors.ErrCorrupt, `attend.format_version is "+1"`},
		{"newer version", join(kind, `"attend.format_version":"2"`, vocab), safetensors.ErrUnsupported, "format version 2 is newer than this build reads (1)"},
		{"no config", join(kind, version, vocab), safetensors.ErrCorrupt, `__metadata__ has no "attend.config"`},
		{"config not JSON", join(kind, version, `"attend.config":"{hidden:4}"`, vocab), safetensors.ErrCorrupt, `attend.config is not valid JSON: "{hidden:4}"`},
		{"no vocab", join(kind, version, config), safetensors.ErrCorrupt, `__metadata__ has no "attend.vocab"`},
		{"vocab an object", join(kind, version, config, `"attend.vocab":"{}"`), safetensors.ErrCorrupt, `attend.vocab is "{}", want a JSON array of strings`},
		{"vocab null", join(kind, version, config, `"attend.vocab":"null"`), safetensors.ErrCorrupt, `attend.vocab is "null"`},
		{"vocab with a number", join(kind, version, config, `"attend.vocab":"[\"a\",1]"`), safetensors.ErrCorrupt, "attend.vocab is not a JSON array of strings"},
		{"I64 tensor", attendFile(`"ids":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}`, make([]byte, 8)), safetensors.ErrUnsupported, `tensor "ids": dtype I64 cannot be read as floats (want F32, F16, BF16 or F64)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := safetensors.Parse(tt.data)
			checkFileError(t, err, tt.sentinel, tt.msg)
		})
	}
	f, err := safetensors.Parse(join(kind, version, config, vocab))
	if err != nil || f.Kind != "asr" || f.Vocab == nil || len(f.Vocab) != 0 || f.Extra != nil || len(f.Tensors) != 0 {
		t.Fatalf("minimal file: %+v, %v", f, err)
	}
}

func TestWriteRejects(t *testing.T) {
	tests := []struct {
		name   string
		dtype  safetensors.DType
		change func(f *safetensors.File)
		msg    string
	}{
		{"dtype BF16", safetensors.BF16, func(*safetensors.File) {}, `cannot write dtype "BF16" (want F32 or F16)`},
		{"dtype F64", safetensors.F64, func(*safetensors.File) {}, `cannot write dtype "F64"`},
		{"no dtype", "", func(*safetensors.File) {}, `cannot write dtype ""`},
		{"no kind", safetensors.F32, func(f *safetensors.File) { f.Kind = "" }, "Kind is empty"},
		{"kind not UTF-8", safetensors.F32, func(f *safetensors.File) { f.Kind = "\xff" }, "Kind \"\\xff\" is not valid UTF-8"},
		{"config not JSON", safetensors.F32, func(f *safetensors.File) { f.Config = json.RawMessage("{") }, "Config is not valid JSON"},
		{"vocab not UTF-8", safetensors.F32, func(f *safetensors.File) { f.Vocab = []string{"a", "\xc3"} }, `Vocab[1] "\xc3" is not valid UTF-8`},
		{"reserved extra key", safetensors.F32, func(f *safetensors.File) { f.Extra["attend.kind"] = "x" }, `Extra uses the key "attend.kind", which Write sets itself`},
		{"extra not UTF-8", safetensors.F32, func(f *safetensors.File) { f.Extra["k"] = "\xff" }, `Extra entry "k" is not valid UTF-8`},
		{"empty name", safetensors.F32, func(f *safetensors.File) { f.Tensors[0].Name = "" }, "a tensor has an empty name"},
		{"metadata name", safetensors.F32, func(f *safetensors.File) { f.Tensors[0].Name = "__metadata__" }, `a tensor is called "__metadata__"`},
		{"name not UTF-8", safetensors.F32, func(f *safetensors.File) { f.Tensors[0].Name = "w\xff" }, `tensor name "w\xff" is not valid UTF-8`},
		{"duplicate name", safetensors.F32, func(f *safetensors.File) { f.Tensors[1].Name = f.Tensors[0].Name }, `two tensors are called "enc.w"`},
		{"negative dimension", safetensors.F32, func(f *safetensors.File) { f.Tensors[0].Shape = []int{-2, -3} }, `tensor "enc.w": invalid shape [-2 -3]`},
		{"too few values", safetensors.F32, func(f *safetensors.File) { f.Tensors[0].Shape = []int{3, 3} }, `tensor "enc.w": shape [3 3] needs 9 values, Data has 6`},
		{"F16 overflow", safetensors.F16, func(f *safetensors.File) { f.Tensors[0].Data[4] = 65520 }, `tensor "enc.w": value 65520 at index 4 overflows float16 (largest finite 65504)`},
		{"F16 negative overflow", safetensors.F16, func(f *safetensors.File) { f.Tensors[0].Data[2] = -1e10 }, `value -1e+10 at index 2 overflows float16`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := sampleFile()
			tt.change(f)
			var b bytes.Buffer
			err := safetensors.Write(&b, f, tt.dtype)
			if err == nil || !strings.HasPrefix(err.Error(), "models: ") || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Write: %v, want an error containing %q", err, tt.msg)
			}
			if b.Len() != 0 {
				t.Errorf("Write wrote %d bytes before failing", b.Len())
			}
		})
	}
	var b bytes.Buffer
	if err := safetensors.Write(&b, sampleFile(), safetensors.BF16); !errors.Is(err, safetensors.ErrUnsupported) {
		t.Errorf("Write BF16: %v, want ErrUnsupported", err)
	}
}

// TestWriteF16Limits checks the overflow threshold and that infinities,
// which are not an overflow, are written.
func TestWriteF16Limits(t *testing.T) {
	inf := float32(math.Inf(1))
	values := []float32{math.Nextafter32(65520, 0), -math.Nextafter32(65520, 0), inf, -inf, float32(math.NaN())}
	f := &safetensors.File{Kind: "asr", Tensors: []safetensors.Tensor{{Name: "w", Shape: []int{5}, Data: values}}}
	got, err := safetensors.Parse(encodeModel(t, f, safetensors.F16))
	if err != nil {
		t.Fatal(err)
	}
	d := got.Tensors[0].Data
	if d[0] != 65504 || d[1] != -65504 || d[2] != inf || d[3] != -inf || !math.IsNaN(float64(d[4])) {
		t.Errorf("read back %v, want [65504 -65504 +Inf -Inf NaN]", d)
	}
}

// TestWriteZeroFile writes a File with nothing but a kind: defaults fill in.
func TestWriteZeroFile(t *testing.T) {
	got, err := safetensors.Parse(encodeModel(t, &safetensors.File{Kind: "caption"}, safetensors.F16))
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind != "caption" || string(got.Config) != "{}" || got.Vocab == nil || len(got.Vocab) != 0 || len(got.Tensors) != 0 {
		t.Errorf("got %+v", got)
	}
}

func TestCheckKind(t *testing.T) {
	f := &safetensors.File{Kind: "caption", Source: "model.safetensors"}
	err := f.CheckKind("asr")
	if want := `models: model.safetensors: kind "caption", want "asr"`; err == nil || err.Error() != want || !errors.Is(err, safetensors.ErrKind) {
		t.Errorf("CheckKind = %v, want %s wrapping ErrKind", err, want)
	}
	if err := f.CheckKind("caption"); err != nil {
		t.Errorf("CheckKind of the right kind: %v", err)
	}
}

func TestExpect(t *testing.T) {
	f := sampleFile()
	f.Source = "m.safetensors"
	if got, err := f.Expect("enc.w", 2, 3); err != nil || len(got) != 6 {
		t.Errorf("Expect(enc.w, 2, 3) = %v, %v", got, err)
	}
	if got, err := f.Expect("scale"); err != nil || !slices.Equal(got, []float32{2.5}) {
		t.Errorf("Expect(scale) = %v, %v", got, err)
	}
	tests := []struct {
		name  string
		shape []int
		want  string
	}{
		{"enc.w", []int{3, 2}, `models: m.safetensors: tensor "enc.w" has shape [2 3], want [3 2]`},
		{"enc.w", []int{6}, `models: m.safetensors: tensor "enc.w" has shape [2 3], want [6]`},
		{"scale", []int{1}, `models: m.safetensors: tensor "scale" has shape [], want [1]`},
		{"enc.b", []int{3}, `models: m.safetensors: no tensor "enc.b"`},
	}
	for _, tt := range tests {
		_, err := f.Expect(tt.name, tt.shape...)
		if err == nil || err.Error() != tt.want || !errors.Is(err, safetensors.ErrMismatch) {
			t.Errorf("Expect(%q, %v) = %v, want %s wrapping ErrMismatch", tt.name, tt.shape, err, tt.want)
		}
	}
	f.Tensors[0].Data = f.Tensors[0].Data[:5]
	_, err := f.Expect("enc.w", 2, 3)
	checkFileError(t, err, safetensors.ErrMismatch, `tensor "enc.w" holds 5 values, shape [2 3] needs 6`)
}

func TestCheckNames(t *testing.T) {
	f := sampleFile()
	f.Source = "m.safetensors"
	all := []string{"enc.w", "dec.b", "scale", "empty", `odd "name"\ü`}
	if err := f.CheckNames(all); err != nil {
		t.Errorf("CheckNames(all) = %v", err)
	}
	many := []string{"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9"}
	tests := []struct {
		name string
		want []string
		msg  string
	}{
		{"missing", append(slices.Clone(all), "dec.w", "dec.w"), `models: m.safetensors: tensors do not match the model: missing "dec.w"`},
		{"unexpected", all[:3], `models: m.safetensors: tensors do not match the model: unexpected "empty", "odd \"name\"\\ü"`},
		{"both", []string{"enc.w", "dec.b", "scale", "empty", "new"}, `tensors do not match the model: missing "new"; unexpected "odd \"name\"\\ü"`},
		{"many", append(slices.Clone(all), many...), `missing "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7" and 2 more`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := f.CheckNames(tt.want)
			if err == nil || !strings.HasSuffix(err.Error(), tt.msg) || !errors.Is(err, safetensors.ErrMismatch) {
				t.Errorf("CheckNames = %v, want one ending %s, wrapping ErrMismatch", err, tt.msg)
			}
		})
	}
}

func TestDecodeConfig(t *testing.T) {
	type config struct {
		Hidden int    `json:"hidden"`
		Layers []int  `json:"layers"`
		Name   string `json:"name"`
	}
	var c config
	if err := sampleFile().DecodeConfig(&c); err != nil || c.Hidden != 4 || c.Name != "tiny" || !slices.Equal(c.Layers, []int{1, 2}) {
		t.Errorf("DecodeConfig = %+v, %v", c, err)
	}
	var small struct {
		Hidden int `json:"hidden"`
	}
	err := sampleFile().DecodeConfig(&small)
	checkFileError(t, err, safetensors.ErrMismatch, `config: json: unknown field "layers"`)

	if err := (&safetensors.File{}).DecodeConfig(&small); err != nil {
		t.Errorf("DecodeConfig of an empty config: %v", err)
	}
	err = (&safetensors.File{Config: json.RawMessage(`{} {}`)}).DecodeConfig(&small)
	checkFileError(t, err, safetensors.ErrMismatch, "config: more than one JSON value")
}

// TestParseKeepsTensorsIndependent checks that the tensors Parse returns
// do not alias the input bytes.
func TestParseKeepsTensorsIndependent(t *testing.T) {
	data := encodeModel(t, sampleFile(), safetensors.F32)
	f, err := safetensors.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	before := slices.Clone(f.Tensors[0].Data)
	for i := range data {
		data[i] = 0
	}
	if !sameBits(f.Tensors[0].Data, before) {
		t.Error("tensor data changed with the input bytes")
	}
}

// TestReadFileOfDirectory checks that a directory is an error, not a panic
// or an empty model.
func TestReadFileOfDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := safetensors.ReadFile(dir)
	if want := "models: " + dir + ": is a directory"; err == nil || err.Error() != want {
		t.Errorf("ReadFile of a directory: %v, want %s", err, want)
	}
}
