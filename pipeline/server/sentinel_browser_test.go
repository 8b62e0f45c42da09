package server

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/chromedp/chromedp"
)

var sentinelModel = flag.String("sentinel-model", "", "an adaptive-attention caption model for TestBrowserCaptionSentinel (default: a small random one)")

// adaptiveModel returns -sentinel-model, or writes a small random
// adaptive-attention model over the default model's vocabulary and the
// encoder's 7×7×1280 grid.
func adaptiveModel(t *testing.T) string {
	t.Helper()
	if *sentinelModel != "" {
		return *sentinelModel
	}
	def, err := caption.Default()
	if err != nil {
		t.Fatal(err)
	}
	cfg := caption.Config{Regions: 49, FeatureDim: 1280, Embed: 16, Hidden: 16, AttentionDim: 16, Attention: caption.Adaptive, NoGate: true}
	m, err := caption.New(cfg, def.Vocab, 3)
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.File()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "adaptive.safetensors")
	if err := safetensors.WriteFile(path, f, safetensors.F32); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrowserCaptionSentinel checks the caption page with an adaptive
// model: each word's bar is how much it looked, 1 − its sentinel weight,
// which its title and the info line give.
func TestBrowserCaptionSentinel(t *testing.T) {
	ctx := browser(t)
	c, err := captioning.NewCaptioner(context.Background(), captioning.CaptionerOptions{
		Model: adaptiveModel(t), Encoder: sharedEncoder(t), Search: &caption.SearchOptions{MaxLength: 12, LengthPenalty: 1, NoUnk: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	s, err := NewCaption(CaptionConfig{Captioner: c, ModelID: "adaptive"}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	ts := serve(t, s)
	photo, err := filepath.Abs(filepath.Join(repoRoot, "testdata", "photos", "chelsea.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	within(t, ctx, 60*time.Second, "upload a photo",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitReady(chromedp.CSS("#file")),
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{photo}),
		chromedp.WaitVisible(chromedp.CSS("#caption .word")),
	)
	type word struct {
		Text  string `json:"text"`
		Title string `json:"title"`
		Bar   string `json:"bar"`
	}
	words := eval[[]word](t, ctx, `[...document.querySelectorAll("#caption .word")].map(b => ({
	  text: b.firstChild.textContent, title: b.title, bar: b.querySelector(".bar i").style.width}))`)
	if len(words) < 2 {
		t.Fatalf("caption %v", words)
	}
	for i, w := range words {
		var s float64
		var looked int
		if _, err := fmt.Sscanf(w.Title, "sentinel %g · looked %d%%", &s, &looked); err != nil {
			t.Errorf("word %d %q: title %q, want the sentinel weight and how much it looked (%v)", i, w.Text, w.Title, err)
			continue
		}
		if w.Bar != fmt.Sprintf("%d%%", looked) {
			t.Errorf("word %d %q: bar %s, want %d%% (1 − sentinel %g)", i, w.Text, w.Bar, looked, s)
		}
	}
	within(t, ctx, 10*time.Second, "focus a word", chromedp.Focus(chromedp.CSS("#caption .word:nth-child(2)")))
	info := eval[string](t, ctx, `document.querySelector("#info").textContent`)
	if !strings.Contains(info, "sentinel") || strings.Contains(info, "β =") {
		t.Errorf("info %q, want the sentinel weight and no gate", info)
	}
	t.Logf("words %v; info %q", words, info)
	screenshot(t, ctx, "serve-caption-sentinel.png", 5, 8)
}
