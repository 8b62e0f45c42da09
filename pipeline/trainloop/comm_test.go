package trainloop

import (
	"context"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/attend-go/attend/models"
)

// localGroup is a Comm of n ranks in one process, one goroutine each: a
// collective waits for every rank, then sums (in rank order) or copies
// root's values.
type localGroup struct {
	n       int
	mu      sync.Mutex
	cond    *sync.Cond
	bufs    [][]float64
	arrived int
	gen     int
	result  []float64
}

func newLocalGroup(n int) []Comm {
	g := &localGroup{n: n, bufs: make([][]float64, n)}
	g.cond = sync.NewCond(&g.mu)
	cs := make([]Comm, n)
	for r := range cs {
		cs[r] = localComm{g, r}
	}
	return cs
}

// collective runs one collective for rank: root < 0 sums, otherwise root's
// x is everyone's.
func (g *localGroup) collective(rank int, x []float64, root int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	gen := g.gen
	g.bufs[rank] = slices.Clone(x)
	if g.arrived++; g.arrived == g.n {
		if root >= 0 {
			g.result = g.bufs[root]
		} else {
			g.result = make([]float64, len(x))
			for _, b := range g.bufs {
				for i, v := range b {
					g.result[i] += v
				}
			}
		}
		g.arrived, g.gen = 0, g.gen+1
		g.cond.Broadcast()
	}
	for gen == g.gen {
		g.cond.Wait()
	}
	copy(x, g.result)
}

type localComm struct {
	g    *localGroup
	rank int
}

func (c localComm) Rank() int { return c.rank }
func (c localComm) Size() int { return c.g.n }
func (c localComm) AllreduceSum64(x []float64) error {
	c.g.collective(c.rank, x, -1)
	return nil
}
func (c localComm) Bcast64(x []float64, root int) error {
	c.g.collective(c.rank, x, root)
	return nil
}
func (c localComm) AllreduceSum(x []float32) error {
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = float64(v)
	}
	c.g.collective(c.rank, y, -1)
	for i, v := range y {
		x[i] = float32(v)
	}
	return nil
}

// TestRunRanks runs the fake task as two ranks whose gradients are 1 and
// 2 beside one process whose gradient is 3, with the dev script of
// TestRunPatience and an interrupt on rank 1 alone in epoch 4: every rank
// ends at the same step with the single process's weights and state,
// rank 1 never evaluates and writes nothing, and rank 0 writes the
// checkpoint.
func TestRunRanks(t *testing.T) {
	run := func(dir string, c Comm, grad float32, cancelAt int) (*fakeTask, State, string) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		task := newFake(3, 2, 2.5, 2, 2.1)
		task.grad = grad
		if cancelAt > 0 {
			task.cancel, task.cancelAt = cancel, cancelAt
		}
		st := NewState(1e9)
		opt := models.NewAdam(task.params, AdamOptions(1e-3, 1, 0, &st))
		o := fakeOptions(dir)
		o.Comm = c
		stop, err := Run(ctx, o, &st, opt, task)
		if err != nil && stop != "interrupted" {
			t.Error(err)
		}
		return task, st, stop
	}
	oneDir := t.TempDir()
	one, oneState, oneStop := run(oneDir, nil, 3, 7)

	comms := newLocalGroup(2)
	dirs := []string{t.TempDir(), t.TempDir()}
	tasks := make([]*fakeTask, 2)
	states := make([]State, 2)
	stops := make([]string, 2)
	var wg sync.WaitGroup
	for r := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cancelAt := 0
			if r == 1 {
				cancelAt = 7
			}
			tasks[r], states[r], stops[r] = run(dirs[r], comms[r], float32(r+1), cancelAt)
		}()
	}
	wg.Wait()
	for r := range 2 {
		states[r].Seconds, oneState.Seconds = 0, 0
		if states[r] != oneState || stops[r] != oneStop {
			t.Errorf("rank %d stopped %q in state %+v; one process %q in %+v", r, stops[r], states[r], oneStop, oneState)
		}
		if got, want := tasks[r].params.All()[0].F32(), one.params.All()[0].F32(); !slices.Equal(got, want) {
			t.Errorf("rank %d weights %v, one process's %v", r, got, want)
		}
	}
	if tasks[1].evals != 0 || tasks[0].evals != one.evals {
		t.Errorf("evaluations: rank 0 %d, rank 1 %d; want %d and 0", tasks[0].evals, tasks[1].evals, one.evals)
	}
	if got := readState(t, dirs[0]); got.Step != oneState.Step {
		t.Errorf("rank 0's checkpoint at step %d, want %d", got.Step, oneState.Step)
	}
	if files, _ := os.ReadDir(dirs[1]); len(files) != 0 {
		t.Errorf("rank 1 wrote %d files, want none", len(files))
	}
}
