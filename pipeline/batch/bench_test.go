package batch

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// model stands for a model's weights: loaded once, read by every worker.
var model = make([]byte, 1<<20)

// cpuBound is a fake processor that hashes the model with the input's
// name (about 1 ms of one core), like a model working on a short clip.
func cpuBound(_ context.Context, in Input) (Result, error) {
	h := sha256.New()
	h.Write([]byte(in.Path))
	h.Write(model)
	return Result{Text: fmt.Sprintf("%x", h.Sum(nil)[:4])}, nil
}

// sleeper is a fake processor that waits 2 ms and uses no CPU: with it
// the speed-up over Jobs shows whether the engine itself serializes
// anything, whatever else the machine is doing.
func sleeper(_ context.Context, in Input) (Result, error) {
	time.Sleep(2 * time.Millisecond)
	return Result{Text: in.Path}, nil
}

// BenchmarkRunJobs runs 200 inputs with 1, 2 and 4 workers; compare the
// files/s across Jobs at -cpu 2 for the scaling goal (-j 2 ≥ 1.7× -j 1
// on two cores).
func BenchmarkRunJobs(b *testing.B) {
	for _, p := range []struct {
		name string
		proc Processor
	}{{"cpu", cpuBound}, {"sleep", sleeper}} {
		for _, jobs := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("%s/j%d", p.name, jobs), func(b *testing.B) { benchmarkRunWith(b, jobs, 200, p.proc) })
		}
	}
}

// BenchmarkRunOverhead measures what the engine itself costs per input
// (dispatch, encoding, one write per record, periodic sync) with a
// processor that does nothing: the serial part that bounds scaling.
func BenchmarkRunOverhead(b *testing.B) {
	b.Run("j1", func(b *testing.B) { benchmarkRunWith(b, 1, 2000, fakeProcess) })
}

func benchmarkRunWith(b *testing.B, jobs, n int, proc Processor) {
	inputs := fakeInputs(n)
	out := filepath.Join(b.TempDir(), "r.jsonl")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := Run(context.Background(), inputs, Shared(proc), &Options{Jobs: jobs, Output: out, Overwrite: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "files/s")
}

// TestRunMemoryFlat runs 2,000 inputs with 4 KiB results each and checks
// that the live heap does not grow with the inputs done: records are
// written and dropped, in either order. Retaining the results would grow
// it by 7 MiB between the samples.
func TestRunMemoryFlat(t *testing.T) {
	for _, ordered := range []bool{false, true} {
		t.Run(fmt.Sprintf("ordered=%v", ordered), func(t *testing.T) {
			const n = 2000
			var done atomic.Int32
			var early, late uint64
			payload := strings.Repeat("x", 4<<10)
			proc := func(ctx context.Context, in Input) (Result, error) {
				switch done.Add(1) {
				case 200:
					early = liveHeap()
				case n:
					late = liveHeap()
				}
				return Result{Text: payload, Value: map[string]string{"p": payload}}, nil
			}
			out := filepath.Join(t.TempDir(), "r.jsonl")
			if _, err := Run(context.Background(), fakeInputs(n), Shared(proc), &Options{Jobs: 4, Ordered: ordered, Output: out, Stderr: io.Discard}); err != nil {
				t.Fatal(err)
			}
			growth := int64(late) - int64(early)
			t.Logf("live heap after 200 inputs %d KiB, after %d %d KiB (growth %d KiB)", early>>10, n, late>>10, growth>>10)
			if growth > 1<<20 {
				t.Errorf("the heap grew by %d KiB over %d inputs", growth>>10, n-200)
			}
		})
	}
}

// liveHeap returns the bytes of live heap objects after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
