package batch_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/attend-go/attend/pipeline/batch"
)

// A batch over a directory: the files are found by content, processed by
// two workers, and each result lands in a sidecar below an output
// directory that mirrors the tree. A real command loads its model once
// before Run and gives each worker its own workspace in the Factory.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "batch-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	corpus := filepath.Join(dir, "corpus")
	for name, data := range map[string]string{
		"a.wav":          "RIFF\x24\x00\x00\x00WAVEfmt ",
		"spk1/b.wav":     "RIFF\x24\x00\x00\x00WAVEfmt ",
		"spk1/notes.txt": "not audio: ignored",
	} {
		p := filepath.Join(corpus, name)
		os.MkdirAll(filepath.Dir(p), 0o777)
		os.WriteFile(p, []byte(data), 0o666)
	}

	col, err := batch.Collect([]string{corpus}, &batch.CollectOptions{Accept: batch.IsAudio})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(col)

	newWorker := func(worker int) (batch.Processor, error) {
		return func(ctx context.Context, in batch.Input) (batch.Result, error) {
			return batch.Result{Text: "transcript of " + in.Rel()}, nil
		}, nil
	}
	out := filepath.Join(dir, "out")
	sum, err := batch.Run(context.Background(), col.Inputs, newWorker, &batch.Options{
		Jobs: 2, Sidecar: batch.SidecarTXT, OutDir: out,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sum.Done, "done,", sum.Failed, "failed")
	b, _ := os.ReadFile(filepath.Join(out, "spk1", "b.txt"))
	fmt.Print(string(b))
	// Output:
	// 2 inputs (1 other file ignored)
	// 2 done, 0 failed
	// transcript of spk1/b.wav
}

// How a command maps what Run returns to an exit status.
func ExampleErrInterrupted() {
	exitStatus := func(err error) int {
		switch {
		case err == nil:
			return 0
		case errors.Is(err, batch.ErrInterrupted):
			return batch.ExitInterrupted
		default: // batch.ErrFailed (already reported) or a batch-wide error
			return 1
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as the first SIGINT does, through WithSignals
	proc := func(ctx context.Context, in batch.Input) (batch.Result, error) {
		return batch.Result{Text: "never called"}, nil
	}
	_, err := batch.Run(ctx, []batch.Input{{Path: "a.wav", Root: "."}}, batch.Shared(proc), &batch.Options{Output: "-"})
	fmt.Println(exitStatus(err))
	// Output:
	// 130
}

func ExampleParseShard() {
	s, err := batch.ParseShard("6/8")
	if err != nil {
		log.Fatal(err)
	}
	in := batch.Input{Path: "/mnt/corpus/spk1/u0001.flac", Root: "/mnt/corpus"}
	fmt.Println(s, in.Rel(), batch.ShardOf(in.Rel(), 8), s.Contains(in))
	_, err = batch.ParseShard("8/8")
	fmt.Println(err)
	// Output:
	// 6/8 spk1/u0001.flac 6 true
	// batch: bad shard "8/8": the index i must be in 0..7 (shards count from 0)
}

func ExampleMerge() {
	dir, err := os.MkdirTemp("", "batch-merge")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	shard0 := filepath.Join(dir, "out.0.jsonl")
	shard1 := filepath.Join(dir, "out.1.jsonl")
	os.WriteFile(shard0, []byte(`{"path":"c/b.wav","seconds":0.2,"text":"bee"}`+"\n"), 0o666)
	os.WriteFile(shard1, []byte(`{"path":"c/c.wav","seconds":0.1,"text":"","error":"c/c.wav: empty"}`+"\n"+
		`{"path":"c/a.wav","seconds":0.3,"text":"ay"}`+"\n"), 0o666)
	st, err := batch.Merge([]string{shard0, shard1}, os.Stdout, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d records, %d failed\n", st.Records, st.Failed)
	// Output:
	// {"path":"c/a.wav","seconds":0.3,"text":"ay"}
	// {"path":"c/b.wav","seconds":0.2,"text":"bee"}
	// {"path":"c/c.wav","seconds":0.1,"text":"","error":"c/c.wav: empty"}
	// 3 records, 1 failed
}

func ExampleSidecarPath() {
	p, _ := batch.SidecarPath("corpus", "corpus/spk1/a.wav", "out", "srt")
	fmt.Println(filepath.ToSlash(p))
	p, _ = batch.SidecarPath("corpus", "corpus/spk1/a.wav", "", "txt")
	fmt.Println(filepath.ToSlash(p))
	_, err := batch.SidecarPath("corpus", "elsewhere/a.wav", "out", "txt")
	fmt.Println(errors.Is(err, batch.ErrOutside))
	// Output:
	// out/spk1/a.srt
	// corpus/spk1/a.txt
	// true
}

func ExampleWriteVTT() {
	var b strings.Builder
	batch.WriteVTT(&b, []batch.Cue{
		{Start: 0, End: 1200 * time.Millisecond, Text: "hello"},
		{Start: 1500 * time.Millisecond, End: 2 * time.Second, Text: "world"},
	})
	fmt.Print(b.String())
	// Output:
	// WEBVTT
	//
	// 00:00:00.000 --> 00:00:01.200
	// hello
	//
	// 00:00:01.500 --> 00:00:02.000
	// world
}
