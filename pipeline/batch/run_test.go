package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

func TestRunWritesOneRecordPerInput(t *testing.T) {
	for _, format := range []string{FormatJSONL, FormatTSV, FormatCSV} {
		for _, ordered := range []bool{false, true} {
			name := format
			if ordered {
				name += "/ordered"
			}
			t.Run(name, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "results."+format)
				inputs := fakeInputs(50, 7, 30)
				var stderr bytes.Buffer
				sum, err := Run(context.Background(), inputs, Shared(fakeProcess), &Options{
					Jobs: 4, Ordered: ordered, Output: out, Model: "fake-1", Name: "asr", Stderr: &stderr,
				})
				if !errors.Is(err, ErrFailed) {
					t.Fatalf("Run: %v, want ErrFailed", err)
				}
				if sum.Done != 48 || sum.Failed != 2 || sum.Inputs != 50 {
					t.Errorf("summary %+v, want 48 done, 2 failed of 50", sum)
				}
				recs := readOutput(t, out, format)
				checkExactlyOnce(t, recs, inputs)
				if ordered {
					want := make([]string, len(inputs))
					for i, in := range inputs {
						want[i] = in.Path
					}
					if got := paths(recs); !slices.Equal(got, want) {
						t.Errorf("ordered output in order %v, want %v", got, want)
					}
				}
				for _, r := range recs {
					bad := strings.Contains(r.Path, "bad")
					if r.Failed() != bad || r.Model != "fake-1" || r.Started == "" {
						t.Errorf("record %+v", r)
					}
					if !bad && r.Text != "text of "+r.Path {
						t.Errorf("%s: text %q", r.Path, r.Text)
					}
					if format == FormatJSONL && !bad && !strings.Contains(string(r.Result), r.Path) {
						t.Errorf("%s: result %s", r.Path, r.Result)
					}
				}
				msg := stderr.String()
				for _, want := range []string{"asr: failed: in/0007-bad.wav: unreadable\n", "asr: failed: in/0030-bad.wav: unreadable\n", "asr: 48 done, 2 failed in "} {
					if !strings.Contains(msg, want) {
						t.Errorf("stderr lacks %q:\n%s", want, msg)
					}
				}
			})
		}
	}
}

func TestRunOptionsErrors(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.jsonl")
	if err := os.WriteFile(existing, []byte(`{"path":"x","text":"done"}`+"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		inputs []Input
		opts   Options
		want   error
	}{
		{"no output", fakeInputs(1), Options{}, ErrOptions},
		{"resume and overwrite", fakeInputs(1), Options{Output: "x.jsonl", Resume: true, Overwrite: true}, ErrOptions},
		{"resume stdout", fakeInputs(1), Options{Output: "-", Resume: true}, ErrOptions},
		{"out dir without sidecar", fakeInputs(1), Options{Output: "-", OutDir: dir}, ErrOptions},
		{"bad sidecar format", fakeInputs(1), Options{Sidecar: "docx"}, ErrOptions},
		{"bad format", fakeInputs(1), Options{Output: "-", Format: "xml"}, ErrFormat},
		{"negative jobs", fakeInputs(1), Options{Output: "-", Jobs: -1}, ErrOptions},
		{"input twice", append(fakeInputs(2), fakeInputs(1)...), Options{Output: "-"}, ErrOptions},
		{"output exists", fakeInputs(1), Options{Output: existing}, ErrExists},
		{"sidecar outside out dir", []Input{{Path: "../x.wav", Root: "."}}, Options{Sidecar: "txt", OutDir: dir}, ErrOutside},
		{"sidecar is an input", []Input{{Path: "a.wav", Root: "."}, {Path: "a.txt", Root: "."}}, Options{Sidecar: "txt"}, ErrOverwriteInput},
		{"sidecars collide", []Input{{Path: "a/x.wav", Root: "a"}, {Path: "b/x.wav", Root: "b"}}, Options{Sidecar: "txt", OutDir: dir}, ErrOptions},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			called := false
			_, err := Run(context.Background(), tc.inputs, func(int) (Processor, error) {
				called = true
				return fakeProcess, nil
			}, &tc.opts)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Run: %v, want %v", err, tc.want)
			}
			if called {
				t.Error("the factory was called although the options are wrong")
			}
		})
	}
}

func TestRunToStdout(t *testing.T) {
	var stdout bytes.Buffer
	inputs := fakeInputs(5)
	if _, err := Run(context.Background(), inputs, Shared(fakeProcess), &Options{Output: "-", Format: "tsv", Ordered: true, Jobs: 2, Stdout: &stdout}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != 6 || lines[0] != "path\ttext\terror\tmodel\tseconds\tstarted" || !strings.HasPrefix(lines[1], "in/0000.wav\ttext of in/0000.wav\t\t") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
}

func TestRunOneProcessorPerWorker(t *testing.T) {
	const jobs = 3
	var made atomic.Int32
	var mu sync.Mutex
	busy := map[int]bool{}
	factory := func(w int) (Processor, error) {
		made.Add(1)
		return func(ctx context.Context, in Input) (Result, error) {
			mu.Lock()
			if busy[w] {
				mu.Unlock()
				t.Errorf("processor %d called concurrently", w)
				return Result{}, nil
			}
			busy[w] = true
			mu.Unlock()
			defer func() { mu.Lock(); busy[w] = false; mu.Unlock() }()
			return fakeProcess(ctx, in)
		}, nil
	}
	if _, err := Run(context.Background(), fakeInputs(40), factory, &Options{Jobs: jobs, Output: "-"}); err != nil {
		t.Fatal(err)
	}
	if made.Load() != jobs {
		t.Errorf("factory called %d times, want %d", made.Load(), jobs)
	}
}

// TestRunRunsInParallel shows that two workers process at the same time:
// each of the first two inputs waits until the other has started.
func TestRunRunsInParallel(t *testing.T) {
	var started sync.WaitGroup
	started.Add(2)
	var n atomic.Int32
	proc := func(ctx context.Context, in Input) (Result, error) {
		if n.Add(1) <= 2 {
			started.Done()
			started.Wait() // deadlocks unless two run at once
		}
		return Result{Text: "ok"}, nil
	}
	if _, err := Run(context.Background(), fakeInputs(10), Shared(proc), &Options{Jobs: 2, Output: "-"}); err != nil {
		t.Fatal(err)
	}
}

func TestRunFactoryError(t *testing.T) {
	boom := errors.New("no memory for the workspace")
	_, err := Run(context.Background(), fakeInputs(3), func(w int) (Processor, error) {
		if w == 1 {
			return nil, boom
		}
		return fakeProcess, nil
	}, &Options{Jobs: 2, Output: "-"})
	if !errors.Is(err, boom) {
		t.Fatalf("Run: %v, want the factory's error", err)
	}
}

func TestRunRecoversPanics(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.jsonl")
	proc := func(ctx context.Context, in Input) (Result, error) {
		if in.Path == "in/0002.wav" {
			var m map[string]int
			m["x"]++ // a bug
		}
		return fakeProcess(ctx, in)
	}
	var stderr bytes.Buffer
	sum, err := Run(context.Background(), fakeInputs(5), Shared(proc), &Options{Output: out, Stderr: &stderr})
	if !errors.Is(err, ErrFailed) || sum.Failed != 1 {
		t.Fatalf("Run: %v, %+v; want one failure", err, sum)
	}
	if got := sum.Failures[0].Reason; !strings.Contains(got, "panic: assignment to entry in nil map") {
		t.Errorf("failure %q", got)
	}
	if !strings.Contains(stderr.String(), "goroutine") {
		t.Errorf("no stack trace on stderr:\n%s", stderr.String())
	}
	checkExactlyOnce(t, readOutput(t, out, FormatJSONL), fakeInputs(5))
}

func TestRunInputErrorsAreFailures(t *testing.T) {
	inputs := fakeInputs(3)
	inputs[1].Err = errors.New("in/0001.wav: permission denied")
	var called atomic.Int32
	proc := func(ctx context.Context, in Input) (Result, error) {
		called.Add(1)
		return fakeProcess(ctx, in)
	}
	sum, err := Run(context.Background(), inputs, Shared(proc), &Options{Output: "-", Jobs: 1})
	if !errors.Is(err, ErrFailed) || sum.Failed != 1 || called.Load() != 2 {
		t.Errorf("Run: %v, %+v, %d calls; want one failure and two calls", err, sum, called.Load())
	}
}

func TestRunFailFast(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.jsonl")
	inputs := fakeInputs(200, 3)
	sum, err := Run(context.Background(), inputs, Shared(fakeProcess), &Options{Jobs: 1, Output: out, FailFast: true})
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("Run: %v, want ErrFailed", err)
	}
	// With one worker the inputs after the failure that had been handed
	// out are at most the window; most never start.
	if sum.Failed != 1 || sum.NotStarted < 150 || sum.Done+sum.Failed+sum.NotStarted+sum.Abandoned != 200 {
		t.Errorf("summary %+v", sum)
	}
	// Resuming retries the failure and finishes the rest, once each.
	sum, err = Run(context.Background(), inputs, Shared(fakeProcess), &Options{Jobs: 2, Output: out, Resume: true})
	if !errors.Is(err, ErrFailed) || sum.Failed != 1 || sum.Skipped+sum.Done+sum.Failed != 200 {
		t.Fatalf("resume: %v, %+v", err, sum)
	}
	checkExactlyOnce(t, readOutput(t, out, FormatJSONL), inputs)
}

func TestRunInterruptAndResume(t *testing.T) {
	for _, abort := range []bool{false, true} {
		name := "drain"
		if abort {
			name = "abort"
		}
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			inputs := fakeInputs(100)
			ctx, cancel := context.WithCancel(context.Background())
			abortCtx, cancelAbort := context.WithCancel(context.Background())
			defer cancelAbort()
			// Calls 11 and 12 are in flight on two workers when call 13,
			// on the third, interrupts (and aborts).
			var n atomic.Int32
			var blocked sync.WaitGroup
			blocked.Add(2)
			gate := make(chan struct{})
			proc := func(pctx context.Context, in Input) (Result, error) {
				switch k := n.Add(1); k {
				case 11, 12:
					blocked.Done()
					if abort {
						<-pctx.Done()
						return Result{}, pctx.Err()
					}
					<-gate
				case 13:
					blocked.Wait()
					cancel()
					if abort {
						cancelAbort()
					}
					close(gate)
				}
				return fakeProcess(pctx, in)
			}
			var stderr bytes.Buffer
			sum, err := Run(ctx, inputs, Shared(proc), &Options{Jobs: 3, Output: out, Abort: abortCtx, Stderr: &stderr})
			if !errors.Is(err, ErrInterrupted) || !sum.Interrupted {
				t.Fatalf("Run: %v, %+v; want ErrInterrupted", err, sum)
			}
			want := Summary{Inputs: 100, Done: 13, NotStarted: 87, Interrupted: true, Wall: sum.Wall}
			if abort {
				want.Done, want.Abandoned = 11, 2
			}
			if !reflect.DeepEqual(*sum, want) {
				t.Errorf("summary %+v, want %+v", *sum, want)
			}
			if !strings.Contains(stderr.String(), "interrupted: no new inputs; finishing those in flight (interrupt again to abandon them)") {
				t.Errorf("stderr:\n%s", stderr.String())
			}
			recs := readOutput(t, out, FormatJSONL)
			if len(recs) != sum.Done {
				t.Errorf("%d records for %d done", len(recs), sum.Done)
			}
			sum, err = Run(context.Background(), inputs, Shared(fakeProcess), &Options{Jobs: 3, Output: out, Resume: true})
			if err != nil || sum.Skipped != len(recs) {
				t.Fatalf("resume: %v, %+v; want %d skipped", err, sum, len(recs))
			}
			checkExactlyOnce(t, readOutput(t, out, FormatJSONL), inputs)
		})
	}
}

func TestRunResumeRetriesFailures(t *testing.T) {
	for _, format := range []string{FormatJSONL, FormatTSV, FormatCSV} {
		t.Run(format, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r."+format)
			inputs := fakeInputs(20)
			flaky := func(fail bool) Processor {
				return func(ctx context.Context, in Input) (Result, error) {
					if fail && strings.HasSuffix(in.Path, "3.wav") {
						return Result{}, errors.New("out of memory")
					}
					return fakeProcess(ctx, in)
				}
			}
			sum, err := Run(context.Background(), inputs, Shared(flaky(true)), &Options{Output: out, Jobs: 2})
			if !errors.Is(err, ErrFailed) || sum.Failed != 2 {
				t.Fatalf("first run: %v, %+v", err, sum)
			}
			var stderr bytes.Buffer
			sum, err = Run(context.Background(), inputs, Shared(flaky(false)), &Options{Output: out, Jobs: 2, Resume: true, Stderr: &stderr})
			if err != nil || sum.Skipped != 18 || sum.Done != 2 {
				t.Fatalf("resume: %v, %+v", err, sum)
			}
			if !strings.Contains(stderr.String(), "18 records kept, 2 failures to retry") {
				t.Errorf("stderr:\n%s", stderr.String())
			}
			recs := readOutput(t, out, format)
			checkExactlyOnce(t, recs, inputs)
			for _, r := range recs {
				if r.Failed() {
					t.Errorf("%s still failed after the retry", r.Path)
				}
			}
			if matches, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*")); len(matches) != 0 {
				t.Errorf("temporary files left: %v", matches)
			}
		})
	}
}

func TestRunResumeDropsIncompleteLastRecord(t *testing.T) {
	for _, format := range []string{FormatJSONL, FormatTSV, FormatCSV} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			full := filepath.Join(dir, "full."+format)
			inputs := fakeInputs(10)
			if _, err := Run(context.Background(), inputs[:6], Shared(fakeProcess), &Options{Output: full, Ordered: true}); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(full)
			if err != nil {
				t.Fatal(err)
			}
			// Cuts of the last record from no byte of it to all but its
			// newline, and a cut header.
			last := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
			cuts := []int{last, last + 1, (last + len(data)) / 2, len(data) - 2, len(data) - 1}
			if h := codecFor(format).header(); h != nil {
				cuts = append(cuts, 0, len(h)/2)
			}
			for _, cut := range cuts {
				out := filepath.Join(dir, "cut."+format)
				if err := os.WriteFile(out, data[:cut], 0o666); err != nil {
					t.Fatal(err)
				}
				if _, err := Run(context.Background(), inputs, Shared(fakeProcess), &Options{Output: out, Resume: true}); err != nil {
					t.Fatalf("cut at %d: %v", cut, err)
				}
				checkExactlyOnce(t, readOutput(t, out, format), inputs)
			}
		})
	}
}

func TestRunResumeRefusesForeignFiles(t *testing.T) {
	tests := []struct{ name, file, content string }{
		{"jsonl garbage line", "r.jsonl", `{"path":"a","text":""}` + "\nhello\n" + `{"path":"b","text":""}` + "\n"},
		{"jsonl without path", "r.jsonl", `{"text":"x"}` + "\n"},
		{"tsv without header", "r.tsv", "a\tb\tc\td\t1\te\n"},
		{"csv bad column count", "r.csv", "path,text,error,model,seconds,started\na,b\n"},
		{"tsv bad escape", "r.tsv", "path\ttext\terror\tmodel\tseconds\tstarted\na\\q\t\t\t\t1\t\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(out, []byte(tc.content), 0o666); err != nil {
				t.Fatal(err)
			}
			_, err := Run(context.Background(), fakeInputs(2), Shared(fakeProcess), &Options{Output: out, Resume: true})
			if err == nil || !strings.Contains(err.Error(), out) {
				t.Fatalf("Run: %v, want an error naming %s", err, out)
			}
			if data, _ := os.ReadFile(out); string(data) != tc.content {
				t.Errorf("the file was changed to %q", data)
			}
		})
	}
}

func TestRunOverwrite(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(out, []byte("not ours\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	inputs := fakeInputs(4)
	if _, err := Run(context.Background(), inputs, Shared(fakeProcess), &Options{Output: out, Overwrite: true}); err != nil {
		t.Fatal(err)
	}
	checkExactlyOnce(t, readOutput(t, out, FormatJSONL), inputs)
}

func TestRunOutputLocked(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.jsonl")
	first, _, err := openOutput(out, jsonlCodec{}, false, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer first.close()
	_, err = Run(context.Background(), fakeInputs(1), Shared(fakeProcess), &Options{Output: out, Resume: true})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("Run on a locked output: %v, want ErrLocked", err)
	}
}

func TestRunSidecars(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus")
	var inputs []Input
	for _, rel := range []string{"a.wav", "spk1/b.wav", "spk1/deep/c.mp3"} {
		p := filepath.Join(corpus, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("audio"), 0o666); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, Input{Path: p, Root: corpus})
	}
	proc := func(ctx context.Context, in Input) (Result, error) {
		return Result{Text: "said " + filepath.Base(in.Path), Cues: []Cue{{0, 1500e6, "said"}}}, nil
	}
	t.Run("next to inputs", func(t *testing.T) {
		if _, err := Run(context.Background(), inputs, Shared(proc), &Options{Sidecar: "txt"}); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(corpus, "spk1", "deep", "c.txt"))
		if err != nil || string(got) != "said c.mp3\n" {
			t.Errorf("c.txt: %q, %v", got, err)
		}
		// A second run refuses to replace them, resume skips them.
		if _, err := Run(context.Background(), inputs, Shared(proc), &Options{Sidecar: "txt"}); !errors.Is(err, ErrExists) {
			t.Errorf("second run: %v, want ErrExists", err)
		}
		sum, err := Run(context.Background(), inputs, Shared(proc), &Options{Sidecar: "txt", Resume: true})
		if err != nil || sum.Skipped != 3 || sum.Done != 0 {
			t.Errorf("resume: %v, %+v", err, sum)
		}
	})
	t.Run("mirrored under an output directory", func(t *testing.T) {
		out := filepath.Join(dir, "out")
		results := filepath.Join(dir, "r.jsonl")
		if _, err := Run(context.Background(), inputs, Shared(proc), &Options{Sidecar: "srt", OutDir: out, Output: results}); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(out, "spk1", "b.srt"))
		if want := "1\n00:00:00,000 --> 00:00:01,500\nsaid\n\n"; err != nil || string(got) != want {
			t.Errorf("b.srt: %q, %v; want %q", got, err, want)
		}
		checkExactlyOnce(t, readOutput(t, results, FormatJSONL), inputs)
	})
	t.Run("no cues for subtitles", func(t *testing.T) {
		noCues := func(ctx context.Context, in Input) (Result, error) { return Result{Text: "a caption"}, nil }
		sum, err := Run(context.Background(), inputs, Shared(noCues), &Options{Sidecar: "vtt", OutDir: filepath.Join(dir, "vtt")})
		if !errors.Is(err, ErrFailed) || sum.Failed != 3 || !strings.Contains(sum.Failures[0].Reason, ErrNoCues.Error()) {
			t.Errorf("Run: %v, %+v", err, sum)
		}
	})
}

// TestRunSidecarRefusesSymlinkOut plants a symbolic link inside the
// output directory that leads out of it: the sidecar must not be
// written through it.
func TestRunSidecarRefusesSymlinkOut(t *testing.T) {
	dir := t.TempDir()
	out, elsewhere := filepath.Join(dir, "out"), filepath.Join(dir, "elsewhere")
	for _, d := range []string{out, elsewhere} {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(elsewhere, filepath.Join(out, "spk1")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	inputs := []Input{{Path: "corpus/spk1/a.wav", Root: "corpus"}}
	sum, err := Run(context.Background(), inputs, Shared(fakeProcess), &Options{Sidecar: "txt", OutDir: out})
	if !errors.Is(err, ErrFailed) || sum.Failed != 1 {
		t.Fatalf("Run: %v, %+v; want the input failed", err, sum)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("written outside the output directory: %v", entries)
	}
}

func TestRunJSONSidecarAndResult(t *testing.T) {
	dir := t.TempDir()
	type word struct {
		Word  string  `json:"word"`
		Start float64 `json:"start"`
	}
	proc := func(ctx context.Context, in Input) (Result, error) {
		return Result{Text: "hi <there>", Value: []word{{"hi", 0.1}, {"<there>", 0.5}}}, nil
	}
	inputs := []Input{{Path: filepath.Join(dir, "a.wav"), Root: dir}}
	results := filepath.Join(dir, "r.jsonl")
	if _, err := Run(context.Background(), inputs, Shared(proc), &Options{Sidecar: "json", Output: results}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "a.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := "[\n  {\n    \"word\": \"hi\",\n    \"start\": 0.1\n  },\n  {\n    \"word\": \"<there>\",\n    \"start\": 0.5\n  }\n]\n"
	if string(got) != want {
		t.Errorf("a.json:\n%s\nwant\n%s", got, want)
	}
	recs := readOutput(t, results, FormatJSONL)
	var words []word
	if err := json.Unmarshal(recs[0].Result, &words); err != nil || len(words) != 2 || recs[0].Text != "hi <there>" {
		t.Errorf("record %+v: %v", recs[0], err)
	}
}

func TestRunResumeNothingLeft(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.jsonl")
	inputs := fakeInputs(5)
	if _, err := Run(context.Background(), inputs, Shared(fakeProcess), &Options{Output: out}); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, ".r.jsonl.resume-tmp") // from a rewrite killed before its rename
	if err := os.WriteFile(stale, []byte("half"), 0o666); err != nil {
		t.Fatal(err)
	}
	noWorkers := func(int) (Processor, error) { return nil, errors.New("no worker is needed") }
	sum, err := Run(context.Background(), inputs, noWorkers, &Options{Output: out, Resume: true})
	if err != nil || sum.Skipped != 5 || sum.Done != 0 {
		t.Fatalf("Run: %v, %+v; want all 5 skipped", err, sum)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file is still there: %v", err)
	}
	checkExactlyOnce(t, readOutput(t, out, FormatJSONL), inputs)
}

// TestRunReusesEmptyOutput: an output with no record yet (a run stopped
// by a wrong option after creating it) is no reason to refuse a new run.
func TestRunReusesEmptyOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.tsv")
	if err := os.WriteFile(out, tsvCodec{}.header(), 0o666); err != nil {
		t.Fatal(err)
	}
	inputs := fakeInputs(3)
	if _, err := Run(context.Background(), inputs, Shared(fakeProcess), &Options{Output: out}); err != nil {
		t.Fatal(err)
	}
	checkExactlyOnce(t, readOutput(t, out, FormatTSV), inputs)
}
