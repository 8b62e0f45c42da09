package ggml

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// TestReadIndexThenData checks that ReadIndex leaves the data unread and
// that ReadData then gives every tensor exactly what Read gives it.
func TestReadIndexThenData(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		raw := encode(t, synthFile(t, seed))
		want, err := decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		r := bytes.NewReader(raw)
		got, err := ReadIndex(r, int64(len(raw)))
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Tensors) != len(want.Tensors) {
			t.Fatalf("seed %d: %d tensors, Read gives %d", seed, len(got.Tensors), len(want.Tensors))
		}
		for i := range got.Tensors {
			g := &got.Tensors[i]
			if g.Data != nil {
				t.Errorf("seed %d: tensor %q has data after ReadIndex", seed, g.Name)
			}
			if g.DataSize() != int64(len(want.Tensors[i].Data)) {
				t.Errorf("seed %d: tensor %q DataSize %d, Read holds %d bytes", seed, g.Name, g.DataSize(), len(want.Tensors[i].Data))
			}
			if err := g.ReadData(r); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("seed %d: ReadIndex + ReadData differs from Read", seed)
		}
	}
}

// TestReadDataShortReader checks that a reader shorter than the index
// said fails with ErrTruncated, not a short tensor.
func TestReadDataShortReader(t *testing.T) {
	raw := encode(t, synthFile(t, 1))
	f, err := ReadIndex(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	last := &f.Tensors[len(f.Tensors)-1]
	err = last.ReadData(bytes.NewReader(raw[:len(raw)-1]))
	if !errors.Is(err, ErrTruncated) {
		t.Errorf("ReadData over a truncated reader: %v, want ErrTruncated", err)
	}
}
