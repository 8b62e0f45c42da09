package trainloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/safetensors"
	"gorgonia.org/tensor"
)

// fakeTask is the smallest task: one parameter, two batches an epoch, and
// dev values read from a script, one per evaluation.
type fakeTask struct {
	params   *models.Params
	values   []float64
	evals    int
	cancel   func() // called by the batch of step cancelAt, if set
	step     int
	cancelAt int
	log      []string
	grad     float32 // added to every gradient by each batch
}

func (f *fakeTask) Plan(int) (int, error) { return 2, nil }
func (f *fakeTask) Train(context.Context, int, int) (Batch, error) {
	f.step++
	if f.cancel != nil && f.step == f.cancelAt {
		f.cancel()
	}
	for _, p := range f.params.All() {
		for i := range p.Grad.Data().([]float32) {
			p.Grad.Data().([]float32)[i] += f.grad
		}
	}
	return Batch{Tokens: 10, Loss: 1, Media: 5}, nil
}
func (f *fakeTask) Progress(p Progress) (string, string) {
	return fmt.Sprintf("loss %.1f", p.Loss), "fast"
}
func (f *fakeTask) EpochDone(p Progress) {
	f.log = append(f.log, fmt.Sprintf("epoch %d done", p.Epoch))
}
func (f *fakeTask) Evaluate(context.Context, *State) (float64, error) {
	v := f.values[min(f.evals, len(f.values)-1)]
	f.evals++
	return v, nil
}
func (f *fakeTask) Evaluated(st *State, improved bool) {
	f.log = append(f.log, fmt.Sprintf("eval %d improved %v", st.Step, improved))
}
func (f *fakeTask) File() (*safetensors.File, error) {
	return f.params.NewFile("fake", struct{}{}, nil)
}
func (f *fakeTask) CheckpointState(st *State) any { return st }

type graphs struct{}

func (graphs) Len() int    { return 0 }
func (graphs) Builds() int { return 0 }

func newFake(values ...float64) *fakeTask {
	ps := models.NewParams(tensor.Float32, nil)
	ps.New("w", models.Zeros, 2)
	return &fakeTask{params: ps, values: values}
}

func fakeOptions(dir string) Options {
	return Options{Name: "fake", OutDir: dir, Epochs: 10, Patience: 3, DecayPatience: 2,
		PatienceStop: "no dev improvement in %d evaluations", LowerIsBetter: true,
		CheckpointEvery: time.Hour, LogEvery: 1, Graphs: graphs{}, Logf: func(string, ...any) {}}
}

// readState reads the loop state of the checkpoint in dir.
func readState(t *testing.T, dir string) State {
	t.Helper()
	f, err := safetensors.ReadFile(filepath.Join(dir, LastName))
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal([]byte(f.Extra[StateKey]), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestRunPatience: dev improves twice, then not; the learning rate halves
// after every DecayPatience bad evaluations, and Patience stops the run.
func TestRunPatience(t *testing.T) {
	dir := t.TempDir()
	task := newFake(3, 2, 2.5, 2, 2.1)
	st := NewState(1e9)
	opt := models.NewAdam(task.params, AdamOptions(1e-3, 1, 0, &st))
	stop, err := Run(context.Background(), fakeOptions(dir), &st, opt, task)
	if err != nil {
		t.Fatal(err)
	}
	if stop != "no dev improvement in 3 evaluations" || st.Epoch != 6 || st.Step != 10 {
		t.Errorf("stopped %q at epoch %d step %d, want patience after 5 epochs, 10 steps", stop, st.Epoch, st.Step)
	}
	if st.BestValue != 2 || st.BestEpoch != 2 || st.BestStep != 4 || st.LRScale != 0.5 {
		t.Errorf("state %+v, want best 2 at epoch 2 step 4, learning rate halved once", st)
	}
	if got := readState(t, dir); got != st {
		t.Errorf("checkpoint state %+v, want %+v", got, st)
	}
	if _, err := safetensors.ReadFile(filepath.Join(dir, BestName)); err != nil {
		t.Errorf("no best model: %v", err)
	}
}

// TestRunInterrupt: a cancelled run saves where it stands, and a run
// resumed from there ends as one that ran straight through.
func TestRunInterrupt(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	task := newFake(3, 2, 1)
	task.cancel, task.cancelAt = cancel, 3 // in epoch 2
	st := NewState(1e9)
	opt := models.NewAdam(task.params, AdamOptions(1e-3, 1, 0, &st))
	o := fakeOptions(dir)
	o.Epochs = 3
	stop, err := Run(ctx, o, &st, opt, task)
	if !errors.Is(err, context.Canceled) || stop != "interrupted" {
		t.Fatalf("Run: %q, %v; want interrupted", stop, err)
	}
	saved := readState(t, dir)
	if saved.Epoch != 2 || saved.Batch != 1 || saved.Step != 3 {
		t.Errorf("checkpoint at epoch %d batch %d step %d, want epoch 2 batch 1 step 3", saved.Epoch, saved.Batch, saved.Step)
	}
	task.cancel = nil
	stop, err = Run(context.Background(), o, &saved, opt, task)
	if err != nil || stop != "reached 3 epochs" || saved.Step != 6 || saved.BestValue != 1 {
		t.Errorf("resumed: %q, %v, state %+v; want 3 epochs, 6 steps, best 1", stop, err, saved)
	}
}

// TestRunSnapshotEvery: with Snapshots.Every a run keeps a snapshot every
// that many steps besides those of its evaluations (one file where both
// fall on a step), and an interrupted run resumed keeps the same ones.
func TestRunSnapshotEvery(t *testing.T) {
	tests := []struct {
		name     string
		every    int
		keep     int
		cancelAt int // step whose batch interrupts the run (0: none)
		want     []int
	}{
		{name: "after evaluations only", every: 0, keep: 10, want: []int{2, 4, 6}},
		{name: "every third step", every: 3, keep: 10, want: []int{2, 3, 4, 6}},
		{name: "every step, three kept", every: 1, keep: 3, want: []int{4, 5, 6}},
		{name: "every third step, resumed", every: 3, keep: 10, cancelAt: 4, want: []int{2, 3, 4, 6}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			o := fakeOptions(dir)
			o.Epochs = 3 // 2 steps an epoch: 6 steps
			o.Snapshots = Snapshots{Dir: dir, Keep: tc.keep, Every: tc.every}
			task := newFake(3, 2, 1)
			st := NewState(1e9)
			opt := models.NewAdam(task.params, AdamOptions(1e-3, 1, 0, &st))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancelAt > 0 {
				task.cancel, task.cancelAt = cancel, tc.cancelAt
				if _, err := Run(ctx, o, &st, opt, task); !errors.Is(err, context.Canceled) {
					t.Fatalf("Run: %v, want interrupted", err)
				}
				st, ctx = readState(t, dir), context.Background()
				task.cancel = nil
			}
			if stop, err := Run(ctx, o, &st, opt, task); err != nil || stop != "reached 3 epochs" {
				t.Fatalf("Run: %q, %v", stop, err)
			}
			got, err := o.Snapshots.steps()
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("snapshots at steps %v, want %v", got, tc.want)
			}
		})
	}
}
