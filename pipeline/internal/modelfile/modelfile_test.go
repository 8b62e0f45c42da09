package modelfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

func TestRead(t *testing.T) {
	asrModel := filepath.Join("..", "..", "..", "models", "asr", "default.safetensors")
	empty := filepath.Join(t.TempDir(), "empty.safetensors")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if f, err := Read(asrModel, "asr"); err != nil || f.Kind != "asr" {
		t.Fatalf("the asr model: %v", err)
	}
	tests := []struct {
		path, kind string
		sentinel   error
		want       string
	}{
		{asrModel, "caption", safetensors.ErrKind, asrModel + " is a speech recognition model (for asr), not an image captioning model (for caption)"},
		{"modelfile.go", "asr", safetensors.ErrCorrupt, "modelfile.go is not an attend model file: it is not a safetensors file"},
		{empty, "asr", safetensors.ErrCorrupt, empty + " is not an attend model file: it is empty"},
	}
	for _, tc := range tests {
		_, err := Read(tc.path, tc.kind)
		if !errors.Is(err, tc.sentinel) || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read(%s, %s): %v; want %v saying %q", tc.path, tc.kind, err, tc.sentinel, tc.want)
		}
	}
}
