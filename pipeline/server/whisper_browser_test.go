package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// TestBrowserASRPageWhisper: the page served with a Whisper model (the
// shared bundle's random-weight small-en, as "asr serve -model FILE"
// serves it) shows the transcript of an upload and draws the alignment
// heads' cross-attention under it; focusing a word highlights its
// frames. The model's words are nonsense (random weights): the test
// asserts that the page shows what the server decoded, not what it says.
func TestBrowserASRPageWhisper(t *testing.T) {
	ctx := browser(t)
	path := shareddata.Path(t, "whisper/small-en.ggml-f16.bin")
	wav := shareddata.Path(t, "whisper/clips/jfk.wav")
	m, err := speechmodel.OpenWhisper(context.Background(), path, &speechmodel.WhisperOptions{NoFallback: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewASR(ASRConfig{Model: m, ModelID: speechmodel.ModelID(path)}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	ts := serve(t, s)
	within(t, ctx, 120*time.Second, "upload jfk.wav",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitReady(chromedp.CSS("#file")),
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{wav}),
		chromedp.WaitVisible(chromedp.CSS("#transcript .word")),
		chromedp.WaitVisible(chromedp.CSS("#figures canvas")),
	)
	words := eval[[]string](t, ctx, `[...document.querySelectorAll("#transcript .word")].map(b => b.firstChild.textContent)`)
	// The server's own transcript of the same file, for comparison.
	tr, err := speech.NewTranscriber(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := tr.File(wav, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(words, " "); strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(want.Text), " ") {
		t.Errorf("page words %q, want the transcript %q", got, want.Text)
	}
	if len(words) == 0 {
		t.Fatal("no words on the page")
	}
	state := focusWord(t, ctx, words, min(1, len(words)-1))
	if !strings.Contains(state["info"], "tokens") {
		t.Errorf("info %q does not say the rows are tokens", state["info"])
	}
	c := eval[ink](t, ctx, canvasInk+`("#figures canvas")`)
	if c.Ink < 0.3 || c.Colors < 20 {
		t.Errorf("the cross-attention canvas looks blank: %+v", c)
	}
}
