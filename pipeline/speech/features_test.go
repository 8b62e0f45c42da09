package speech

import (
	"path/filepath"
	"testing"
	"unicode/utf8"
)

var testdata = filepath.Join("..", "..", "testdata")

func TestLoadFeatures(t *testing.T) {
	rep, err := LoadFeatures(filepath.Join(testdata, "hello.wav"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Features.Frames != 342 || rep.Features.Bins != 80 || len(rep.Energy) != 342 {
		t.Fatalf("features %d×%d, energy %d; want 342×80", rep.Features.Frames, rep.Features.Bins, len(rep.Energy))
	}
	// The clip ends in silence: the last frames are the quietest.
	if last, mid := rep.Energy[340], rep.Energy[100]; !(last < mid-3) {
		t.Errorf("energy at the silent end %v, mid-speech %v", last, mid)
	}
}

func TestSparkline(t *testing.T) {
	tests := []struct {
		values []float32
		width  int
		want   string
	}{
		{nil, 5, ""},
		{[]float32{1, 2}, 0, ""},
		{[]float32{0, 7}, 2, "▁█"},
		{[]float32{3, 3, 3}, 3, "▁▁▁"},
		{[]float32{0, 0, 7, 7}, 2, "▁█"},
		{[]float32{0, 1}, 10, "▁█"},
	}
	for _, tc := range tests {
		got := Sparkline(tc.values, tc.width)
		if got != tc.want {
			t.Errorf("Sparkline(%v, %d) = %q, want %q", tc.values, tc.width, got, tc.want)
		}
		if n := utf8.RuneCountInString(got); n > tc.width {
			t.Errorf("Sparkline(%v, %d) is %d wide", tc.values, tc.width, n)
		}
	}
}
