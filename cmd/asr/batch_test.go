package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/cmd/internal/cli/clitest"
	"github.com/attend-go/attend/pipeline/batch"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// envChild holds the arguments (JSON) of the asr command this test binary
// runs instead of the tests, as a child process that tests interrupt.
const envChild = "ASR_TEST_CHILD_ARGS"

func TestMain(m *testing.M) {
	clitest.ToolMain("asr", run) // the recipe test's asr command
	if js := os.Getenv(envChild); js != "" {
		var args []string
		if err := json.Unmarshal([]byte(js), &args); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(cli.ExitCode("asr", run(args, os.Stdin, os.Stdout, os.Stderr), os.Stderr))
	}
	os.Exit(m.Run())
}

// asrRun runs the asr tool in-process and returns its exit status and
// output.
func asrRun(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = cli.ExitCode("asr", run(args, strings.NewReader(stdin), &out, &errOut), &errOut)
	return code, out.String(), errOut.String()
}

// corpus is a directory tree of test clips, with the files a real corpus
// holds besides: an empty recording and a text file named .mp3 (both are
// taken by the walk and must fail), and notes (passed over).
type corpus struct {
	dir  string
	good []string // paths of the clips that transcribe
	bad  []string // paths of the inputs that fail
}

func newCorpus(t *testing.T) *corpus {
	t.Helper()
	testdata := filepath.Join("..", "..", "testdata")
	c := &corpus{dir: filepath.Join(t.TempDir(), "corpus")}
	copies := map[string]string{
		"hello.wav":      filepath.Join(testdata, "hello.wav"),
		"spk1/u01.flac":  filepath.Join(testdata, "speech", "u01.flac"),
		"spk1/u02.flac":  filepath.Join(testdata, "speech", "u02.flac"),
		"spk2/u03.flac":  filepath.Join(testdata, "speech", "u03.flac"),
		"spk2/notes.txt": filepath.Join(testdata, "hello.txt"),
	}
	for name, src := range copies {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		c.write(t, name, data)
		if !strings.HasSuffix(name, ".txt") {
			c.good = append(c.good, filepath.Join(c.dir, name))
		}
	}
	c.write(t, "empty.wav", nil)
	c.write(t, "spk1/readme.mp3", []byte("not audio at all\n"))
	c.bad = []string{filepath.Join(c.dir, "empty.wav"), filepath.Join(c.dir, "spk1", "readme.mp3")}
	return c
}

func (c *corpus) write(t *testing.T, name string, data []byte) {
	t.Helper()
	p := filepath.Join(c.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o666); err != nil {
		t.Fatal(err)
	}
}

// record is a JSONL record as the tests read it.
type record struct {
	Path   string          `json:"path"`
	Model  string          `json:"model"`
	Text   string          `json:"text"`
	Error  string          `json:"error"`
	Result json.RawMessage `json:"result"`
	line   string
}

// readRecords reads a JSONL output, failing on a path recorded twice.
func readRecords(t *testing.T, path string) map[string]record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs := map[string]record{}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "" {
			continue
		}
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v: %q", path, err, line)
		}
		if _, dup := recs[r.Path]; dup {
			t.Errorf("%s: %s recorded twice", path, r.Path)
		}
		r.line = line
		recs[r.Path] = r
	}
	return recs
}

// checkRecords checks that recs holds exactly the corpus's inputs, the
// good ones transcribed and the bad ones failed.
func checkRecords(t *testing.T, c *corpus, recs map[string]record) {
	t.Helper()
	want := slices.Sorted(slices.Values(append(slices.Clone(c.good), c.bad...)))
	if got := slices.Sorted(maps.Keys(recs)); !slices.Equal(got, want) {
		t.Fatalf("records of %q, want %q", got, want)
	}
	for _, p := range c.good {
		r := recs[p]
		var tr struct {
			Chunks []json.RawMessage `json:"chunks"`
		}
		if err := json.Unmarshal(r.Result, &tr); r.Error != "" || r.Model != speechmodel.ModelID("") || err != nil || len(tr.Chunks) == 0 {
			t.Errorf("record of %s: error %q, model %q, result %s (%v); want a transcript by attend-asr-default", p, r.Error, r.Model, r.Result, err)
		}
	}
	for _, p := range c.bad {
		if r := recs[p]; r.Error == "" || !strings.HasPrefix(r.Error, p+": audio: ") || r.Text != "" {
			t.Errorf("record of %s: error %q, text %q; want the audio error naming it", p, r.Error, r.Text)
		}
	}
}

// TestTranscribeDir runs a batch over a directory, as a user would: the
// first run, a refused rerun, a resumed one, sharded runs merged, and
// subtitles below an output directory.
func TestTranscribeDir(t *testing.T) {
	c := newCorpus(t)
	work := t.TempDir()
	out := filepath.Join(work, "out.jsonl")

	code, stdout, stderr := asrRun(t, "", "transcribe", "-beam", "1", "-j", "2", "-o", out, c.dir)
	if code != 1 || stdout != "" {
		t.Fatalf("exit %d, stdout %q; want 1 (two inputs fail) and nothing\nstderr: %s", code, stdout, stderr)
	}
	for _, want := range []string{"6 inputs (1 other file ignored)", "failed: " + c.bad[0], "failed: " + c.bad[1], "4 done, 2 failed"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	first := readRecords(t, out)
	checkRecords(t, c, first)

	t.Run("same text as a single file", func(t *testing.T) {
		hello := filepath.Join(c.dir, "hello.wav")
		code, stdout, stderr := asrRun(t, "", "transcribe", "-beam", "1", hello)
		if code != 0 || stdout != first[hello].Text+"\n" {
			t.Errorf("transcribe %s: exit %d, %q; the batch recorded %q\n%s", hello, code, stdout, first[hello].Text, stderr)
		}
	})

	t.Run("existing output refused", func(t *testing.T) {
		code, _, stderr := asrRun(t, "", "transcribe", "-beam", "1", "-o", out, c.dir)
		if code != 2 || !strings.Contains(stderr, "--resume") {
			t.Errorf("exit %d, stderr %q; want 2 (as docs/batch.md documents) and a hint to --resume", code, stderr)
		}
		if recs := readRecords(t, out); len(recs) != len(first) {
			t.Errorf("the refused run left %d records, want %d", len(recs), len(first))
		}
	})

	t.Run("resume", func(t *testing.T) {
		code, _, stderr := asrRun(t, "", "transcribe", "-beam", "1", "--resume", "-o", out, c.dir)
		if code != 1 || !strings.Contains(stderr, "4 records kept, 2 failures to retry") || !strings.Contains(stderr, "0 done, 2 failed, 4 skipped") {
			t.Errorf("exit %d; want 1, the failures retried and the rest skipped\nstderr: %s", code, stderr)
		}
		again := readRecords(t, out)
		checkRecords(t, c, again)
		for _, p := range c.good {
			if again[p].line != first[p].line {
				t.Errorf("resume redid %s:\n%s\nwas\n%s", p, again[p].line, first[p].line)
			}
		}
	})

	t.Run("shards merged", func(t *testing.T) {
		var shards []string
		for _, s := range []string{"0/2", "1/2"} {
			shard := filepath.Join(work, "shard-"+s[:1]+".jsonl")
			code, _, stderr := asrRun(t, "", "transcribe", "-beam", "1", "--quiet", "--shard", s, "-o", shard, c.dir)
			if code != 0 && code != 1 {
				t.Fatalf("shard %s: exit %d\n%s", s, code, stderr)
			}
			if n := len(readRecords(t, shard)); n == 0 || n == len(first) {
				t.Errorf("shard %s has %d of the %d inputs; the corpus is not split", s, n, len(first))
			}
			shards = append(shards, shard)
		}
		all := filepath.Join(work, "all.jsonl")
		code, _, stderr := asrRun(t, "", append([]string{"merge", "-o", all}, shards...)...)
		if code != 0 || !strings.Contains(stderr, "merged 6 records (2 failed) of 2 outputs") {
			t.Fatalf("merge: exit %d\n%s", code, stderr)
		}
		merged := readRecords(t, all)
		checkRecords(t, c, merged)
		for p, r := range first {
			if m := merged[p]; m.Text != r.Text || m.Error != r.Error {
				t.Errorf("%s: sharded %q, %q; unsharded %q, %q", p, m.Text, m.Error, r.Text, r.Error)
			}
		}
		data, err := os.ReadFile(all)
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var r record
			json.Unmarshal([]byte(line), &r)
			paths = append(paths, r.Path)
		}
		if !slices.IsSorted(paths) {
			t.Errorf("merged paths not sorted: %q", paths)
		}
	})

	t.Run("subtitles below an output directory", func(t *testing.T) {
		subs := filepath.Join(work, "subs")
		code, _, stderr := asrRun(t, "", "transcribe", "-beam", "1", "--quiet", "--format", "srt", "--out-dir", subs, c.dir)
		if code != 1 {
			t.Fatalf("exit %d, want 1\n%s", code, stderr)
		}
		hello, err := os.ReadFile(filepath.Join(subs, "hello.srt"))
		if err != nil {
			t.Fatal(err)
		}
		if text := first[filepath.Join(c.dir, "hello.wav")].Text; !strings.HasPrefix(string(hello), "1\n00:00:00") || !strings.Contains(string(hello), text) {
			t.Errorf("hello.srt = %q; want subtitles of %q", hello, text)
		}
		var got []string
		filepath.WalkDir(subs, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(subs, p)
				got = append(got, filepath.ToSlash(rel))
			}
			return err
		})
		if want := []string{"hello.srt", "spk1/u01.srt", "spk1/u02.srt", "spk2/u03.srt"}; !slices.Equal(got, want) {
			t.Errorf("files below --out-dir: %q, want %q", got, want)
		}
		if _, err := os.Stat(filepath.Join(c.dir, "hello.srt")); err == nil {
			t.Error("a subtitle was written next to its input despite --out-dir")
		}
	})
}

// TestTranscribeList reads the inputs from a list on standard input and
// writes TSV records to standard output in input order.
func TestTranscribeList(t *testing.T) {
	c := newCorpus(t)
	list := c.good[1] + "\n" + c.good[0] + "\n"
	code, stdout, stderr := asrRun(t, list, "transcribe", "-beam", "1", "--quiet", "--ordered", "--list", "-", "-o", "-", "--output-format", "tsv")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 3 || lines[0] != "path\ttext\terror\tmodel\tseconds\tstarted" {
		t.Fatalf("TSV output:\n%s", stdout)
	}
	for i, want := range []string{c.good[1], c.good[0]} {
		if f := strings.Split(lines[i+1], "\t"); f[0] != want || f[2] != "" || f[3] != speechmodel.ModelID("") {
			t.Errorf("row %d = %q; want %s transcribed", i+1, f, want)
		}
	}
}

// TestTranscribeDirToStdout: with no output named, a directory's records
// go to standard output as JSONL.
func TestTranscribeDirToStdout(t *testing.T) {
	c := newCorpus(t)
	code, stdout, stderr := asrRun(t, "", "transcribe", "-beam", "1", "--quiet", "--recursive=false", c.dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (empty.wav fails)\n%s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "stdout.jsonl")
	if err := os.WriteFile(out, []byte(stdout), 0o666); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, out)
	hello, empty := filepath.Join(c.dir, "hello.wav"), filepath.Join(c.dir, "empty.wav")
	if len(recs) != 2 || recs[hello].Error != "" || recs[empty].Error == "" {
		t.Errorf("records without recursion: %v; want %s transcribed and %s failed", slices.Sorted(maps.Keys(recs)), hello, empty)
	}
}

func TestMerge(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.jsonl", `{"path":"c/b.wav","seconds":0.2,"text":"bee"}`+"\n")
	b := write("b.jsonl", `{"path":"c/a.wav","seconds":0.1,"text":"ay"}`+"\n")
	cut := write("cut.jsonl", `{"path":"c/c.wav","seconds":0.1,"text":"sea"}`+"\n"+`{"path":"c/d.w`)
	tsv := write("t.tsv", "path\ttext\terror\tmodel\tseconds\tstarted\nc/e.wav\tee\t\t\t0.1\t\n")
	tests := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"to standard output", []string{a, b}, 0, `{"path":"c/a.wav","seconds":0.1,"text":"ay"}` + "\n" + `{"path":"c/b.wav","seconds":0.2,"text":"bee"}` + "\n", ""},
		{"duplicate", []string{a, b, a}, 1, "", "duplicate records: 1: c/b.wav"},
		{"incomplete", []string{a, cut}, 1, "", "incomplete output"},
		{"formats differ", []string{a, tsv}, 2, "", "merge outputs of one format"},
		{"output is an input", []string{"-o", b, a, b}, 2, "", "is also an input"},
		{"output of another format", []string{"-o", filepath.Join(dir, "m.csv"), a, b}, 2, "", "the outputs are jsonl"},
		{"bad format", []string{"-format", "xml", a}, 2, "", `-format "xml"`},
		{"nothing to merge", nil, 2, "", "needs the outputs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := asrRun(t, "", append([]string{"merge"}, tc.args...)...)
			if code != tc.code || stdout != tc.stdout || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
		})
	}
	t.Run("to a file", func(t *testing.T) {
		m := filepath.Join(dir, "m.jsonl")
		if code, _, stderr := asrRun(t, "", "merge", "-o", m, a, b); code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		got, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		want := tests[0].stdout
		if string(got) != want {
			t.Errorf("%s = %q, want %q", m, got, want)
		}
	})
}

// TestTranscribeInterrupted sends SIGINT to `asr transcribe -o` in a child
// process once its first record is written: it finishes the file in
// flight, writes it, and exits with status 130; a rerun with --resume
// does the rest, each input recorded once.
func TestTranscribeInterrupted(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send on Windows")
	}
	clip, err := filepath.Abs(filepath.Join("..", "..", "testdata", "speech", "u01.flac"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "corpus")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	const n = 30
	for i := range n {
		if err := os.Symlink(clip, filepath.Join(dir, fmt.Sprintf("%02d.flac", i))); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "out.jsonl")
	args := []string{"transcribe", "-beam", "1", "-j", "1", "-o", out, dir}
	js, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"="+string(js))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt once the first record is out (a timeout, not a timing
	// assertion: the child has 29 inputs left then).
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if data, _ := os.ReadFile(out); bytes.IndexByte(data, '\n') >= 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no record after 2 minutes; stderr:\n%s", stderr.String())
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != cli.ExitInterrupted {
		t.Fatalf("child: %v, want exit status %d; stderr:\n%s", err, cli.ExitInterrupted, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted") || !strings.Contains(stderr.String(), "--resume") {
		t.Errorf("stderr does not say it was interrupted and how to finish:\n%s", stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	done := strings.Count(string(data), "\n")
	if done < 1 || done >= n || !bytes.HasSuffix(data, []byte("\n")) {
		t.Fatalf("interrupted output: %d complete records of %d, ends %q", done, n, data[max(0, len(data)-20):])
	}

	code, _, errOut := asrRun(t, "", append(args[:len(args)-1:len(args)-1], "--resume", dir)...)
	if code != 0 || !strings.Contains(errOut, fmt.Sprintf("%d done, 0 failed, %d skipped", n-done, done)) {
		t.Errorf("resume: exit %d; want 0, %d done, %d skipped\n%s", code, n-done, done, errOut)
	}
	if recs := readRecords(t, out); len(recs) != n {
		t.Errorf("%d records after resuming, want %d", len(recs), n)
	}
}

// TestBatchFactory checks the processor asr transcribe gives each worker:
// a transcript with its cues, none (but not "no timing") for a clip in
// which nothing is recognized, and an error once its context is
// cancelled, which batch counts as abandoned.
func TestBatchFactory(t *testing.T) {
	model, err := speechmodel.OpenModel("")
	if err != nil {
		t.Fatal(err)
	}
	proc, err := speech.BatchFactory(speechmodel.NewLAS(model, &speechmodel.SearchOptions{LengthPenalty: 1, EOSThreshold: 1.5, CTCWeight: 0.3, Beam: 1}), nil)(0)
	if err != nil {
		t.Fatal(err)
	}
	hello := batch.Input{Path: filepath.Join("..", "..", "testdata", "hello.wav"), Root: "."}
	res, err := proc(context.Background(), hello)
	if err != nil {
		t.Fatal(err)
	}
	tr, ok := res.Value.(*speech.Transcript)
	if !ok || res.Text == "" || tr.Text != res.Text || len(res.Cues) == 0 || res.Cues[0].Text == "" {
		t.Errorf("result %+v; want the transcript, its text and cues", res)
	}
	silent := &speech.Transcript{Chunks: []speech.Chunk{{End: 1, Words: []speechmodel.Word{}}}}
	if cues := speech.BatchResult(silent).Cues; cues == nil || len(cues) != 0 {
		t.Errorf("cues of a silent transcript: %#v, want empty and not nil", cues)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := proc(ctx, hello); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want %v", err, context.Canceled)
	}
}

// BenchmarkTranscribeDir transcribes a directory of 208 short clips (16
// copies of the 13 test clips, 1.2 s on average) with 1 and 2 workers,
// reporting clips per second (issue 7's goal: -j 2 at least 1.7× -j 1 on
// two cores):
//
//	go test -run '^$' -bench TranscribeDir -benchtime 3x ./cmd/asr
func BenchmarkTranscribeDir(b *testing.B) {
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("j=%d", jobs), func(b *testing.B) { benchmarkTranscribeDir(b, jobs) })
	}
}

func benchmarkTranscribeDir(b *testing.B, jobs int) {
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		b.Fatal(err)
	}
	clips, err := filepath.Glob(filepath.Join(testdata, "speech", "*.flac"))
	if err != nil || len(clips) == 0 {
		b.Fatalf("no test clips: %v", err)
	}
	clips = append(clips, filepath.Join(testdata, "hello.wav"))
	dir := b.TempDir()
	corpus := filepath.Join(dir, "corpus")
	if err := os.Mkdir(corpus, 0o777); err != nil {
		b.Fatal(err)
	}
	n := 0
	for copy := range (200 + len(clips) - 1) / len(clips) {
		for _, c := range clips {
			if err := os.Symlink(c, filepath.Join(corpus, fmt.Sprintf("%d-%s", copy, filepath.Base(c)))); err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	out := filepath.Join(dir, "out.jsonl")
	args := []string{"transcribe", "-j", fmt.Sprint(jobs), "--quiet", "--overwrite", "-o", out, corpus}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		var stderr bytes.Buffer
		if err := run(args, nil, &bytes.Buffer{}, &stderr); err != nil {
			b.Fatalf("%v\n%s", err, stderr.String())
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "clips/s")
}
