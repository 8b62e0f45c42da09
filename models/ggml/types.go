package ggml

import "fmt"

// Type is a tensor's element type, ggml's enum ggml_type as stored in the
// file (ggml/include/ggml.h). Only the types whisper.cpp's converter and
// quantizer write are supported.
type Type uint32

// The supported types. The ids are ggml's; 4 and 5 (q4_2, q4_3) were
// removed from ggml, 9 and up are q8_1, the k-quants and later formats.
const (
	F32  Type = 0 // float32, 4 bytes
	F16  Type = 1 // IEEE 754 half, 2 bytes
	Q4_0 Type = 2 // blocks of 32: f16 d, 16 bytes of 4-bit q; x = d·(q−8)
	Q4_1 Type = 3 // blocks of 32: f16 d, f16 m, 16 bytes of 4-bit q; x = d·q + m
	Q5_0 Type = 6 // blocks of 32: f16 d, 4 bytes of high bits, 16 bytes of low nibbles; x = d·(q−16)
	Q5_1 Type = 7 // blocks of 32: f16 d, f16 m, high bits, low nibbles; x = d·q + m
	Q8_0 Type = 8 // blocks of 32: f16 d, 32 int8 q; x = d·q
)

// BlockLen is the number of elements in one block of every quantized
// type (ggml's QK4_0 = QK4_1 = QK5_0 = QK5_1 = QK8_0 = 32).
const BlockLen = 32

// Types lists the supported types in id order.
var Types = []Type{F32, F16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0}

// typeInfo is what ggml's type traits say of a type: elements per block
// and bytes per block.
type typeInfo struct {
	name       string
	blockLen   int
	blockBytes int
}

var typeInfos = map[Type]typeInfo{
	F32:  {"f32", 1, 4},
	F16:  {"f16", 1, 2},
	Q4_0: {"q4_0", BlockLen, 2 + BlockLen/2},
	Q4_1: {"q4_1", BlockLen, 2 + 2 + BlockLen/2},
	Q5_0: {"q5_0", BlockLen, 2 + 4 + BlockLen/2},
	Q5_1: {"q5_1", BlockLen, 2 + 2 + 4 + BlockLen/2},
	Q8_0: {"q8_0", BlockLen, 2 + BlockLen},
}

// unsupportedTypes names ggml types a file may carry that this package
// does not read, for the error message.
var unsupportedTypes = map[Type]string{
	4: "q4_2 (removed from ggml)", 5: "q4_3 (removed from ggml)",
	9: "q8_1", 10: "q2_K", 11: "q3_K", 12: "q4_K", 13: "q5_K", 14: "q6_K", 15: "q8_K",
	16: "iq2_xxs", 17: "iq2_xs", 18: "iq3_xxs", 19: "iq1_s", 20: "iq4_nl", 21: "iq3_s",
	22: "iq2_s", 23: "iq4_xs", 24: "i8", 25: "i16", 26: "i32", 27: "i64", 28: "f64",
	29: "iq1_m", 30: "bf16",
}

// String returns ggml's name of the type ("f16", "q5_0"), or "type N"
// for an id this package does not read.
func (t Type) String() string {
	if info, ok := typeInfos[t]; ok {
		return info.name
	}
	if name, ok := unsupportedTypes[t]; ok {
		return name
	}
	return fmt.Sprintf("type %d", uint32(t))
}

// Supported reports whether the package reads and writes t.
func (t Type) Supported() bool {
	_, ok := typeInfos[t]
	return ok
}

// Quantized reports whether t is one of the block types.
func (t Type) Quantized() bool {
	info, ok := typeInfos[t]
	return ok && info.blockLen > 1
}

// BlockLen returns the number of elements per block: 32 for the quantized
// types, 1 for f32 and f16, 0 for an unsupported type.
func (t Type) BlockLen() int { return typeInfos[t].blockLen }

// BlockBytes returns the bytes per block (ggml_type_size): 4, 2, 18, 20,
// 22, 24, 34 for f32, f16, q4_0, q4_1, q5_0, q5_1, q8_0; 0 for an
// unsupported type.
func (t Type) BlockBytes() int { return typeInfos[t].blockBytes }

// RowBytes returns the bytes of a row of n elements (ggml_row_size), or an
// error if t is unsupported or n is negative or not a whole number of
// blocks.
func (t Type) RowBytes(n int) (int, error) {
	info, ok := typeInfos[t]
	switch {
	case !ok:
		return 0, fmt.Errorf("ggml: unsupported tensor type %v", t)
	case n < 0:
		return 0, fmt.Errorf("ggml: negative row length %d", n)
	case n%info.blockLen != 0:
		return 0, fmt.Errorf("ggml: a %v row of %d elements is not a whole number of %d-element blocks", t, n, info.blockLen)
	}
	return n / info.blockLen * info.blockBytes, nil
}

// FileType is the hyper-parameter ftype without its quantization version:
// ggml's enum ggml_ftype, the type of "most" tensors (2-D weights).
type FileType int

// The file types whisper.cpp's converter (0, 1) and quantizer write.
const (
	FileF32  FileType = 0
	FileF16  FileType = 1
	FileQ4_0 FileType = 2
	FileQ4_1 FileType = 3
	FileQ8_0 FileType = 7
	FileQ5_0 FileType = 8
	FileQ5_1 FileType = 9
)

// fileTypes maps the supported file types to their tensor type. ftype 4,
// "mostly q4_1, some f16", is an old llama.cpp layout whisper.cpp rejects.
var fileTypes = map[FileType]Type{
	FileF32: F32, FileF16: F16, FileQ4_0: Q4_0, FileQ4_1: Q4_1,
	FileQ8_0: Q8_0, FileQ5_0: Q5_0, FileQ5_1: Q5_1,
}

// TensorType returns the tensor type the file type stands for (what its
// 2-D weight matrices hold) and whether ft is supported.
func (ft FileType) TensorType() (Type, bool) {
	t, ok := fileTypes[ft]
	return t, ok
}

// FileTypeOf returns the file type whose weights are of type t.
func FileTypeOf(t Type) (FileType, bool) {
	for ft, tt := range fileTypes {
		if tt == t {
			return ft, true
		}
	}
	return 0, false
}

// String names the file type by its weights' type ("q5_0"), or "ftype N".
func (ft FileType) String() string {
	if t, ok := fileTypes[ft]; ok {
		return t.String()
	}
	return fmt.Sprintf("ftype %d", int(ft))
}
