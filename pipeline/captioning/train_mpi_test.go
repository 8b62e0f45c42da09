//go:build mpi && cgo

package captioning

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/attend-go/attend/internal/mpi"
	"github.com/attend-go/attend/internal/mpi/mpitest"
	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/pipeline/internal/snapshottest"
)

// mpiSteps is how many optimizer steps the data-parallel tests train.
const mpiSteps = 20

// mpiOptions is the tiny run of the MPI tests: batches of 4, no dropout,
// a log line, a snapshot and a checkpoint after every step, and Adam's
// rate of 1e-3 (the trainers' default): Adam divides each gradient by its
// own running size, so a weight whose gradient is nearly zero moves by up
// to the rate whatever the gradient's rounding; at tinyOptions' 5e-3 the
// two runs' weights differ by up to 2.6e-5, at 1e-3 by a fifth of that.
func mpiOptions(dir string) TrainOptions {
	o := tinyOptions(dir)
	o.Epochs, o.MaxSteps, o.LogEvery, o.LR = 100, mpiSteps, 1, 1e-3
	o.Snapshots, o.SnapshotEvery = mpiSteps, 1
	o.CheckpointEvery = time.Nanosecond
	return o
}

// TestTrainMPI trains the tiny decoder for 20 steps as two MPI ranks with
// half batches and in one process with whole batches. One process that
// runs each batch as the same two halves (Accumulate 2) takes the very
// same steps: losses and weights agree bit for bit. One process that
// runs each batch in one graph sums it in a different order, which Adam
// magnifies in the weights whose gradient is nearly zero (att.u's rows of
// the feature channels that are almost always 0), to 1.2e-5 here: its
// losses agree within 1e-5 and its weights within 3e-5. A rank killed
// after step 8 ends the job non-zero within 30 s, and -resume then ends
// where the uninterrupted run does, bit for bit.
func TestTrainMPI(t *testing.T) {
	two := mpiRunIn(t, t.TempDir(), false, nil)
	for _, c := range []struct {
		name               string
		accumulate         int
		lossTol, weightTol float64
	}{
		{"one process, the batch as two sub-batches", 2, 0, 0},
		{"one process, the batch in one graph", 1, 1e-5, 3e-5},
	} {
		dir := t.TempDir()
		var log strings.Builder
		o := mpiOptions(dir)
		o.Log, o.Accumulate = &log, c.accumulate
		if _, err := Train(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		got, want := logged(log.String()), logged(two.Log)
		if len(got) != mpiSteps || len(want) != mpiSteps {
			t.Fatalf("%s: %d and %d losses logged, want %d each", c.name, len(got), len(want), mpiSteps)
		}
		worstLoss, worstWeight := 0.0, 0.0
		for i := range got {
			d := math.Abs(got[i] - want[i])
			if d > c.lossTol {
				t.Errorf("%s, step %d: cross-entropy %.6f, %.6f over 2 ranks", c.name, i+1, got[i], want[i])
			}
			worstLoss = max(worstLoss, d)
		}
		for step := 1; step <= mpiSteps; step++ {
			f := fmt.Sprintf("snapshot-%d.safetensors", step)
			worstWeight = max(worstWeight, compareWeights(t, fmt.Sprintf("%s, step %d", c.name, step), filepath.Join(dir, f), filepath.Join(two.Dir, f), c.weightTol))
		}
		t.Logf("%s against 2 ranks × half batches, %d steps: losses differ by up to %.2g, weights by up to %.2g", c.name, mpiSteps, worstLoss, worstWeight)
	}

	killed := t.TempDir()
	r := mpiRunIn(t, killed, false, func(pids map[int]int) {
		mpitest.WaitFor(t, filepath.Join(killed, "snapshot-8.safetensors"), time.Minute)
		if err := syscall.Kill(pids[1], syscall.SIGKILL); err != nil {
			t.Errorf("kill rank 1: %v", err)
		}
	})
	if r.Err == nil {
		t.Fatalf("the job with a killed rank exited 0:\n%s%s", r.Output, r.Stderr)
	}
	t.Logf("the job ended (%v) %v after rank 1 was killed", r.Err, r.Ended.Round(time.Millisecond))
	if r.Ended > 30*time.Second {
		t.Errorf("the job took %v to end after a rank died", r.Ended)
	}
	mpiRunIn(t, killed, true, nil)
	compareWeights(t, "resumed", filepath.Join(killed, lastName), filepath.Join(two.Dir, lastName), 0)
}

func mpiRunIn(t *testing.T, dir string, resume bool, kill func(pids map[int]int)) mpitest.Train {
	return mpitest.RunTrain(t, "TestTrainMPIRank", dir, 2, resume, kill)
}

// TestTrainMPIRank is one rank of TestTrainMPI.
func TestTrainMPIRank(t *testing.T) {
	mpitest.Rank(t, func(c *mpi.Comm, dir string, resume bool) error {
		o := mpiOptions(dir)
		o.Resume, o.Comm = resume, c
		_, err := Train(context.Background(), o)
		return err
	})
}

// compareWeights compares two model files' weights within tol and
// returns the largest difference.
func compareWeights(t *testing.T, name, gotPath, wantPath string, tol float64) float64 {
	t.Helper()
	return snapshottest.CompareWeights(t, name, gotPath, wantPath, tol, func(path string) (*models.Params, error) {
		m, err := LoadModel(path)
		if err != nil {
			return nil, err
		}
		return m.Params, nil
	})
}
