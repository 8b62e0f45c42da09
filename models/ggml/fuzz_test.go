package ggml

import (
	"bytes"
	"testing"
)

// FuzzRead reads arbitrary bytes: an error or a file, never a panic or a
// hang, and a file that reads writes back to the same bytes.
func FuzzRead(f *testing.F) {
	f.Add(headerOnly(f))
	for seed := range uint64(3) {
		f.Add(encode(f, synthFile(f, seed)))
	}
	small := synthFile(f, 7)
	small.Tensors = small.Tensors[3:5]
	f.Add(encode(f, small))
	f.Add([]byte("lmgg"))
	f.Add([]byte("GGUF\x03\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		g, err := decode(raw)
		if err != nil {
			if g != nil {
				t.Fatal("a file and an error")
			}
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, g); err != nil {
			t.Fatalf("read, but Write refuses it: %v", err)
		}
		if !bytes.Equal(buf.Bytes(), raw) {
			t.Fatalf("read, but writes back %d bytes for %d", buf.Len(), len(raw))
		}
		for i := range g.Tensors {
			tn := &g.Tensors[i]
			v, err := tn.Float32s()
			if err != nil || len(v) != tn.Len() {
				t.Fatalf("tensor %q: %d values, %v", tn.Name, len(v), err)
			}
			x := make([]float32, tn.RowLen())
			dst := make([]float32, tn.Rows())
			tn.MulVec(dst, x)
		}
	})
}
