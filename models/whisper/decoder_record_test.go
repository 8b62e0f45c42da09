package whisper

import (
	"slices"
	"testing"

	"github.com/attend-go/attend/models/ggml"
)

// TestRecordedHeads checks that a decoder keeps the cross-attention
// scores of the heads it was told to record, the same as a decoder
// recording more heads keeps for them, and nothing for any other head
// (word timing reads the alignment heads only: keeping every head's
// scores took 66 MB for base's shape over one window's 230 tokens).
func TestRecordedHeads(t *testing.T) {
	m := generatedFile(t, bundleShape, 9095, ggml.F16)
	audio, err := m.Encode(randomMel(m.Dims(), 13))
	if err != nil {
		t.Fatal(err)
	}
	defer audio.Release()
	tokens := []int{50257, 50362, 400, 1200}
	decode := func(record [][2]int) TextDecoder {
		d := m.NewDecoder(audio, record)
		if _, err := d.Forward(tokens); err != nil {
			t.Fatal(err)
		}
		return d
	}
	one, more := decode([][2]int{{1, 2}}), decode([][2]int{{0, 0}, {1, 2}, {1, 3}})
	if got := one.CrossQK(1, 2); len(got) != len(tokens) {
		t.Fatalf("recorded head (1, 2): %d rows, want %d", len(got), len(tokens))
	}
	for p, row := range one.CrossQK(1, 2) {
		if !slices.Equal(row, more.CrossQK(1, 2)[p]) {
			t.Fatalf("position %d: the scores differ with more heads recorded", p)
		}
	}
	for _, lh := range [][2]int{{0, 0}, {1, 3}, {0, 2}, {2, 0}, {-1, 0}, {0, 4}} {
		if got := one.CrossQK(lh[0], lh[1]); got != nil {
			t.Errorf("head %v, not recorded: %d rows, want none", lh, len(got))
		}
	}
	if got := decode(nil).CrossQK(1, 2); got != nil {
		t.Errorf("a decoder recording nothing has %d rows", len(got))
	}
	if c := one.Clone(); len(c.CrossQK(1, 2)) != len(tokens) || c.CrossQK(0, 0) != nil {
		t.Error("a clone does not keep what its source recorded")
	}
}
