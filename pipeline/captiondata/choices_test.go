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

func TestGridOf(t *testing.T) {
	g14, _ := ParseGrid("14x14")
	g7, _ := ParseGrid("7x7")
	for _, tc := range []struct {
		g       GridChoice
		encoder string
		d       int
	}{
		{g14, "edgetpu", 768}, {g14, "mobilenet-edgetpu", 768}, {g14, "mobilenet-v2", 576},
		{g14, "", 576}, {g14, "my.tflite", 576}, {g7, "edgetpu", 1280},
	} {
		if got := GridOf(tc.g, tc.encoder); got.D != tc.d || got.H != tc.g.H || got.Grid != tc.g.Grid {
			t.Errorf("GridOf(%s, %q) = %+v, want depth %d", tc.g.Name, tc.encoder, got, tc.d)
		}
	}
}
