package ggml

import "fmt"

// keepUnquantized are the 2-D tensors whisper.cpp's quantize tool copies
// as they are (examples/quantize/quantize.cpp, to_skip).
var keepUnquantized = map[string]bool{
	"encoder.conv1.bias":           true,
	"encoder.conv2.bias":           true,
	"encoder.positional_embedding": true,
	"decoder.positional_embedding": true,
}

// QuantizeFile returns a copy of f quantized to typ as whisper.cpp's
// quantize tool does it (ggml_common_quantize_0): every 2-D f32 or f16
// tensor except the conv biases and positional embeddings is dequantized
// and quantized to typ; every other tensor, and the header, filters and
// vocabulary, are shared with f. The ftype becomes typ's file type with
// QuantVersion. For an f16 model from convert-pt-to-ggml.py the result is
// byte for byte what whisper-quantize writes.
//
// typ must be a block type; a tensor to quantize that is already
// quantized, or whose rows are not whole blocks, is an error, as in
// whisper.cpp.
func QuantizeFile(f *File, typ Type) (*File, error) {
	ft, ok := FileTypeOf(typ)
	if !ok || !typ.Quantized() {
		return nil, fmt.Errorf("ggml: QuantizeFile: %v is not a quantized type", typ)
	}
	out := &File{Hyper: f.Hyper, Filters: f.Filters, Vocab: f.Vocab, Tensors: make([]Tensor, len(f.Tensors))}
	out.Hyper.FType = int(ft) + QuantVersionFactor*QuantVersion
	for i := range f.Tensors {
		t := f.Tensors[i]
		t.Offset = 0
		if len(t.Shape) == 2 && !keepUnquantized[t.Name] {
			if t.Type != F32 && t.Type != F16 {
				return nil, fmt.Errorf("ggml: QuantizeFile: tensor %q is %v; only f32 and f16 tensors are quantized", t.Name, t.Type)
			}
			x, err := t.Float32s()
			if err != nil {
				return nil, err
			}
			if t.Data, err = Quantize(typ, x); err != nil {
				return nil, fmt.Errorf("%w (tensor %q)", err, t.Name)
			}
			t.Type = typ
			if _, err := t.check(); err != nil {
				return nil, err
			}
		}
		out.Tensors[i] = t
	}
	return out, nil
}
