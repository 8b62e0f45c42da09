package safetensors_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// FuzzRead feeds arbitrary bytes to NewReader and Parse.
// Neither may panic, and a lying header may cost no more memory than the
// input (the fuzzer's memory limit catches that). Every rejection must be
// a "models: " error wrapping ErrCorrupt or ErrUnsupported; every accepted
// file must read back what it declares, and survive Write and Parse
// unchanged.
func FuzzRead(f *testing.F) {
	for _, dtype := range []safetensors.DType{safetensors.F32, safetensors.F16} {
		var b bytes.Buffer
		if err := safetensors.Write(&b, sampleFile(), dtype); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Add(pythonStyleFixture())
	f.Add(safetensorsFile("{}", 8))
	f.Add(safetensorsFile(`{"__metadata__":null}`, 1))
	f.Add(attendFile(`"w":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]},"d":{"dtype":"F64","shape":[],"data_offsets":[4,12]}`, make([]byte, 12)))
	f.Add(attendFile(`"w":{"dtype":"F32","shape":[2,0],"data_offsets":[0,0],"x":[{}]}`))
	f.Add(attendFile(`"w":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}`, make([]byte, 4)))
	f.Add(attendFile(`"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[2,6]}`, make([]byte, 6)))
	f.Add(attendFile(`"i":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}`, make([]byte, 8)))

	f.Fuzz(func(t *testing.T, data []byte) {
		checkErr := func(what string, err error) {
			if !strings.HasPrefix(err.Error(), "models: ") ||
				!(errors.Is(err, safetensors.ErrCorrupt) || errors.Is(err, safetensors.ErrUnsupported)) {
				t.Fatalf("%s: error %q is not a models: ErrCorrupt or ErrUnsupported", what, err)
			}
		}
		s, err := safetensors.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			checkErr("NewReader", err)
		} else {
			for _, ti := range s.Tensors() {
				got, err := s.Float32s(ti.Name)
				if err != nil {
					if !errors.Is(err, safetensors.ErrUnsupported) {
						t.Fatalf("Float32s(%q): %v", ti.Name, err)
					}
					continue
				}
				if len(got) != ti.Len() {
					t.Fatalf("Float32s(%q) gave %d values, the entry declares %d", ti.Name, len(got), ti.Len())
				}
				if got64, err := s.Float64s(ti.Name); err != nil || len(got64) != ti.Len() {
					t.Fatalf("Float64s(%q): %d values, %v", ti.Name, len(got64), err)
				}
			}
		}

		f1, err := safetensors.Parse(data)
		if err != nil {
			checkErr("Parse", err)
			return
		}
		if slices.ContainsFunc(f1.Tensors, func(t safetensors.Tensor) bool { return t.Name == "" }) {
			return // the one thing the reader accepts and the writer refuses
		}
		for _, dtype := range []safetensors.DType{safetensors.F32, safetensors.F16} {
			var b bytes.Buffer
			if err := safetensors.Write(&b, f1, dtype); err != nil {
				if dtype == safetensors.F16 && strings.Contains(err.Error(), "overflows float16") {
					continue
				}
				t.Fatalf("Write %s of a parsed file: %v", dtype, err)
			}
			f2, err := safetensors.Parse(b.Bytes())
			if err != nil {
				t.Fatalf("Parse of a written %s file: %v", dtype, err)
			}
			checkRoundTrip(t, f1, f2, dtype)
		}
	})
}

// checkRoundTrip fails t unless f2, f1 written as dtype and parsed, holds
// what f1 holds: the same metadata (the config compacted), and the same
// tensors in name order, their values rounded to dtype.
func checkRoundTrip(t *testing.T, f1, f2 *safetensors.File, dtype safetensors.DType) {
	t.Helper()
	var config bytes.Buffer
	if err := json.Compact(&config, f1.Config); err != nil {
		t.Fatal(err)
	}
	if f2.Kind != f1.Kind || !bytes.Equal(f2.Config, config.Bytes()) ||
		!slices.Equal(f2.Vocab, f1.Vocab) || !maps.Equal(f2.Extra, f1.Extra) {
		t.Fatalf("%s: metadata changed by a round trip: %+v → %+v", dtype, f1, f2)
	}
	want := slices.Clone(f1.Tensors)
	slices.SortFunc(want, func(a, b safetensors.Tensor) int { return strings.Compare(a.Name, b.Name) })
	if len(f2.Tensors) != len(want) {
		t.Fatalf("%s: %d tensors after a round trip, want %d", dtype, len(f2.Tensors), len(want))
	}
	for i, got := range f2.Tensors {
		w := want[i]
		if got.Name != w.Name || !slices.Equal(got.Shape, w.Shape) || !sameBits(got.Data, roundTo(w.Data, dtype)) {
			t.Fatalf("%s: tensor %q changed by a round trip", dtype, w.Name)
		}
	}
}
