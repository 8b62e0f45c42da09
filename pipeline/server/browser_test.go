package server

import (
	"bytes"
	"context"
	"encoding/binary"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"golang.org/x/image/draw"
)

var (
	updateScreenshots = flag.Bool("update-screenshots", false, "write the page screenshots to docs/ for README.md and docs/serving.md")
	screenshotDir     = flag.String("screenshot-dir", "", "write the page screenshots to this directory, to look at them")
)

// chromiumPath is Debian's chromium.
const chromiumPath = "/usr/bin/chromium"

// browser starts headless Chromium for a test, or skips it where there
// is none.
func browser(t *testing.T) context.Context { return browserWith(t) }

// browserWith is browser with more flags.
func browserWith(t *testing.T, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("skipping: no %s (apt-get install -y chromium)", chromiumPath)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1000, 900),
	}, extra...)...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// Start the browser without a timeout (see chromedp.Run). Headless,
	// the page never has the window's focus, so focus events would not
	// fire without focus emulation.
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	}))
	if err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

// within runs actions with a deadline.
func within(t *testing.T, ctx context.Context, d time.Duration, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// canvasInk is a JavaScript expression giving the fraction of a canvas's
// pixels that are neither white nor transparent, and how many distinct
// colors (of a sample) it holds.
const canvasInk = `(sel => {
  const c = document.querySelector(sel);
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let ink = 0; const colors = new Set();
  for (let i = 0; i < d.length; i += 4) {
    if (d[i+3] > 0 && (d[i] < 245 || d[i+1] < 245 || d[i+2] < 245)) ink++;
    if (i % 64 === 0) colors.add((d[i] << 16) | (d[i+1] << 8) | d[i+2]);
  }
  return {ink: ink / (d.length / 4), colors: colors.size, width: c.width, height: c.height};
})`

type ink struct {
	Ink    float64 `json:"ink"`
	Colors int     `json:"colors"`
	Width  int     `json:"width"`
	Height int     `json:"height"`
}

func TestBrowserASRPage(t *testing.T) {
	ctx := browser(t)
	ts := serve(t, newASRServer(t, Options{Jobs: 1}))
	wav, err := filepath.Abs(filepath.Join(repoRoot, "testdata", "hello.wav"))
	if err != nil {
		t.Fatal(err)
	}
	within(t, ctx, 60*time.Second, "upload hello.wav",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitReady(chromedp.CSS("#file")),
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{wav}),
		chromedp.WaitVisible(chromedp.CSS("#transcript .word")),
		chromedp.WaitVisible(chromedp.CSS("#figures canvas")),
	)
	words := eval[[]string](t, ctx, `[...document.querySelectorAll("#transcript .word")].map(b => b.firstChild.textContent)`)
	if len(words) == 0 {
		t.Fatal("no words on the page")
	}
	// Focus is hover: focusing the second word highlights its frames and
	// characters.
	k := min(1, len(words)-1)
	state := focusWord(t, ctx, words, k)
	if !bytes.Contains([]byte(state["info"]), []byte(words[k])) {
		t.Errorf("info %q does not name the word %q", state["info"], words[k])
	}
	c := eval[ink](t, ctx, canvasInk+`("#figures canvas")`)
	if c.Ink < 0.3 || c.Colors < 20 {
		t.Errorf("the alignment canvas looks blank: %+v", c)
	}
	screenshot(t, ctx, "serve-asr.png", 5, 8)
}

// focusWord focuses the kth of the page's words and returns what the
// page then shows; the word must be active on the page and on the
// canvas, its alignment rows highlighted.
func focusWord(t *testing.T, ctx context.Context, words []string, k int) map[string]string {
	t.Helper()
	within(t, ctx, 10*time.Second, "focus a word", chromedp.Focus(chromedp.CSS("#transcript .word:nth-child("+itoa(k+1)+")")))
	state := eval[map[string]string](t, ctx, `({
	  active: document.querySelector("#transcript .word.active")?.firstChild.textContent ?? "",
	  word: document.querySelector("#figures canvas").dataset.word ?? "",
	  highlight: document.querySelector("#figures canvas").dataset.highlight ?? "",
	  info: document.querySelector("#info").textContent,
	  status: document.querySelector("#status").textContent,
	})`)
	t.Logf("page: %v", state)
	if state["active"] != words[k] || state["word"] != itoa(k) {
		t.Errorf("after focusing word %d %q: active %q, canvas word %q", k, words[k], state["active"], state["word"])
	}
	if state["highlight"] == "" {
		t.Errorf("the alignment highlights no rows for word %q", words[k])
	}
	return state
}

func TestBrowserCaptionPage(t *testing.T) {
	ctx := browser(t)
	ts := serve(t, newCaptionServer(t, Options{Jobs: 1}))
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
	words := eval[[]string](t, ctx, `[...document.querySelectorAll("#caption .word")].map(b => b.firstChild.textContent)`)
	alts := eval[int](t, ctx, `document.querySelectorAll("#alternatives li").length`)
	if len(words) < 2 || alts < 1 {
		t.Fatalf("caption %q with %d alternatives", words, alts)
	}
	// The default search's 30 candidates: 5 shown, the rest behind "show 25 more".
	visibleAlts := `[...document.querySelectorAll("#alternatives li")].filter(li => li.offsetParent !== null).length`
	more := eval[map[string]any](t, ctx, `({visible: `+visibleAlts+`, button: document.querySelector("#more-alternatives").hidden ? "" : document.querySelector("#more-alternatives").textContent})`)
	if alts != 30 || more["visible"] != float64(5) || more["button"] != "show 25 more" {
		t.Errorf("%d alternatives, %v of them shown, button %q; want 30, 5 and \"show 25 more\"", alts, more["visible"], more["button"])
	}

	// The encoder's labels (a cat: "Egyptian cat") and the confidence.
	labels := eval[[]string](t, ctx, `[...document.querySelectorAll("#labels li")].map(li => li.textContent)`)
	conf := eval[string](t, ctx, `document.querySelector("#confidence").textContent`)
	if len(labels) != 3 || !strings.Contains(labels[0], "cat") || !strings.HasPrefix(conf, "confidence 0.") {
		t.Errorf("labels %q, confidence %q", labels, conf)
	}
	before := eval[ink](t, ctx, canvasInk+`("#photo")`)
	k := 1
	within(t, ctx, 10*time.Second, "focus a word", chromedp.Focus(chromedp.CSS("#caption .word:nth-child(2)")))
	state := eval[map[string]string](t, ctx, `({
	  active: document.querySelector("#caption .word.active")?.firstChild.textContent ?? "",
	  word: document.querySelector("#photo").dataset.word ?? "",
	  info: document.querySelector("#info").textContent,
	})`)
	t.Logf("page: %v", state)
	if state["active"] != words[k] || state["word"] != itoa(k) {
		t.Errorf("after focusing word %d %q: active %q, canvas word %q", k, words[k], state["active"], state["word"])
	}
	if !bytes.Contains([]byte(state["info"]), []byte("β =")) {
		t.Errorf("info %q shows no gate β", state["info"])
	}
	after := eval[ink](t, ctx, canvasInk+`("#photo")`)
	if after.Ink < 0.5 || after.Colors < 50 || after.Width < 100 {
		t.Errorf("the heatmap canvas looks blank: %+v (before focus: %+v)", after, before)
	}
	screenshot(t, ctx, "serve-caption.png", 5, 8)
	within(t, ctx, 10*time.Second, "show every candidate", chromedp.Click(chromedp.CSS("#more-alternatives")))
	if n := eval[int](t, ctx, visibleAlts); n != alts {
		t.Errorf("after \"show more\": %d of %d alternatives shown", n, alts)
	}

	// A picture of one colour: the page says why the caption is flagged.
	plain := filepath.Join(t.TempDir(), "grey.png")
	writePlainPNG(t, plain, 300, 200, color.RGBA{128, 128, 128, 255})
	eval[bool](t, ctx, `document.querySelector("#caption").replaceChildren(), true`)
	within(t, ctx, 60*time.Second, "upload a grey picture",
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{plain}),
		chromedp.WaitVisible(chromedp.CSS("#caption .word")),
	)
	conf = eval[string](t, ctx, `document.querySelector("#confidence").textContent`)
	if !strings.Contains(conf, captioning.UniformNote+", so the caption is likely wrong.") {
		t.Errorf("a grey picture: confidence line %q, want it to say %q", conf, captioning.UniformNote)
	}
}

// writePlainPNG writes a w×h picture of colour c to path.
func writePlainPNG(t *testing.T, path string, w, h int, c color.RGBA) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(c), image.Point{}, draw.Src)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// phoneWidth and phoneHeight are a phone's viewport in CSS pixels (an
// iPhone 12 to 15).
const phoneWidth, phoneHeight = 390, 844

// phone emulates a phone's screen: 390×844 CSS pixels, with the mobile
// viewport (the pages' viewport meta tag applies), at 1 device pixel each
// to keep the screenshots small.
func phone(t *testing.T, ctx context.Context) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: phoneWidth, Height: phoneHeight, DeviceScaleFactor: 1, Mobile: true})
		return err
	}))
	if err != nil {
		t.Fatalf("emulating a phone: %v", err)
	}
}

// overflow is a JavaScript expression listing what sticks out of the
// viewport to the right (the page would scroll sideways), and the widths.
const overflow = `(() => {
  const w = window.innerWidth, out = [];
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > w + 0.5) out.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.split(" ").join(".") : "") + " right " + Math.round(r.right));
  }
  return {inner: w, scroll: document.documentElement.scrollWidth, out: out.slice(0, 10)};
})()`

type overflowed struct {
	Inner  int      `json:"inner"`
	Scroll int      `json:"scroll"`
	Out    []string `json:"out"`
}

// checkPhoneWidth fails the test if the page is wider than the phone.
func checkPhoneWidth(t *testing.T, ctx context.Context) {
	t.Helper()
	o := eval[overflowed](t, ctx, overflow)
	if o.Inner != phoneWidth {
		t.Errorf("window.innerWidth %d, want %d", o.Inner, phoneWidth)
	}
	if o.Scroll > o.Inner || len(o.Out) > 0 {
		t.Errorf("the page scrolls sideways on a phone: scrollWidth %d > innerWidth %d; sticking out: %q", o.Scroll, o.Inner, o.Out)
	}
}

func TestBrowserASRPhone(t *testing.T) {
	ctx := browser(t)
	phone(t, ctx)
	ts := serve(t, newASRServer(t, Options{Jobs: 1}))
	wav, err := filepath.Abs(filepath.Join(repoRoot, "testdata", "hello.wav"))
	if err != nil {
		t.Fatal(err)
	}
	within(t, ctx, 60*time.Second, "open the page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitReady(chromedp.CSS("#file")))
	checkPhoneWidth(t, ctx)
	within(t, ctx, 60*time.Second, "upload hello.wav",
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{wav}),
		chromedp.WaitVisible(chromedp.CSS("#transcript .word")),
		chromedp.WaitVisible(chromedp.CSS("#figures canvas")),
	)
	within(t, ctx, 10*time.Second, "focus a word", chromedp.Focus(chromedp.CSS("#transcript .word:nth-child(2)")))
	checkPhoneWidth(t, ctx)
	c := eval[ink](t, ctx, canvasInk+`("#figures canvas")`)
	if c.Ink < 0.3 || c.Width > 2*phoneWidth {
		t.Errorf("the alignment canvas on a phone: %+v", c)
	}
	screenshot(t, ctx, "serve-asr-phone.png", 1, 1)
}

func TestBrowserCaptionPhone(t *testing.T) {
	ctx := browser(t)
	phone(t, ctx)
	ts := serve(t, newCaptionServer(t, Options{Jobs: 1}))
	photo, err := filepath.Abs(filepath.Join(repoRoot, "testdata", "photos", "chelsea.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	within(t, ctx, 60*time.Second, "open the page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitReady(chromedp.CSS("#file")))
	checkPhoneWidth(t, ctx)
	within(t, ctx, 60*time.Second, "upload a photo",
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{photo}),
		chromedp.WaitVisible(chromedp.CSS("#caption .word")),
	)
	within(t, ctx, 10*time.Second, "focus a word", chromedp.Focus(chromedp.CSS("#caption .word:nth-child(2)")))
	checkPhoneWidth(t, ctx)
	screenshot(t, ctx, "serve-caption-phone.png", 1, 1)
}

// readmeScreenshots are the screenshots README.md and docs/serving.md show, from docs/.
var readmeScreenshots = map[string]bool{"serve-asr.png": true, "serve-caption.png": true, "serve-asr-phone.png": true}

// screenshot takes a screenshot of the page, checks it is not blank and,
// with -update-screenshots, writes it to docs/name (if the docs show
// it), scaled by num/den.
func screenshot(t *testing.T, ctx context.Context, name string, num, den int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	data, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	checkScreenshot(t, data, name, num, den)
}

// checkScreenshot checks a PNG screenshot is not blank and writes it,
// scaled by num/den, to docs/ (-update-screenshots, if the docs show
// it), to -screenshot-dir, or to a temporary directory.
func checkScreenshot(t testing.TB, data []byte, name string, num, den int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	colors := map[[3]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colors[[3]uint32{r >> 10, g >> 10, bl >> 10}] = true
		}
	}
	if len(colors) < 100 {
		t.Errorf("screenshot %s has %d colors: blank?", name, len(colors))
	}
	out := filepath.Join(t.TempDir(), name)
	if *updateScreenshots && readmeScreenshots[name] {
		out = filepath.Join(repoRoot, "docs", name)
	} else if *screenshotDir != "" {
		out = filepath.Join(*screenshotDir, name)
	}
	small := image.NewRGBA(image.Rect(0, 0, b.Dx()*num/den, b.Dy()*num/den))
	draw.CatmullRom.Scale(small, small.Bounds(), img, b, draw.Src, nil)
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, small); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d×%d, %d KB)", out, small.Bounds().Dx(), small.Bounds().Dy(), buf.Len()>>10)
}

func itoa(i int) string { return string(rune('0' + i)) }

// quietHello writes hello.wav after 12 s and before 4 s of faint noise:
// three chunks, the first and last without speech.
func quietHello(t *testing.T) string {
	t.Helper()
	wav, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "hello.wav"))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(wav, []byte("data"))
	if i < 0 || !bytes.Contains(wav[:i], []byte("\x01\x00\x01\x00\x80\x3e\x00\x00")) { // PCM, mono, 16 kHz
		t.Fatal("hello.wav is not 16 kHz mono PCM")
	}
	pcm := wav[i+8:]
	rng := rand.New(rand.NewPCG(1, 2))
	noise := func(seconds int) []byte {
		b := make([]byte, 2*16000*seconds)
		for k := 0; k < len(b); k += 2 {
			binary.LittleEndian.PutUint16(b[k:], uint16(int16(rng.NormFloat64()*300)))
		}
		return b
	}
	data := append(append(noise(12), pcm...), noise(4)...)
	out := append([]byte{}, wav[:i+4]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(data)))
	out = append(out, data...)
	binary.LittleEndian.PutUint32(out[4:], uint32(len(out)-8))
	path := filepath.Join(t.TempDir(), "quiet-hello.wav")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrowserASRNoSpeech checks the page says which chunks hold no
// speech, instead of drawing empty figures, and which came from a CTC
// fallback.
func TestBrowserASRNoSpeech(t *testing.T) {
	ctx := browser(t)
	ts := serve(t, newASRServer(t, Options{Jobs: 1}))
	within(t, ctx, 90*time.Second, "upload quiet-hello.wav",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitReady(chromedp.CSS("#file")),
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{quietHello(t)}),
		chromedp.WaitVisible(chromedp.CSS("#transcript .word")),
	)
	type page struct {
		Figures  int      `json:"figures"`
		Canvases int      `json:"canvases"`
		Notes    []string `json:"notes"`
		Words    int      `json:"words"`
	}
	p := eval[page](t, ctx, `({
	  figures: document.querySelectorAll("#figures figure").length,
	  canvases: document.querySelectorAll("#figures canvas").length,
	  notes: [...document.querySelectorAll("#figures .note")].map(n => n.textContent),
	  words: document.querySelectorAll("#transcript .word").length,
	})`)
	t.Logf("page: %+v", p)
	noSpeech := 0
	for _, n := range p.Notes {
		switch {
		case strings.HasPrefix(n, "No speech"):
			noSpeech++
		case strings.HasPrefix(n, "CTC fallback"): // the speech chunk may fall back (it does with this model)
		default:
			t.Errorf("note %q", n)
		}
	}
	if p.Figures != 3 || p.Canvases != 1 || noSpeech != 2 || p.Words == 0 {
		t.Fatalf("want 3 chunks, one drawn, two noted as without speech: %+v", p)
	}
	screenshot(t, ctx, "serve-asr-nospeech.png", 5, 8)
}
