package ggml

import (
	"bytes"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

// bundleFile reads a file of the shared Whisper bundle, skipping without
// it.
func bundleFile(t testing.TB, name string) *File {
	t.Helper()
	p := shareddata.Path(t, "whisper/"+name)
	f, err := ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestQuantizeMatchesWhisperCpp dequantizes the f16 models' weights,
// quantizes them again and compares byte for byte with the tensors
// whisper.cpp's quantize tool wrote into the q8_0 and q5_0 files. The
// tensors it left unquantized (1-D, 3-D, positional embeddings, conv
// biases) must be byte-identical copies.
func TestQuantizeMatchesWhisperCpp(t *testing.T) {
	tests := []struct {
		src, dst string
		typ      Type
	}{
		{"small-en.ggml-f16.bin", "small-en.ggml-q8_0.bin", Q8_0},
		{"small-en.ggml-f16.bin", "small-en.ggml-q5_0.bin", Q5_0},
		{"small-v3.ggml-f16.bin", "small-v3.ggml-q8_0.bin", Q8_0},
		{"small-v3.ggml-f16.bin", "small-v3.ggml-q5_0.bin", Q5_0},
	}
	for _, tc := range tests {
		t.Run(tc.dst, func(t *testing.T) {
			src, dst := bundleFile(t, tc.src), bundleFile(t, tc.dst)
			if len(src.Tensors) != len(dst.Tensors) {
				t.Fatalf("%d tensors in %s, %d in %s", len(src.Tensors), tc.src, len(dst.Tensors), tc.dst)
			}
			quantized, copied := 0, 0
			for i := range dst.Tensors {
				want := &dst.Tensors[i]
				in := src.Lookup(want.Name)
				if in == nil {
					t.Fatalf("%s: no tensor %q", tc.src, want.Name)
				}
				if rule := len(in.Shape) == 2 && !skipped[want.Name]; rule != (want.Type == tc.typ) {
					t.Errorf("%s (%d-D): quantized is %v, whisper.cpp's rule says %v", want.Name, len(in.Shape), want.Type == tc.typ, rule)
				}
				if want.Type != tc.typ {
					if want.Type != in.Type || !bytes.Equal(want.Data, in.Data) {
						t.Errorf("%s: unquantized tensor differs from the f16 file's", want.Name)
					}
					copied++
					continue
				}
				if len(in.Shape) != 2 {
					t.Errorf("%s: quantized, but has %d dimensions", want.Name, len(in.Shape))
				}
				x, err := in.Float32s()
				if err != nil {
					t.Fatal(err)
				}
				got, err := Quantize(tc.typ, x)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want.Data) {
					t.Errorf("%s: %v differs from whisper.cpp's at byte %d of %d", want.Name, tc.typ, firstDiff(got, want.Data), len(want.Data))
				}
				quantized++
			}
			t.Logf("%s: %d tensors quantized as whisper.cpp did, %d left as they were", tc.dst, quantized, copied)
		})
	}
}

// skipped are the 2-D tensors whisper.cpp's quantize tool leaves as they
// are (examples/quantize/quantize.cpp, to_skip); it quantizes every other
// 2-D tensor and nothing else.
var skipped = map[string]bool{
	"encoder.conv1.bias": true, "encoder.conv2.bias": true,
	"encoder.positional_embedding": true, "decoder.positional_embedding": true,
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
