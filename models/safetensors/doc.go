// Package safetensors is attend's model file format: every checkpoint,
// shipped model and feature cache is one safetensors file. It needs
// neither gorgonia nor a model, so reading a model file or a feature cache
// links none of the training core; package models converts its parameters
// to and from File (Params.NewFile, Params.Load).
//
// The format is safetensors
// (https://github.com/huggingface/safetensors), so the wider ML ecosystem
// (Python's safetensors, PyTorch, Hugging Face tools) reads it too:
//
//	offset 0     8 bytes   N, the header length, unsigned little-endian
//	offset 8     N bytes   the header: UTF-8 JSON, padded with spaces
//	offset 8+N   the rest  the data buffer: all tensor values, little-endian
//
// The header is one JSON object. Each tensor has an entry; the key
// __metadata__ holds a map of strings to strings:
//
//	{"__metadata__":{"attend.config":"{\"hidden\":256}","attend.format_version":"1",
//	  "attend.kind":"asr","attend.vocab":"[\"<eos>\",\"a\",…]"},
//	 "enc.w":{"dtype":"F16","shape":[256,80],"data_offsets":[0,40960]}, …}
//
// A tensor's values are row-major (C order) and occupy the bytes
// [begin, end) of the data buffer given by data_offsets, so that
// end − begin = product(shape) × dtype size. An empty shape is a scalar.
//
// # Metadata
//
// An attend model file carries four metadata entries, all strings:
//
//	attend.kind            the model: "asr", "caption", …
//	attend.format_version  "1"; see FormatVersion
//	attend.config          the model's config record, as JSON
//	attend.vocab           the vocabulary, a JSON array of strings
//
// File holds them as typed fields (Kind, FormatVersion, Config, Vocab);
// any other entries pass through in File.Extra. From Python:
//
//	import json
//	from safetensors import safe_open
//	with safe_open("model.safetensors", framework="np") as f:
//	    config = json.loads(f.metadata()["attend.config"])
//	    w = f.get_tensor("enc.w")
//
// # Writing
//
// Write and WriteFile store tensors as F32 or F16. The layout is fixed, so
// the same File always gives the same bytes: __metadata__ first with its
// keys sorted, then the tensors sorted by name, their data contiguous in
// that order, and the header padded with spaces to a multiple of 8 bytes
// so that the data buffer is 8-byte aligned. This is what the Rust
// implementation, and so Python's safetensors, writes for a file of one
// dtype (it sorts tensors by dtype alignment, then name), except that it
// leaves the metadata keys in hash-map order.
//
// F16 (IEEE half: 11 significant bits, about 3 decimal digits, range
// ±65504) halves the size of shipped models; training checkpoints use F32
// so that resuming is exact. A
// finite weight that would overflow to ±Inf in F16 is an error, not a
// silent Inf. Float16bits and Float16frombits are the conversions: IEEE
// 754 round to nearest even, with subnormals, signed zeros and infinities,
// and NaNs that keep their sign and the top bits of their payload.
//
// WriteFile is atomic: it writes a temporary file in the target's
// directory, syncs and closes it, renames it over the target and syncs the
// directory. A crash or an error leaves the old file intact.
//
// # Reading
//
// ReadFile, Parse (for go:embed'ed models) and Read (any io.ReaderAt)
// validate the whole file before returning, and convert F32, F16, BF16 and
// F64 tensors to float32. NewReader reads any safetensors file,
// attend metadata or not, and reads tensors on demand, as float32 or, for
// float64 fixtures such as gradient checks, as float64.
//
// Validation follows the Rust implementation: a header length of at least
// 2 bytes and at most 100 MB, within the file; UTF-8 JSON starting with
// '{'; known dtypes; non-negative integer shapes whose byte size, computed
// without overflow, matches data_offsets; and entries that, sorted by
// offset, tile the data buffer exactly. Holes between tensors and bytes
// after the last one are errors, as in the specification. A key given
// twice, at the top level or within an entry, is an error too, rather than
// one of the two winning silently. Like the Rust reader this package
// ignores unknown fields in an entry and accepts any JSON whitespace as
// padding. The 100 MB header cap
// bounds what a lying length prefix can cost; every other allocation is
// bounded by the file's size.
//
// Every error names the file (for ReadFile) and the problem, such as
//
//	models: m.safetensors: tensor "enc.w": data_offsets [0 100] hold 100 bytes, shape [5 6] F32 needs 120
//
// and wraps one of the sentinels: ErrCorrupt for a broken file or
// missing attend metadata, ErrUnsupported for a dtype this package does
// not convert or a newer format version, ErrKind for the wrong kind of
// model (File.CheckKind), and ErrMismatch for tensors or config that do not
// fit the model (File.Expect, File.CheckNames, File.DecodeConfig).
//
// The file testdata/check_spec.py checks files independently
// of this package, with nothing but Python's json and struct (and numpy
// when present); the tests run it on files this package writes.
//
// Error messages start with "models: ", as they did when this package was
// part of package models: the format is the models' file format, and
// scripts that match messages keep working.
package safetensors
