package whisper

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/models/ggml"
)

// TestWriteGeneratedModels writes random-weight models of the tiny.en
// and base.en shapes (generatedShapes' seeds) as whisper.cpp ggml f16
// files, random-tiny.en.bin and random-base.en.bin, into the directory
// $ATTEND_WHISPER_GENERATE, for measuring speed where no real checkpoint
// can be downloaded (the live transcription's real-time factor on one
// core, docs/speech.md). They decode nothing meaningful, but they cost
// what the released models of those shapes cost per window and per
// token.
func TestWriteGeneratedModels(t *testing.T) {
	dir := os.Getenv("ATTEND_WHISPER_GENERATE")
	if dir == "" {
		t.Skip("skipping: set ATTEND_WHISPER_GENERATE=DIR to write random tiny.en and base.en models there")
	}
	for _, s := range generatedShapes {
		if s.dims != tinyDims && s.dims != baseDims {
			continue
		}
		path := filepath.Join(dir, "random-"+s.name+".en.bin")
		if err := ggml.WriteFile(path, generateModel(s.dims, s.seed).ggml(t, false)); err != nil {
			t.Fatal(err)
		}
		m, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if m.Dims() != s.dims {
			t.Fatalf("%s: dims %+v, want %+v", path, m.Dims(), s.dims)
		}
		t.Logf("wrote %s", path)
	}
}
