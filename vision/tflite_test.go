package vision

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadTFLiteTiny(t *testing.T) {
	n := newTinyNet(1)
	m, err := readTFLite(n.model.flatbuffer())
	if err != nil {
		t.Fatal(err)
	}
	if m.version != 3 || m.description != "tiny test model" {
		t.Errorf("version %d, description %q", m.version, m.description)
	}
	if len(m.tensors) != len(n.model.tensors) || len(m.operators) != len(n.model.ops) {
		t.Fatalf("%d tensors, %d operators; want %d, %d", len(m.tensors), len(m.operators), len(n.model.tensors), len(n.model.ops))
	}
	for i, want := range n.model.tensors {
		got := &m.tensors[i]
		shape := make([]int, len(want.shape))
		for j, d := range want.shape {
			shape[j] = int(d)
		}
		if got.name != want.name || !slices.Equal(got.shape, shape) || got.typ != want.typ || string(got.data) != string(want.data) {
			t.Errorf("tensor %d: %q %v %v %d bytes; want %q %v %v %d bytes",
				i, got.name, got.shape, got.typ, len(got.data), want.name, shape, want.typ, len(want.data))
		}
		switch {
		case want.scale == nil && got.quant != nil:
			t.Errorf("tensor %d: quantization %+v, want none", i, got.quant)
		case want.scale != nil && (got.quant == nil || !slices.Equal(got.quant.scale, want.scale) || !slices.Equal(got.quant.zero, want.zero) ||
			(len(want.scale) > 1 && got.quant.dim != int(want.qdim))):
			t.Errorf("tensor %d: quantization %+v, want scales %v zero points %v dim %d", i, got.quant, want.scale, want.zero, want.qdim)
		}
	}
	for i, want := range n.model.ops {
		got := &m.operators[i]
		if got.op != want.code || fmt.Sprint(got.inputs) != fmt.Sprint(want.inputs) || fmt.Sprint(got.outputs) != fmt.Sprint(want.outputs) {
			t.Errorf("operator %d: %v %v → %v; want %v %v → %v", i, got.op, got.inputs, got.outputs, want.code, want.inputs, want.outputs)
		}
	}
	// Options: explicit fields, and defaults for absent ones.
	opts := []struct {
		op   int
		want tfOptions
	}{
		{0, tfOptions{padding: padSame, strideW: 2, strideH: 2, dilationW: 1, dilationH: 1, activation: actRelu6}},
		{4, tfOptions{padding: padSame, strideW: 2, strideH: 2, dilationW: 1, dilationH: 1, depthMultiplier: 1, activation: actRelu6}},
		{6, tfOptions{padding: padValid, strideW: 1, strideH: 1, filterW: 3, filterH: 3}},
		{8, tfOptions{newShape: []int{1, 5}}},
		{9, tfOptions{beta: 1}},
	}
	for _, o := range opts {
		if got := m.operators[o.op].opts; fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", o.want) {
			t.Errorf("operator %d options %+v, want %+v", o.op, got, o.want)
		}
	}
}

// TestReadTFLiteOpcodes checks both places a builtin code is stored: the
// int8 field of old files, the int32 field of new ones, and the larger of
// the two when both are set.
func TestReadTFLiteOpcodes(t *testing.T) {
	cases := []struct {
		name  string
		table fbTable
		want  tfOp
	}{
		{"deprecated only", fbTable{int8(4)}, opDepthwiseConv2D},
		{"new only", fbTable{nil, nil, nil, int32(114)}, opQuantize},
		{"both", fbTable{int8(127), nil, int32(1), int32(150)}, 150},
		{"neither", fbTable{}, opAdd},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := fbTable{uint32(3), []fbTable{tc.table}, []fbTable{{}}}
			r := &flatReader{buf: flatbuffer(root, "TFL3")}
			codes := r.readOpcodes(r.root())
			if r.err != nil || len(codes) != 1 || codes[0].op != tc.want {
				t.Errorf("codes %v, err %v; want [%v]", codes, r.err, tc.want)
			}
		})
	}
}

// TestReadTFLiteMalformed damages the tiny model in targeted ways. Each
// must fail with ErrModel and a message that says what is wrong.
func TestReadTFLiteMalformed(t *testing.T) {
	good := newTinyNet(1).model.flatbuffer()
	le := binary.LittleEndian
	root := int(le.Uint32(good))
	cases := []struct {
		name string
		data func() []byte
		want string
	}{
		{"empty", func() []byte { return nil }, "too short for a FlatBuffer"},
		{"identifier", func() []byte { return append([]byte{8, 0, 0, 0, 'T', 'F', 'L', '2'}, good[8:]...) }, `file identifier "TFL2"`},
		{"root past end", func() []byte {
			b := slices.Clone(good)
			le.PutUint32(b, uint32(len(b)))
			return b
		}, "points past the end"},
		{"vtable before start", func() []byte {
			b := slices.Clone(good)
			le.PutUint32(b[root:], uint32(root+100))
			return b
		}, "vtable offset"},
		{"vtable size odd", func() []byte {
			b := slices.Clone(good)
			vt := root - int(int32(le.Uint32(b[root:])))
			le.PutUint16(b[vt:], 7)
			return b
		}, "has invalid size 7"},
		{"field past table", func() []byte {
			b := slices.Clone(good)
			vt := root - int(int32(le.Uint32(b[root:])))
			le.PutUint16(b[vt+4+2*2:], 60000) // subgraphs
			return b
		}, "field 2 at table offset 60000 overruns the table"},
		{"vector too long", func() []byte {
			b := slices.Clone(good)
			vt := root - int(int32(le.Uint32(b[root:])))
			p := root + int(le.Uint16(b[vt+4+2*4:])) // buffers
			vec := p + int(le.Uint32(b[p:]))
			le.PutUint32(b[vec:], 0x7fffffff)
			return b
		}, "claims 2147483647 elements"},
		{"schema version", func() []byte {
			m := newTinyNet(1).model.flatbuffer()
			vt := root - int(int32(le.Uint32(m[root:])))
			le.PutUint32(m[root+int(le.Uint16(m[vt+4:])):], 2)
			return m
		}, "schema version 2"},
	}
	built := []struct {
		name   string
		change func(m *tinyModel)
		want   string
	}{
		{"tensor index", func(m *tinyModel) { m.ops[2].inputs[0] = 99 }, "operators[2]: inputs[0] is tensor 99, subgraph has 24 tensors"},
		{"negative output", func(m *tinyModel) { m.ops[2].outputs[0] = -1 }, "outputs[0] is tensor -1"},
		{"graph input", func(m *tinyModel) { m.inputs[0] = 24 }, "subgraphs[0]: inputs[0] is tensor 24"},
		{"data size", func(m *tinyModel) { m.tensors[1].data = m.tensors[1].data[:10] }, "tensors[1]: constant data is 10 bytes, shape [8 3 3 3] of uint8 needs 216"},
		{"negative dimension", func(m *tinyModel) { m.tensors[3].shape[1] = -5 }, "tensors[3]: shape dimension 1 is -5"},
		{"huge shape", func(m *tinyModel) { m.tensors[3].shape = []int32{1 << 20, 1 << 20, 1} }, "shape dimension 1 is 1048576"},
		{"rank", func(m *tinyModel) { m.tensors[3].shape = make([]int32, 9) }, "rank 9"},
		{"zero scale", func(m *tinyModel) { m.tensors[1].scale[0] = 0 }, "quantization scale 0 is 0"},
		{"scales vs zero points", func(m *tinyModel) { m.tensors[1].zero = nil }, "1 scales but 0 zero points"},
		{"per-channel dimension", func(m *tinyModel) { m.tensors[4].qdim = 0 }, "8 quantization scales along dimension 0 of shape [1 3 3 8]"},
	}
	for _, b := range built {
		cases = append(cases, struct {
			name string
			data func() []byte
			want string
		}{b.name, func() []byte {
			n := newTinyNet(1)
			b.change(n.model)
			return n.model.flatbuffer()
		}, b.want})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readTFLite(tc.data())
			if !errors.Is(err, ErrModel) && !errors.Is(err, ErrUnsupported) || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("readTFLite: %v\nwant an ErrModel containing %q", err, tc.want)
			}
		})
	}
}

// TestReadTFLiteTruncated cuts the tiny model at every length: each prefix
// must fail cleanly (the last bytes written are constant data that every
// model needs).
func TestReadTFLiteTruncated(t *testing.T) {
	good := newTinyNet(1).model.flatbuffer()
	for n := 0; n < len(good); n++ {
		m, err := readTFLite(good[:n])
		if err == nil {
			if _, err = compile(m); err == nil {
				t.Fatalf("prefix of %d of %d bytes: no error", n, len(good))
			}
		}
		if !errors.Is(err, ErrModel) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("prefix of %d bytes: %v, want ErrModel or ErrUnsupported", n, err)
		}
	}
}

func TestLoadEncoderErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	good := newTinyNet(1).model.flatbuffer()
	truncated := filepath.Join(dir, "truncated.tflite")
	if err := os.WriteFile(truncated, good[:len(good)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadEncoder(truncated, nil)
	if !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), "vision: "+truncated+": malformed model: ") {
		t.Errorf("truncated file: %v", err)
	}
	missing := filepath.Join(dir, "missing.tflite")
	_, err = LoadEncoder(missing, nil)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
	ok := filepath.Join(dir, "tiny.tflite")
	if err := os.WriteFile(ok, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadEncoder(ok, nil); err != nil {
		t.Errorf("good file: %v", err)
	}
}
