package asr

import (
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// TestEmbeddedIDs checks that the ID written in default.go is the
// embedded file's (safetensors.ModelID): after replacing the file, put the
// new digest there.
func TestEmbeddedIDs(t *testing.T) {
	if got := safetensors.ModelID("attend-asr-default", defaultFile); got != DefaultID {
		t.Errorf("DefaultID is %s, the embedded file's ID is %s: update it in default.go", DefaultID, got)
	}
}
