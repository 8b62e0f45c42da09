package vision

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var updateTinyModel = flag.Bool("update-tiny-model", false, "rewrite "+tinyModelFile+" from newTinyNet(1)")

// tinyModelFile is the tiny synthetic model of newTinyNet(1), saved for the
// examples, which cannot call test helpers.
const tinyModelFile = "testdata/tiny_mobilenet.tflite"

// TestTinyModelFile keeps the saved tiny model equal to what the builder
// makes; regenerate it with go test -run TinyModelFile -update-tiny-model.
func TestTinyModelFile(t *testing.T) {
	want := newTinyNet(1).model.flatbuffer()
	if *updateTinyModel {
		if err := os.WriteFile(tinyModelFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(tinyModelFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s (%d bytes) differs from newTinyNet(1) (%d bytes); rerun with -update-tiny-model", tinyModelFile, len(got), len(want))
	}
}
