package captiondata

import (
	"strings"
	"testing"

	"github.com/attend-go/attend/vision"
)

func TestParseChoices(t *testing.T) {
	for _, tc := range []struct {
		name string
		grid vision.Grid
		d    int
	}{{"7x7", vision.GridFinal, 1280}, {"14x14", vision.GridBlock13, 576}} {
		g, err := ParseGrid(tc.name)
		if err != nil || g.Grid != tc.grid || g.D != tc.d {
			t.Errorf("ParseGrid(%q) = %+v, %v", tc.name, g, err)
		}
	}
	if _, err := ParseGrid("7"); err == nil || !strings.Contains(err.Error(), `grid "7": want 7x7 or 14x14`) {
		t.Errorf("ParseGrid(7): %v", err)
	}
	for name, want := range map[string]vision.Fit{"crop": vision.CenterCrop, "squash": vision.Squash} {
		if f, err := ParseFit(name); err != nil || f != want {
			t.Errorf("ParseFit(%q) = %v, %v", name, f, err)
		}
	}
	if _, err := ParseFit("pad"); err == nil || !strings.Contains(err.Error(), `fit "pad": want crop or squash`) {
		t.Errorf("ParseFit(pad): %v", err)
	}
}
