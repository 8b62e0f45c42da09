// Package ggml reads and writes whisper.cpp's ggml model files (the
// ggml-tiny.en.bin … ggml-large-v3.bin users download), dequantizes and
// quantizes their tensors bit for bit as ggml does, and multiplies
// quantized rows by vectors without dequantizing them. It also tells model
// file formats apart by content (Sniff), so that a loader can give a clear
// error for a file it cannot read. It needs neither gorgonia nor cgo.
//
// # File layout
//
// Everything is little-endian; there is no padding or alignment anywhere.
// The loader is whisper_model_load in whisper.cpp's src/whisper.cpp, the
// writers are models/convert-pt-to-ggml.py (f32/f16) and the quantize
// example (examples/quantize/quantize.cpp with ggml_common_quantize_0 in
// examples/common-ggml.cpp).
//
//	uint32  magic 0x67676d6c ("ggml"; "lmgg" on disk)
//	int32   n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer,
//	        n_text_ctx, n_text_state, n_text_head, n_text_layer, n_mels, ftype
//	int32   n_mel, n_fft                          mel filterbank
//	float32 filters[n_mel][n_fft]                 openai/whisper's mel_filters, n_fft = 201
//	int32   n_tokens                              vocabulary
//	        n_tokens × { uint32 len; byte token[len] }
//	        tensors until the end of the file:
//	int32   n_dims (0 … 4), name_len, type
//	int32   ne[n_dims]                            ne[0] varies fastest
//	byte    name[name_len]
//	byte    data[…]                               size from type and ne
//
// ftype is the type of the 2-D weights (FileType: 0 f32, 1 f16, 2 q4_0,
// 3 q4_1, 7 q8_0, 8 q5_0, 9 q5_1) plus 1000 × the quantization version
// (QuantVersion, 2 since 2023; 0 in the converter's f32/f16 files): a q8_0
// file stores 2007. Tensor type ids are ggml's ggml_type (Type): f32 0,
// f16 1, q4_0 2, q4_1 3, q5_0 6, q5_1 7, q8_0 8.
//
// The vocabulary holds the BPE tokens' raw bytes by id (not necessarily
// UTF-8; old converters wrote bytes that are not UTF-8 as U+FFFD). Files
// store 50,256 or 50,257 tokens: fewer than n_vocab, and whisper.cpp names
// the rest (special tokens, timestamps) itself. whisper.cpp's
// for-tests-ggml-*.bin have the header, filters and vocabulary and no
// tensors; Read accepts them.
//
// # Tensors
//
// The converter writes openai/whisper's state dict in order under its
// names (encoder.conv1.weight, encoder.blocks.0.attn.query.weight,
// decoder.token_embedding.weight, …), each with ne = the PyTorch shape
// reversed: a Linear weight [out, in] is stored with ne = [in, out], out
// rows of in contiguous values, so RowMajorShape gives PyTorch's shape
// back. The conv biases are reshaped to [n, 1] (ne = [1, n]). Weights of
// two or more dimensions are f16 in an f16 file; 1-D tensors, the conv
// biases and the positional embeddings are f32. The quantize tool
// (QuantizeFile does the same) quantizes every 2-D tensor except the conv
// biases and positional embeddings; the 3-D conv weights stay f16.
//
// # Block formats
//
// The quantized types cut each row into blocks of 32 values (ne[0] must be
// a multiple of 32) and store each block as a float16 scale d, for some
// types a float16 offset m, and 32 small integers q (ggml/src/ggml-common.h):
//
//	type  bytes  layout                          value
//	q4_0  18     d, qs[16]                       x = d·(q − 8),  q ∈ 0…15
//	q4_1  20     d, m, qs[16]                    x = d·q + m,    q ∈ 0…15
//	q5_0  22     d, qh[4], qs[16]                x = d·(q − 16), q ∈ 0…31
//	q5_1  24     d, m, qh[4], qs[16]             x = d·q + m,    q ∈ 0…31
//	q8_0  34     d, qs[32] (int8)                x = d·q,        q ∈ −127…127
//
// Nibbles: byte j of qs holds element j in its low four bits and element
// j+16 in its high four. 5-bit types: bit j of the little-endian uint32 qh
// is bit 4 of element j, so q_j = (qs[j] & 15) | ((qh >> j) & 1) << 4 and
// q_{j+16} = (qs[j] >> 4) | ((qh >> (j+16)) & 1) << 4.
//
// The reference quantizers (quantize_row_*_ref in ggml/src/ggml-quants.c,
// which whisper.cpp's quantize tool uses) choose, per block:
//
//	q8_0:       d = max|x|/127,        q = round(x/d), halves away from zero
//	q4_0, q5_0: d = x*/−8 or x*/−16 (x* the first value of largest magnitude),
//	            q = min(15 or 31, trunc(x/d + 8.5 or 16.5))
//	q4_1, q5_1: d = (max − min)/15 or /31, m = min,
//	            q = trunc((x − min)/d + 0.5) (q4_1 clamped to 15)
//
// with x/d computed as x·(1/d) in float32, and d and m rounded to float16
// (nearest, ties to even). Quantize and DequantizeRow reproduce these and
// dequantize_row_* bit for bit: the tests compare them with blocks made by
// ggml's own C code (testdata/gen_reference.c) and with the q8_0 and q5_0
// files whisper.cpp's quantize tool wrote for the shared Whisper bundle,
// which QuantizeFile and Write reproduce byte for byte.
//
// # Keeping weights quantized
//
// Tensor.Data stays as stored, so a q5_0 model costs about 0.69 bytes per
// weight in memory. DotRow and Tensor.MulVec multiply a stored row by a
// float32 vector block by block: d·Σ q_j x_j (+ m·Σ x_j), equal to the dot
// product of the dequantized row up to float32 rounding. (ggml instead
// quantizes the vector to q8 first; the results differ by that rounding.)
// These are plain Go, one row at a time: about 1–2 GFLOP/s per core,
// several times slower than dequantizing into float32 and using the SGEMM
// kernels, and meant for memory-bound uses (one decoder token) or as the
// reference for faster kernels.
//
// Read holds every tensor's data in memory, about the file's size.
// ReadIndex reads and checks the same headers but no tensor data; a loader
// then reads each tensor when it needs it (Tensor.ReadData, or its own
// io.ReaderAt reads of DataSize bytes at Offset), so converting a model
// never holds the whole file beside the converted weights.
//
// # Errors
//
// Read checks every count and size against the bytes left in the file
// before reading or allocating anything, so a corrupt header costs an
// error, not memory. Its errors are *FormatError values naming the field
// and its byte offset, wrapping ErrFormat (malformed), ErrTruncated (the
// file ends early; also io.ErrUnexpectedEOF) or ErrUnsupported (a k-quant
// tensor, a GGUF file, a PyTorch checkpoint, …).
//
// # References
//
// whisper.cpp (github.com/ggml-org/whisper.cpp, MIT), checked at commit
// 233fe1fc9: src/whisper.cpp (whisper_model_load), models/convert-pt-to-ggml.py,
// examples/quantize/quantize.cpp, examples/common-ggml.cpp,
// ggml/include/ggml.h (ggml_type, ggml_ftype, GGML_FILE_MAGIC,
// GGML_QNT_VERSION), ggml/src/ggml-common.h (block structs),
// ggml/src/ggml-quants.c (quantize_row_*_ref, dequantize_row_*),
// ggml/src/ggml-impl.h (the float16 conversions).
package ggml
