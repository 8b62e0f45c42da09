package safetensors

import (
	"crypto/sha256"
	"encoding/hex"
)

// ModelID names a model file by name and content: name@sha256:DIGEST,
// DIGEST the first 12 hex digits of the SHA-256 of the file's bytes. Batch
// records and logs carry it, so outputs made by the default models of two
// releases (same name, other weights) can be told apart. 12 hex digits
// (48 bits) make an accidental clash among a project's model files
// vanishingly unlikely; `sha256sum FILE` shows the full digest to compare.
func ModelID(name string, file []byte) string {
	sum := sha256.Sum256(file)
	return name + "@sha256:" + hex.EncodeToString(sum[:6])
}
