package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli/clitest"
	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/pipeline/captioning"
)

// TestDocsCommandsParse checks every caption command line that README.md
// and docs/*.md show, in code blocks and in the prose: its command exists
// ("caption photo.jpg" is "caption describe photo.jpg") and each of its
// flags is one that command's help lists.
func TestDocsCommandsParse(t *testing.T) {
	cmds := clitest.DocCommands(t, filepath.Join("..", ".."), "caption")
	if len(cmds) < 40 {
		t.Fatalf("found %d caption command lines in the docs; the extraction broke", len(cmds))
	}
	t.Logf("%d caption command lines", len(cmds))
	flags := map[string]map[string]bool{}
	for _, c := range cmds {
		name, args := c.Args[0], c.Args[1:]
		switch {
		case name == "help" || name == "version" || name == "-h" || name == "…":
			continue
		case !slices.Contains(commands.Names(), name):
			name, args = commands.Default, c.Args
		}
		if flags[name] == nil {
			flags[name] = clitest.HelpFlags(commands.Help(name))
		}
		for _, f := range clitest.UnknownFlags(flags[name], args) {
			t.Errorf("%s: caption %s has no flag %s", c, name, f)
		}
	}
}

// TestReadmePhotoCaptions runs the README's "caption testdata/photos/*.jpg"
// with the real encoder the default model needs and checks that it prints
// the captions the README, and the caption guide, show.
func TestReadmePhotoCaptions(t *testing.T) {
	encoder, err := shareddata.Lookup(shareddata.EncoderFor(captioning.DefaultEncoder().File))
	if err != nil {
		t.Skipf("needs the image encoder: %v", err)
	}
	root := filepath.Join("..", "..")
	photos, err := filepath.Glob(filepath.Join(root, "testdata", "photos", "*.jpg"))
	if err != nil || len(photos) == 0 {
		t.Fatalf("no photos in testdata/photos: %v", err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(append([]string{"-encoder", encoder}, photos...), nil, &stdout, &stderr); err != nil {
		t.Fatalf("caption testdata/photos/*.jpg: %v\n%s", err, stderr.String())
	}
	got := strings.Split(strings.TrimSpace(strings.ReplaceAll(stdout.String(), filepath.Join(root, "testdata"), "testdata")), "\n")
	const prompt = "$ caption testdata/photos/*.jpg\n"
	for _, page := range []string{"README.md", filepath.Join("docs", "caption.md")} {
		data, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		_, listing, ok := strings.Cut(string(data), prompt)
		if !ok {
			t.Errorf("%s no longer shows %q", page, strings.TrimSpace(prompt))
			continue
		}
		listing, _, _ = strings.Cut(listing, "```")
		if want := strings.Split(strings.TrimSpace(listing), "\n"); !slices.Equal(got, want) {
			t.Errorf("caption testdata/photos/*.jpg printed\n%s\n%s shows\n%s", strings.Join(got, "\n"), page, strings.Join(want, "\n"))
		}
	}
}
