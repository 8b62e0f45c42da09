//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package batch

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// Heads of files that IsAudio and IsImage recognize by content.
var (
	wavHead  = []byte("RIFF\x24\x00\x00\x00WAVEfmt ")
	flacHead = []byte("fLaC\x00\x00\x00\x22")
	oggHead  = append([]byte("OggS\x00\x02"+strings.Repeat("\x00", 20)+"\x01\x1e"), "\x01vorbis\x00\x00\x00\x00"...)
	jpegHead = []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00")
)

// makeTree builds a corpus with media, non-media, hidden files, a
// symbolic-link loop, a second link to a directory, a dangling link and
// a FIFO, and returns the temporary directory holding it.
func makeTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string][]byte{
		"corpus/a.wav":           wavHead,
		"corpus/mystery":         oggHead, // audio without an extension
		"corpus/notes.txt":       []byte("not audio"),
		"corpus/.hidden.wav":     wavHead,
		"corpus/.git/obj.wav":    wavHead,
		"corpus/spk1/b.flac":     flacHead,
		"corpus/spk1/empty.wav":  nil, // no bytes, but named as audio
		"corpus/spk1/photo.jpg":  jpegHead,
		"corpus/spk1/deep/c.wav": wavHead,
		"extra.txt":              []byte("named explicitly"),
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"corpus/spk1/deep/loop": "../..", // back to corpus
		"corpus/spk2":           "spk1",
		"corpus/dangling.wav":   "nowhere.wav",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "corpus", "fifo.wav"), 0o666); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCollectWalk(t *testing.T) {
	dir := makeTree(t)
	corpus := filepath.Join(dir, "corpus")
	c := func(rel string) string { return filepath.Join(corpus, rel) }
	col, err := Collect([]string{corpus, filepath.Join(dir, "extra.txt"), filepath.Join(dir, "missing.wav")}, &CollectOptions{Accept: IsAudio})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range col.Inputs {
		s := in.Path + " @" + in.Root
		if in.Err != nil {
			s += " (error)"
		}
		got = append(got, s)
	}
	want := []string{
		c("a.wav") + " @" + corpus,
		c("dangling.wav") + " @" + corpus + " (error)",
		c("mystery") + " @" + corpus,
		c("spk1/b.flac") + " @" + corpus,
		c("spk1/deep/c.wav") + " @" + corpus,
		c("spk1/empty.wav") + " @" + corpus,
		filepath.Join(dir, "extra.txt") + " @" + dir,
		filepath.Join(dir, "missing.wav") + " @" + dir + " (error)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("inputs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// .git, .hidden.wav, fifo.wav, notes.txt, photo.jpg
	if col.Ignored != 5 {
		t.Errorf("%d ignored, want 5", col.Ignored)
	}
	wantSkipped := []Skipped{
		{c("spk1/deep/loop"), "symbolic-link loop: it leads back to " + corpus},
		{c("spk2"), "same directory as " + c("spk1") + ", already walked"},
	}
	if !reflect.DeepEqual(col.Skipped, wantSkipped) {
		t.Errorf("skipped %q, want %q", col.Skipped, wantSkipped)
	}
	if got, want := col.String(), "8 inputs (5 other files ignored, 2 directories skipped)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if in := col.Inputs[4]; in.Rel() != "spk1/deep/c.wav" {
		t.Errorf("Rel() = %q", in.Rel())
	}
}

func TestCollectOptions(t *testing.T) {
	dir := makeTree(t)
	corpus := filepath.Join(dir, "corpus")
	tests := []struct {
		name string
		args []string
		opts CollectOptions
		want []string // paths relative to dir
	}{
		{"flat", []string{corpus}, CollectOptions{Flat: true, Accept: IsAudio},
			[]string{"corpus/a.wav", "corpus/dangling.wav", "corpus/mystery"}},
		{"hidden", []string{corpus}, CollectOptions{Hidden: true, Accept: IsAudio},
			[]string{"corpus/.git/obj.wav", "corpus/.hidden.wav", "corpus/a.wav", "corpus/dangling.wav", "corpus/mystery",
				"corpus/spk1/b.flac", "corpus/spk1/deep/c.wav", "corpus/spk1/empty.wav"}},
		{"images", []string{corpus}, CollectOptions{Accept: IsImage},
			[]string{"corpus/dangling.wav", "corpus/spk1/photo.jpg"}},
		// Walking spk1 alone, the link deep/loop leads up to corpus,
		// which is no loop yet: it is walked, down to its link to spk1.
		{"every regular file", []string{filepath.Join(corpus, "spk1")}, CollectOptions{},
			[]string{"corpus/spk1/b.flac", "corpus/spk1/deep/c.wav",
				"corpus/spk1/deep/loop/a.wav", "corpus/spk1/deep/loop/dangling.wav", "corpus/spk1/deep/loop/mystery", "corpus/spk1/deep/loop/notes.txt",
				"corpus/spk1/empty.wav", "corpus/spk1/photo.jpg"}},
		{"named twice", []string{filepath.Join(corpus, "a.wav"), corpus + "/"}, CollectOptions{Flat: true, Accept: IsAudio},
			[]string{"corpus/a.wav", "corpus/dangling.wav", "corpus/mystery"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			col, err := Collect(tc.args, &tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, in := range col.Inputs {
				rel, _ := filepath.Rel(dir, in.Path)
				got = append(got, filepath.ToSlash(rel))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("inputs %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCollectShardsPartition(t *testing.T) {
	dir := makeTree(t)
	all, err := Collect([]string{filepath.Join(dir, "corpus")}, &CollectOptions{Accept: IsAudio})
	if err != nil {
		t.Fatal(err)
	}
	const n = 3
	var union []string
	for i := range n {
		col, err := Collect([]string{filepath.Join(dir, "corpus")}, &CollectOptions{Accept: IsAudio, Shard: Shard{i, n}})
		if err != nil {
			t.Fatal(err)
		}
		// Files of other shards are not read, so not sorted into inputs
		// and ignored ones.
		if got, want := len(col.Inputs)+col.OtherShards+col.Ignored, len(all.Inputs)+all.Ignored; got != want {
			t.Errorf("shard %d: %d inputs + %d in other shards + %d ignored, want %d in all", i, len(col.Inputs), col.OtherShards, col.Ignored, want)
		}
		for _, in := range col.Inputs {
			union = append(union, in.Path)
		}
	}
	slices.Sort(union)
	var want []string
	for _, in := range all.Inputs {
		want = append(want, in.Path)
	}
	slices.Sort(want)
	if !slices.Equal(union, want) {
		t.Errorf("the shards hold %q, want each of %q once", union, want)
	}
}
