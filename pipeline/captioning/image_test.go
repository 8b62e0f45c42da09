package captioning

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/vision"
)

func TestInspectImage(t *testing.T) {
	rep, err := InspectImage(filepath.Join("..", "..", "testdata", "gradient.png"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Format != "png" || rep.Bounds.Dx() != 64 || rep.Bounds.Dy() != 48 {
		t.Errorf("got %s %v", rep.Format, rep.Bounds)
	}
	if rep.Input.C != 3 || rep.Input.H != ImageSize || rep.Input.W != ImageSize {
		t.Errorf("input %d×%d×%d", rep.Input.C, rep.Input.H, rep.Input.W)
	}
	// Blue is constant 128: (128/255 − 0.406)/0.225 after ImageNet normalization.
	if b := rep.ChannelMean[2]; b < 0.42 || b > 0.43 {
		t.Errorf("blue mean %v, want ≈ 0.426", b)
	}
	if _, err := InspectImage(filepath.Join("..", "..", "testdata", "hello.txt"), nil, 0); !errors.Is(err, vision.ErrFormat) {
		t.Errorf("text file: error %v, want vision.ErrFormat", err)
	}
}
