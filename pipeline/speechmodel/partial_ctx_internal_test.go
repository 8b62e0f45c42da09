package speechmodel

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

// TestPartialAudioCtx: a live partial encodes the utterance's positions
// and 1 s more, in steps of 128 positions, at least 256, at most the
// full window; a smaller -audio-ctx the user gave stays, and the final's
// options keep the user's context (0: the full window).
func TestPartialAudioCtx(t *testing.T) {
	for _, tc := range []struct{ frames, want int }{
		{0, 256},
		{300, 256},     // 3 s: 150 + 50 positions
		{412, 256},     // 206 + 50
		{414, 384},     // 207 + 50 = 257
		{1100, 640},    // 11 s: 550 + 50 = 600
		{2900, 1500},   // 29 s
		{3000, 1500},   // a whole window
		{100000, 1500}, // longer than a window: windows of 30 s
	} {
		if got := partialAudioCtx(tc.frames, 1500); got != tc.want {
			t.Errorf("partialAudioCtx(%d frames) = %d, want %d", tc.frames, got, tc.want)
		}
	}
	dir, err := shareddata.Lookup("whisper")
	if err != nil {
		t.Skip(err)
	}
	model := filepath.Join(dir, "small-en.ggml-q8_0.bin")
	if _, err := os.Stat(model); err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct{ user, frames, partial int }{
		{0, 300, 256},
		{0, 1100, 640},
		{128, 1100, 128},
		{1000, 300, 256},
	} {
		w, err := OpenWhisper(t.Context(), model, &WhisperOptions{AudioCtx: tc.user}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := w.partialOptions(tc.frames).AudioCtx; got != tc.partial {
			t.Errorf("-audio-ctx %d, %d frames: partial context %d, want %d", tc.user, tc.frames, got, tc.partial)
		}
		if w.opts.AudioCtx != tc.user {
			t.Errorf("-audio-ctx %d: the final decodes with context %d", tc.user, w.opts.AudioCtx)
		}
	}
}
