package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/batch"
)

// parseBatch registers the batch flags of a command writing txt and srt
// files per input and parses args.
func parseBatch(t *testing.T, args ...string) (*Batch, *flag.FlagSet) {
	t.Helper()
	b := &Batch{Tool: "tool", Inputs: "notes", Formats: []string{"txt", "srt"}}
	fs := flag.NewFlagSet("cmd", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	b.Register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return b, fs
}

func TestBatchOptions(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		sidecar string // the command's --format, when given
		want    batch.Options
		usage   string // the usage error, if any
	}{
		{name: "records to standard output", want: batch.Options{Output: "-"}},
		{name: "records to a file", args: []string{"-o", "out.tsv", "-j", "3", "--ordered", "--quiet", "--fail-fast"},
			want: batch.Options{Output: "out.tsv", Jobs: 3, Ordered: true, Quiet: true, FailFast: true}},
		{name: "files per input", sidecar: "srt", args: []string{"--resume"}, want: batch.Options{Sidecar: "srt", Resume: true}},
		{name: "txt below --out-dir", args: []string{"--out-dir", "txt", "--overwrite"}, want: batch.Options{Sidecar: "txt", OutDir: "txt", Overwrite: true}},
		{name: "output format", args: []string{"-o", "-", "--output-format", "csv"}, want: batch.Options{Output: "-", Format: "csv"}},
		{name: "negative -j", args: []string{"-j", "-2"}, usage: "-j -2: want at least 1"},
		{name: "resume and overwrite", args: []string{"-o", "a.jsonl", "--resume", "--overwrite"}, usage: "exclude each other"},
		{name: "output format without -o", args: []string{"--output-format", "tsv"}, usage: "it is the format of -o"},
		{name: "unknown output format", args: []string{"-o", "a", "--output-format", "xml"}, usage: `--output-format "xml"`},
		{name: "resume with no output", args: []string{"--resume"}, usage: "--resume needs outputs"},
		{name: "resume standard output", args: []string{"-o", "-", "--resume"}, usage: "cannot resume standard output"},
		{name: "-o in a per-input format", args: []string{"-o", "all.srt"}, usage: "use --format srt"},
		{name: "bad shard", args: []string{"--shard", "3/3"}, usage: `--shard: batch: bad shard "3/3"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := parseBatch(t, tc.args...)
			got, err := b.Options(tc.sidecar)
			if tc.usage != "" {
				if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.usage) {
					t.Errorf("error %v, want a usage error with %q", err, tc.usage)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			want.Name = "tool"
			if want.Jobs == 0 {
				want.Jobs = runtime.GOMAXPROCS(0)
			}
			if *got != want {
				t.Errorf("options %+v, want %+v", *got, want)
			}
		})
	}
}

func TestBatchWantedAndRefuse(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(file, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		wanted bool
		refuse string // the usage error of a run that is not a batch
	}{
		{name: "a file", args: []string{file}},
		{name: "a directory", args: []string{filepath.Dir(file)}, wanted: true},
		{name: "-o", args: []string{"-o", "x.jsonl", file}, wanted: true},
		{name: "--list", args: []string{"--list", "-"}, wanted: true},
		{name: "--out-dir", args: []string{"--out-dir", "d", file}, wanted: true},
		{name: "--resume", args: []string{"--resume", file}, wanted: true},
		{name: "--shard", args: []string{"--shard", "0/2", file}, wanted: true},
		{name: "a batch-only flag on a file", args: []string{"--ordered", file}, refuse: "-ordered applies to batches"},
		{name: "-j on a file", args: []string{"-j", "2", file}, refuse: "-j applies to batches"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, fs := parseBatch(t, tc.args...)
			if got := b.Wanted(fs.Args()); got != tc.wanted {
				t.Fatalf("Wanted = %v, want %v", got, tc.wanted)
			}
			if tc.wanted {
				return
			}
			err := b.Refuse(fs)
			switch {
			case tc.refuse == "" && err != nil:
				t.Errorf("Refuse: %v, want nil", err)
			case tc.refuse != "" && (!errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.refuse)):
				t.Errorf("Refuse: %v, want a usage error with %q", err, tc.refuse)
			}
		})
	}
}

// TestBatchCollectAndRun collects a directory, says what it found, and
// runs it twice: the second run is refused, with the flags that allow it.
func TestBatchCollectAndRun(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.note", "b.note", "c.jpg"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := parseBatch(t, "-o", filepath.Join(t.TempDir(), "out.jsonl"))
	b.Accept = func(path string, _ []byte) bool { return strings.HasSuffix(path, ".note") }
	opts, err := b.Options("")
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	inputs, err := b.Collect([]string{dir}, nil, &stderr)
	if err != nil || len(inputs) != 2 || stderr.String() != "tool: 2 inputs (1 other file ignored)\n" {
		t.Fatalf("Collect: %d inputs, %v, stderr %q; want the 2 notes, the jpg ignored", len(inputs), err, stderr.String())
	}
	echo := batch.Shared(func(_ context.Context, in batch.Input) (batch.Result, error) {
		return batch.Result{Text: filepath.Base(in.Path)}, nil
	})
	if err := b.Run(inputs, echo, opts); err != nil {
		t.Fatal(err)
	}
	if err := b.Run(inputs, echo, opts); !errors.Is(err, batch.ErrExists) || !strings.HasSuffix(err.Error(), "(--resume, --overwrite)") {
		t.Errorf("second run: %v, want %v naming --resume and --overwrite", err, batch.ErrExists)
	}
	if _, err := b.Collect([]string{t.TempDir()}, nil, io.Discard); err == nil || err.Error() != "no notes found: 0 inputs" {
		t.Errorf("Collect of an empty directory: %v, want \"no notes found: 0 inputs\"", err)
	}
}
