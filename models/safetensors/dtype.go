package safetensors

// DType names the element type of a stored tensor, spelled as in the
// safetensors header ("F32", "F16", …).
//
// This package reads F32, F16, BF16 and F64 tensors and writes F32 and F16.
// A header may name any other byte-sized safetensors dtype (BOOL, U8, I8,
// F8_E5M2, F8_E4M3, F8_E8M0, I16, U16, I32, U32, I64, U64, C64): such a file
// is valid and its entries are listed, but their values cannot be read
// (ErrUnsupported).
type DType string

// The dtypes whose values this package converts.
const (
	F32  DType = "F32"  // IEEE 754 binary32
	F16  DType = "F16"  // IEEE 754 binary16; see Float16bits
	BF16 DType = "BF16" // bfloat16: the top 16 bits of a binary32
	F64  DType = "F64"  // IEEE 754 binary64
)

// dtypeSizes holds the element size in bytes of every dtype the safetensors
// specification defines with a whole number of bytes per element.
var dtypeSizes = map[DType]int{
	"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "F8_E8M0": 1,
	"I16": 2, "U16": 2, F16: 2, BF16: 2,
	"I32": 4, "U32": 4, F32: 4,
	"I64": 8, "U64": 8, F64: 8, "C64": 8,
}

// Size returns the size of one element in bytes, or 0 if d is not a
// safetensors dtype this package knows.
func (d DType) Size() int { return dtypeSizes[d] }

// String returns the dtype's name as written in a safetensors header.
func (d DType) String() string { return string(d) }

// readable reports whether this package converts values of d to floats.
func (d DType) readable() bool { return d == F32 || d == F16 || d == BF16 || d == F64 }
