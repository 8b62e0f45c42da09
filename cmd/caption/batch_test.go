package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/captioning"
)

// batchArgs caption with the tiny model from the feature cache. The
// encoder named does not exist: an image the cache lacks fails instead
// of starting a download.
func batchArgs(args ...string) []string {
	return append([]string{"-model", fixtureModel, "-cache", fixtureCache, "-encoder", filepath.Join("no", "encoder.tflite")}, args...)
}

// album is a directory tree of fixture images with the files a real one
// holds besides: notes (passed over) and, unless clean, a text file named
// .jpg (taken by the walk, and failing).
type album struct {
	dir     string
	images  map[string]string // path → the caption the tiny model gives it
	broken  string            // path of the input that fails, or ""
	figures []string          // the figures of the images, relative to an --overlay directory
}

func newAlbum(t *testing.T, clean bool) *album {
	t.Helper()
	a := &album{dir: filepath.Join(t.TempDir(), "album"), images: map[string]string{}}
	for _, img := range []struct{ name, fixture, caption string }{
		{"red-square.png", "red-square", "a red square"},
		{"blue-circle.png", "blue-circle", "a blue circle"},
		{"sub/green-triangle.png", "green-triangle", "a green triangle"},
		{"sub/yellow-square.png", "yellow-square", "a yellow square"},
	} {
		data, err := os.ReadFile(fixtureImage(img.fixture))
		if err != nil {
			t.Fatal(err)
		}
		a.images[a.write(t, img.name, data)] = img.caption
		a.figures = append(a.figures, img.name) // a PNG's figure has its name
	}
	a.write(t, "sub/notes.txt", []byte("taken on a sunny day\n"))
	if !clean {
		a.broken = a.write(t, "broken.jpg", []byte("not an image at all\n"))
	}
	slices.Sort(a.figures)
	return a
}

// write puts a file into the album and returns its path.
func (a *album) write(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(a.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o666); err != nil {
		t.Fatal(err)
	}
	return p
}

// inputs returns every input path of the album, sorted.
func (a *album) inputs() []string {
	paths := slices.Collect(maps.Keys(a.images))
	if a.broken != "" {
		paths = append(paths, a.broken)
	}
	slices.Sort(paths)
	return paths
}

// captionRecord is a JSONL record of caption as the tests read it.
type captionRecord struct {
	Path   string `json:"path"`
	Model  string `json:"model"`
	Text   string `json:"text"`
	Error  string `json:"error"`
	Result struct {
		Caption    string             `json:"caption"`
		Words      []string           `json:"words"`
		Overlay    string             `json:"overlay"`
		Labels     []captioning.Label `json:"labels"`
		Confidence float64            `json:"confidence"`
	} `json:"result"`
	line string
}

// parseRecords reads JSONL records, failing on a path recorded twice.
func parseRecords(t *testing.T, data string) map[string]captionRecord {
	t.Helper()
	recs := map[string]captionRecord{}
	for _, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
		if line == "" {
			continue
		}
		var r captionRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		if _, dup := recs[r.Path]; dup {
			t.Errorf("%s recorded twice", r.Path)
		}
		r.line = line
		recs[r.Path] = r
	}
	return recs
}

func readCaptionRecords(t *testing.T, path string) map[string]captionRecord {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseRecords(t, string(data))
}

// checkAlbumRecords checks that recs hold exactly the album's inputs: the
// images captioned by the tiny model (with their figures below figures,
// unless it is ""), the broken one failed.
func checkAlbumRecords(t *testing.T, a *album, recs map[string]captionRecord, figures string) {
	t.Helper()
	if got := slices.Sorted(maps.Keys(recs)); !slices.Equal(got, a.inputs()) {
		t.Fatalf("records of %q, want %q", got, a.inputs())
	}
	for p, want := range a.images {
		r := recs[p]
		if r.Error != "" || r.Text != want || r.Result.Caption != want || strings.Join(r.Result.Words, " ") != want || r.Model != fixtureModel {
			t.Errorf("record of %s: %+v; want %q by %s", p, r, want, fixtureModel)
		}
		if figures == "" {
			if r.Result.Overlay != "" {
				t.Errorf("record of %s names a figure, %s, though none was asked for", p, r.Result.Overlay)
			}
			continue
		}
		rel, _ := filepath.Rel(a.dir, p)
		if want := filepath.Join(figures, rel); r.Result.Overlay != want {
			t.Errorf("record of %s: figure %q, want %q", p, r.Result.Overlay, want)
		}
	}
	if a.broken != "" {
		if r := recs[a.broken]; !strings.Contains(r.Error, a.broken+": ") || r.Text != "" {
			t.Errorf("record of %s: error %q, text %q; want an error naming it", a.broken, r.Error, r.Text)
		}
	}
}

// filesBelow lists the files below dir, slash-separated and sorted.
func filesBelow(t *testing.T, dir string) []string {
	t.Helper()
	var got []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestDescribeDir runs batches over a directory as a user would: with
// figures, again (refused), resumed, sharded and merged, and with a
// json file per image below an output directory.
func TestDescribeDir(t *testing.T) {
	a := newAlbum(t, false)
	work := t.TempDir()
	out, figures := filepath.Join(work, "out.jsonl"), filepath.Join(work, "attention")

	code, stdout, stderr := runCase(batchArgs("-j", "2", "--overlay", figures, "-o", out, a.dir), nil)
	if code != 1 || stdout != "" {
		t.Fatalf("exit %d, stdout %q; want 1 (broken.jpg fails) and nothing\nstderr: %s", code, stdout, stderr)
	}
	for _, want := range []string{"caption: 5 inputs (1 other file ignored)", "failed: " + a.broken, "4 done, 1 failed"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	first := readCaptionRecords(t, out)
	checkAlbumRecords(t, a, first, figures)
	if got := filesBelow(t, figures); !slices.Equal(got, a.figures) {
		t.Errorf("figures %q, want %q", got, a.figures)
	}
	fig, err := os.Open(first[filepath.Join(a.dir, "red-square.png")].Result.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	defer fig.Close()
	if _, err := png.Decode(fig); err != nil {
		t.Errorf("the figure of red-square.png: %v", err)
	}

	t.Run("same caption as a single file", func(t *testing.T) {
		img := filepath.Join(a.dir, "sub", "green-triangle.png")
		code, stdout, stderr := runCase(batchArgs(img), nil)
		if caption, _, _ := strings.Cut(stdout, "\t"); code != 0 || caption != first[img].Text {
			t.Errorf("caption %s: exit %d, %q; the batch recorded %q\n%s", img, code, stdout, first[img].Text, stderr)
		}
	})

	t.Run("existing output refused", func(t *testing.T) {
		code, _, stderr := runCase(batchArgs("-o", out, a.dir), nil)
		if code != 2 || !strings.Contains(stderr, "--resume") {
			t.Errorf("exit %d, stderr %q; want 2 (as docs/batch.md documents) and a hint to --resume", code, stderr)
		}
		if recs := readCaptionRecords(t, out); len(recs) != len(first) {
			t.Errorf("the refused run left %d records, want %d", len(recs), len(first))
		}
	})

	t.Run("resume retries the failure alone", func(t *testing.T) {
		code, _, stderr := runCase(batchArgs("--overlay", figures, "--resume", "-o", out, a.dir), nil)
		if code != 1 || !strings.Contains(stderr, "4 records kept, 1 failures to retry") || !strings.Contains(stderr, "0 done, 1 failed, 4 skipped") {
			t.Errorf("exit %d; want 1, the failure retried and the rest skipped\nstderr: %s", code, stderr)
		}
		again := readCaptionRecords(t, out)
		checkAlbumRecords(t, a, again, figures)
		for p := range a.images {
			if again[p].line != first[p].line {
				t.Errorf("resume redid %s:\n%s\nwas\n%s", p, again[p].line, first[p].line)
			}
		}
	})

	t.Run("shards merged", func(t *testing.T) {
		var shards []string
		// Three shards: FNV-1a's lowest bit is the parity of the bytes'
		// lowest bits, which these five names share.
		for _, s := range []string{"0/3", "1/3", "2/3"} {
			shard := filepath.Join(work, "shard-"+s[:1]+".jsonl")
			code, _, stderr := runCase(batchArgs("--quiet", "--overlay", figures, "--shard", s, "-o", shard, a.dir), nil)
			if code != 0 && code != 1 {
				t.Fatalf("shard %s: exit %d\n%s", s, code, stderr)
			}
			if n := len(readCaptionRecords(t, shard)); n == 0 || n == len(first) {
				t.Errorf("shard %s has %d of the %d inputs; the album is not split", s, n, len(first))
			}
			shards = append(shards, shard)
		}
		all := filepath.Join(work, "all.jsonl")
		code, _, stderr := runCase(append([]string{"merge", "-o", all}, shards...), nil)
		if code != 0 || !strings.Contains(stderr, "caption: merged 5 records (1 failed) of 3 outputs") {
			t.Fatalf("merge: exit %d\n%s", code, stderr)
		}
		merged := readCaptionRecords(t, all)
		checkAlbumRecords(t, a, merged, figures)
		var paths []string
		for p, r := range first {
			if m := merged[p]; m.Text != r.Text || m.Error != r.Error || m.Result.Overlay != r.Result.Overlay {
				t.Errorf("%s: sharded %+v; unsharded %+v", p, m, r)
			}
		}
		data, err := os.ReadFile(all)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var r captionRecord
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, r.Path)
		}
		if !slices.IsSorted(paths) {
			t.Errorf("merged paths not sorted: %q", paths)
		}
	})

	t.Run("a json file per image below an output directory", func(t *testing.T) {
		side := filepath.Join(work, "json")
		code, stdout, stderr := runCase(batchArgs("--quiet", "-format", "json", "--out-dir", side, a.dir), nil)
		if code != 1 || stdout != "" {
			t.Fatalf("exit %d, stdout %q; want 1 and nothing\n%s", code, stdout, stderr)
		}
		if got, want := filesBelow(t, side), []string{"blue-circle.json", "red-square.json", "sub/green-triangle.json", "sub/yellow-square.json"}; !slices.Equal(got, want) {
			t.Errorf("files below --out-dir: %q, want %q", got, want)
		}
		data, err := os.ReadFile(filepath.Join(side, "sub", "yellow-square.json"))
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Caption string   `json:"caption"`
			Words   []string `json:"words"`
		}
		if err := json.Unmarshal(data, &r); err != nil || r.Caption != "a yellow square" || len(r.Words) != 3 {
			t.Errorf("yellow-square.json = %s (%v); want the caption and its 3 words", data, err)
		}
	})
}

// TestDescribeDirResume: a batch that completed is skipped whole by a
// rerun with --resume, its output unchanged; so are its txt files.
func TestDescribeDirResume(t *testing.T) {
	a := newAlbum(t, true)
	work := t.TempDir()
	out, side := filepath.Join(work, "out.tsv"), filepath.Join(work, "txt")
	for run, want := range []string{"4 done, 0 failed in", "0 done, 0 failed, 4 skipped (already done)"} {
		args := []string{"-o", out, "--out-dir", side, a.dir}
		if run > 0 {
			args = append([]string{"--resume"}, args...)
		}
		code, _, stderr := runCase(batchArgs(args...), nil)
		if code != 0 || !strings.Contains(stderr, want) {
			t.Fatalf("run %d: exit %d; want 0 and %q\nstderr: %s", run+1, code, want, stderr)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 5 || lines[0] != "path\ttext\terror\tmodel\tseconds\tstarted" {
		t.Fatalf("TSV after a resumed run:\n%s", data)
	}
	txt, err := os.ReadFile(filepath.Join(side, "red-square.txt"))
	if err != nil || string(txt) != "a red square\n" {
		t.Errorf("red-square.txt = %q, %v; want the caption", txt, err)
	}
}

// TestDescribeDirSkipsFigures puts the figures inside the directory
// described: a rerun passes them over, as it does the notes.
func TestDescribeDirSkipsFigures(t *testing.T) {
	a := newAlbum(t, true)
	figures := filepath.Join(a.dir, "attention")
	for run, want := range []string{"4 inputs (1 other file ignored)", "4 inputs (5 other files ignored)"} {
		code, stdout, stderr := runCase(batchArgs("--overlay", figures, a.dir), nil)
		if code != 0 || !strings.Contains(stderr, want) {
			t.Fatalf("run %d: exit %d; want 0 and %q\nstderr: %s", run+1, code, want, stderr)
		}
		checkAlbumRecords(t, a, parseRecords(t, stdout), figures)
	}
	if got := filesBelow(t, figures); !slices.Equal(got, a.figures) {
		t.Errorf("figures %q, want %q", got, a.figures)
	}
}

// TestDescribeList reads the inputs from a list on standard input and
// writes CSV records to standard output in input order.
func TestDescribeList(t *testing.T) {
	a := newAlbum(t, true)
	first, second := filepath.Join(a.dir, "sub", "yellow-square.png"), filepath.Join(a.dir, "blue-circle.png")
	list := first + "\x00" + second + "\x00"
	code, stdout, stderr := runCase(batchArgs("--quiet", "--ordered", "--list", "-", "-o", "-", "--output-format", "csv"), []byte(list))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 3 || lines[0] != "path,text,error,model,seconds,started" {
		t.Fatalf("CSV output:\n%s", stdout)
	}
	for i, want := range []string{first + ",a yellow square,," + fixtureModel + ",", second + ",a blue circle,," + fixtureModel + ","} {
		if !strings.HasPrefix(lines[i+1], want) {
			t.Errorf("row %d = %q; want it to start %q", i+1, lines[i+1], want)
		}
	}
}

// TestDescribeOverlayFiles draws the figures of images named as files;
// one that fails is reported and the others go on.
func TestDescribeOverlayFiles(t *testing.T) {
	a := newAlbum(t, false)
	figures := filepath.Join(t.TempDir(), "figures")
	red, green := filepath.Join(a.dir, "red-square.png"), filepath.Join(a.dir, "sub", "green-triangle.png")
	code, stdout, stderr := runCase(batchArgs("--overlay", figures, red, a.broken, green), nil)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (broken.jpg fails)\n%s", code, stderr)
	}
	if want := red + "\ta red square\tconfidence 0.42\n" + green + "\ta green triangle\tconfidence 0.38\n"; stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	for _, want := range []string{"caption: wrote " + filepath.Join(figures, "red-square.png"), a.broken + ": unknown image format"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if got, want := filesBelow(t, figures), []string{"green-triangle.png", "red-square.png"}; !slices.Equal(got, want) {
		t.Errorf("figures %q, want %q", got, want)
	}
	t.Run("never over an input", func(t *testing.T) {
		before := mustRead(t, red)
		code, stdout, stderr := runCase(batchArgs("--overlay", a.dir, red), nil)
		// The figure is refused; the caption stands (a warning, not a failure).
		if code != 0 || stdout != "a red square\tconfidence 0.42\n" || !strings.Contains(stderr, "warning: no figure") || !strings.Contains(stderr, "written over it") {
			t.Errorf("exit %d, stdout %q, stderr %q; want 0, the caption and a warning", code, stdout, stderr)
		}
		if !bytes.Equal(mustRead(t, red), before) {
			t.Error("the input was replaced")
		}
	})
}

// TestDescribeBatchErrors: usage errors exit with 2 and name the flag;
// failures of the whole batch with 1.
func TestDescribeBatchErrors(t *testing.T) {
	a := newAlbum(t, true)
	empty := t.TempDir()
	out := filepath.Join(t.TempDir(), "out.jsonl")
	red := filepath.Join(a.dir, "red-square.png")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"bad -j", batchArgs("-j", "-1", a.dir), 2, "-j -1: want at least 1"},
		{"resume and overwrite", batchArgs("--resume", "--overwrite", "-o", out, a.dir), 2, "--resume and --overwrite exclude each other"},
		{"output format without -o", batchArgs("--output-format", "tsv", a.dir), 2, "it is the format of -o"},
		{"bad output format", batchArgs("--output-format", "xml", "-o", out, a.dir), 2, `--output-format "xml"`},
		{"resume without outputs", batchArgs("--resume", a.dir), 2, "--resume needs outputs"},
		{"resume standard output", batchArgs("--resume", "-o", "-", a.dir), 2, "cannot resume standard output"},
		{"-o names a file per image", batchArgs("-o", "captions.json", a.dir), 2, "use --format json"},
		{"bad shard", batchArgs("--shard", "2/2", a.dir), 2, `--shard: batch: bad shard "2/2"`},
		{"bad format", batchArgs("-format", "srt", a.dir), 2, `-format "srt": want one of txt, json`},
		{"negative length penalty", batchArgs("-length-penalty", "-1", a.dir), 2, "-length-penalty -1: want 0 to 10"},
		{"NaN length penalty", batchArgs("-length-penalty", "NaN", a.dir), 2, "-length-penalty NaN: want 0 to 10"},
		{"batch flag for files", batchArgs("-j", "2", red), 2, "-j applies to batches"},
		{"standard input in a batch", batchArgs("-o", out, "-"), 2, "cannot be a batch input"},
		{"no input", batchArgs("--quiet"), 2, "needs at least one image or directory"},
		{"no images", batchArgs(empty), 1, "no images found: 0 inputs"},
		{"merge nothing", []string{"merge"}, 2, "merge needs the outputs"},
		{"merge help", []string{"merge", "-h"}, 0, `"caption describe --shard i/n -o FILE"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCase(tc.args, nil)
			if tc.code == 0 { // help: on standard output
				stdout, stderr = stderr, stdout
			}
			if code != tc.code || stdout != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q", code, stdout, stderr, tc.code, tc.stderr)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written by a command that failed", out)
	}
}

// TestDescribeBatchMissingEncoder: an image that the cache lacks needs
// the encoder, and a missing one fails that image, naming it.
func TestDescribeBatchMissingEncoder(t *testing.T) {
	a := newAlbum(t, true)
	a.write(t, "new.png", mustRead(t, fixtureImage("red-circle")))
	code, stdout, stderr := runCase(batchArgs("--quiet", a.dir), nil)
	if code != 1 || !strings.Contains(stderr, filepath.Join(a.dir, "new.png")+": captioning: no image encoder:") || strings.Count(stderr, "curl -L -o") != 1 {
		t.Errorf("exit %d, stderr %q; want 1 and the encoder error for new.png", code, stderr)
	}
	if recs := parseRecords(t, stdout); len(recs) != 5 || recs[filepath.Join(a.dir, "new.png")].Error == "" {
		t.Errorf("records %s; want 5, new.png failed", stdout)
	}
}

// TestDescribeDirEncoder runs the real encoder (from the shared data) in
// two workers, each with its own copy of its buffers: every image gets
// the caption, labels and confidence that describing it alone gives.
func TestDescribeDirEncoder(t *testing.T) {
	encoder := sharedEncoder(t)
	a := newAlbum(t, true)
	code, stdout, stderr := runCase([]string{"-model", fixtureModel, "-encoder", encoder, "-j", "2", "--quiet", a.dir}, nil)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	recs := parseRecords(t, stdout)
	paths := a.inputs()
	code, stdout, stderr = runCase(append([]string{"-model", fixtureModel, "-encoder", encoder}, paths...), nil)
	if code != 0 {
		t.Fatalf("files: exit %d\n%s", code, stderr)
	}
	var want []string
	for _, p := range paths {
		if recs[p].Error != "" {
			t.Errorf("%s: %s", p, recs[p].Error)
		}
		if len(recs[p].Result.Labels) != captioning.TopLabels {
			t.Errorf("%s: labels %v, want %d", p, recs[p].Result.Labels, captioning.TopLabels)
		}
		r := captioning.Result{Labels: recs[p].Result.Labels, Confidence: recs[p].Result.Confidence}
		want = append(want, p+"\t"+recs[p].Text+"\t"+r.Notes())
	}
	if got := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("described one by one:\n%s\nin a batch:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
