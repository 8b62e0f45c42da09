package ggml

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// synthFile returns a small model-shaped file with seeded random values:
// one tensor of every supported type, and tensors of 0 to 4 dimensions.
func synthFile(t testing.TB, seed uint64) *File {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	f := &File{
		Hyper: Hyper{NVocab: 5, NAudioCtx: 3, NAudioState: 64, NAudioHead: 2, NAudioLayer: 1,
			NTextCtx: 4, NTextState: 64, NTextHead: 2, NTextLayer: 1, NMels: 2, FType: int(FileQ8_0) + 2000},
		Filters: MelFilters{NMel: 2, NFFT: 3, Data: []float32{0, 0.5, 1, 1, 0.5, 0}},
		Vocab:   [][]byte{[]byte("!"), []byte(" the"), {}, {0xff, 0xfe}, []byte("<|endoftext|>")},
	}
	specs := []struct {
		name  string
		typ   Type
		shape []int
	}{
		{"scalar", F32, nil},
		{"bias", F32, []int{5}},
		{"conv", F16, []int{3, 2, 4}},
		{"w.q4_0", Q4_0, []int{64, 3}},
		{"w.q4_1", Q4_1, []int{32, 2}},
		{"w.q5_0", Q5_0, []int{64, 2}},
		{"w.q5_1", Q5_1, []int{32, 3}},
		{"w.q8_0", Q8_0, []int{32, 2, 2}},
		{"four", F16, []int{2, 1, 2, 2}},
	}
	for _, s := range specs {
		n := 1
		for _, d := range s.shape {
			n *= d
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		tn, err := NewTensor(s.name, s.typ, s.shape, v)
		if err != nil {
			t.Fatal(err)
		}
		f.Tensors = append(f.Tensors, tn)
	}
	return f
}

// encode writes f and returns the bytes.
func encode(t testing.TB, f *File) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// decode reads a file from memory.
func decode(b []byte) (*File, error) { return Read(bytes.NewReader(b), int64(len(b))) }

// headerOnly returns a file with hyper-parameters, filters and
// vocabulary but no tensors, as whisper.cpp's for-tests files.
func headerOnly(t testing.TB) []byte {
	f := synthFile(t, 1)
	f.Tensors = nil
	return encode(t, f)
}
