package speech_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/attend-go/attend/vision"
)

// embedMain is a program of another module that uses attend through its
// public API alone, as README's "Use from Go" shows: it transcribes the
// file of its first argument and, given an image as well, captions it and
// draws the attention overlay to a writer.
const embedMain = `package main

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"

	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/attend-go/attend/pipeline/overlay"
	"github.com/attend-go/attend/pipeline/speech"
)

func main() {
	ctx := context.Background()
	rec, err := speech.New(nil) // the embedded model and language model
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	t, err := rec.Segments(ctx, f, func(c speech.Chunk) error {
		fmt.Printf("chunk %.1f-%.1f s: %s\n", c.Start, c.End, c.Text)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("text:", t.Text)
	if len(os.Args) < 3 {
		return
	}
	c, err := captioning.NewCaptioner(ctx, captioning.CaptionerOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	img, _, err := captioning.LoadImage(os.Args[2], nil)
	if err != nil {
		log.Fatal(err)
	}
	r, err := c.CaptionImage(img)
	if err != nil {
		log.Fatal(err)
	}
	fig := overlay.FromResult(r, c.Model.Config)
	var png bytes.Buffer
	if err := overlay.Encode(&png, img, &fig, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("caption: %s (overlay: %d bytes of PNG)\n", r.Caption, png.Len())
}
`

// TestPublicAPIFromAnotherModule builds embedMain in a module of its
// own that requires attend, replaced by this checkout, and runs it: the
// public API suffices to embed attend, and the module resolves offline
// (its go.sum is attend's; GOPROXY=off). The captioning half runs when
// the image encoder the default caption model needs is at hand
// ($ATTEND_ENCODER, or the project's shared data directory beside the
// checkout).
func TestPublicAPIFromAnotherModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program of another module (about 20 s): skipped with -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod := "module example.com/embed\n\ngo 1.26.0\n\nrequire github.com/attend-go/attend v0.0.0\n\nreplace github.com/attend-go/attend => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"go.mod": []byte(goMod), "go.sum": sum, "main.go": []byte(embedMain)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local")
	build := exec.Command(gobin, "build", "-o", "embed", ".")
	build.Dir, build.Env = dir, env
	if out, err := build.CombinedOutput(); err != nil {
		if s := string(out); strings.Contains(s, "GOPROXY=off") || strings.Contains(s, "module lookup disabled") {
			t.Skipf("the toolchain cannot resolve attend's dependencies offline (fill the module cache with go mod download):\n%s", s)
		}
		t.Fatalf("go build of a module that imports attend: %v\n%s", err, out)
	}
	args := []string{filepath.Join(root, "testdata", "hello.wav")}
	encoder := os.Getenv(vision.EncoderEnv)
	if encoder == "" {
		encoder, _ = shareddata.Lookup(shareddata.EncoderFor(captioning.DefaultEncoder().File))
	}
	if encoder != "" {
		args = append(args, filepath.Join(root, "testdata", "photos", "chelsea.jpg"))
		env = append(env, vision.EncoderEnv+"="+encoder)
	} else {
		t.Logf("no image encoder ($%s): captioning not run", vision.EncoderEnv)
	}
	run := exec.Command(filepath.Join(dir, "embed"), args...)
	run.Env = env
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("the program failed: %v\n%s", err, out)
	}
	want := "chunk 0.0-3.4 s: the quick brown fox jumps over the lazy god\ntext: the quick brown fox jumps over the lazy god\n"
	if !strings.HasPrefix(string(out), want) {
		t.Errorf("the program printed\n%s\nwant it to start with\n%s", out, want)
	}
	if encoder != "" && !strings.Contains(string(out), "caption: ") {
		t.Errorf("the program printed no caption:\n%s", out)
	}
	t.Logf("%s", out)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
