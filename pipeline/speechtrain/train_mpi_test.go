//go:build mpi && cgo

package speechtrain

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/attend-go/attend/internal/mpi"
	"github.com/attend-go/attend/internal/mpi/mpitest"
	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/pipeline/internal/snapshottest"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// mpiSteps is how many optimizer steps the data-parallel tests train.
const mpiSteps = 20

// mpiOptions is the tiny run of the MPI tests: batches of 4, a snapshot
// after every step (the trajectory to compare), a log line per step, no
// dropout (one graph of 4 and two of 2 then compute the same function).
func mpiOptions(dir string, replicas int) TrainOptions {
	o := tinyTrainOptions(dir)
	o.Config.Dropout = 0
	o.Replicas = replicas
	o.Epochs, o.MaxSteps, o.LogEvery, o.Patience = 100, mpiSteps, 1, 100
	o.Snapshots, o.SnapshotEvery = mpiSteps, 1
	o.CheckpointEvery = time.Nanosecond // a checkpoint after every step
	return o
}

// TestTrainMPI trains the tiny model for 20 steps as two MPI ranks with
// half batches and compares the run with one process: bit for bit with
// one process of two replicas (the same sub-batches, their gradients
// summed in the same order), within 1e-5 with one graph of the whole
// batch (the same function, rounded differently), the losses of every
// step and the weights after every step.
func TestTrainMPI(t *testing.T) {
	two := mpiRun(t, 2, false, nil)
	for _, tc := range []struct {
		replicas int
		tol      float64
	}{{2, 0}, {1, 1e-5}} {
		dir := t.TempDir()
		var log strings.Builder
		o := mpiOptions(dir, tc.replicas)
		o.Log = &log
		if _, err := Train(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		compareRuns(t, fmt.Sprintf("1 process × %d replicas", tc.replicas), dir, log.String(), two, tc.tol)
	}
}

// TestTrainMPIBuckets: two ranks that sum the gradient in buckets during
// the backward pass (models.GradStream) take bit for bit the steps of two
// ranks that sum it in one buffer after it.
func TestTrainMPIBuckets(t *testing.T) {
	flat := mpiRun(t, 2, false, nil)
	buckets := mpitest.RunTrain(t, "TestTrainMPIBucketsRank", t.TempDir(), 2, false, nil)
	if !strings.Contains(buckets.Log, "during the backward pass, in buckets of") {
		t.Fatalf("the run does not say it sums during the backward pass:\n%s", buckets.Log)
	}
	compareRuns(t, "2 ranks, buckets during the backward pass", buckets.Dir, buckets.Log, flat, 0)
}

// TestTrainMPIBucketsRank is one rank of TestTrainMPIBuckets: buckets of
// 2 kB, a dozen for the tiny model.
func TestTrainMPIBucketsRank(t *testing.T) {
	mpitest.Rank(t, func(c *mpi.Comm, dir string, resume bool) error {
		o := mpiOptions(dir, 1)
		o.Resume, o.Comm, o.BucketBytes = resume, c, 2000
		_, err := Train(context.Background(), o)
		return err
	})
}

// TestTrainMPIKill kills rank 1 of a two-rank run once step 8 is
// checkpointed: the job must end, non-zero, within 30 s, and a resumed
// run (-resume) must end where the uninterrupted one does, bit for bit.
func TestTrainMPIKill(t *testing.T) {
	want := mpiRun(t, 2, false, nil)
	dir := t.TempDir()
	r := mpiRunIn(t, dir, 2, false, func(pids map[int]int) {
		mpitest.WaitFor(t, filepath.Join(dir, "snapshot-8.safetensors"), time.Minute)
		if err := syscall.Kill(pids[1], syscall.SIGKILL); err != nil {
			t.Errorf("kill rank 1: %v", err)
		}
	})
	if r.Err == nil {
		t.Fatalf("the job with a killed rank exited 0:\n%s%s", r.Output, r.Stderr)
	}
	t.Logf("the job ended (%v) %v after rank 1 was killed; mpirun said:\n%s", r.Err, r.Ended.Round(time.Millisecond), mpitest.LastLines(r.Output+r.Stderr, 8))
	if r.Ended > 30*time.Second {
		t.Errorf("the job took %v to end after a rank died", r.Ended)
	}
	mpiRunIn(t, dir, 2, true, nil)
	compareWeights(t, "resumed", filepath.Join(dir, lastName), filepath.Join(want.Dir, lastName), 0)
}

func mpiRun(t *testing.T, np int, resume bool, kill func(pids map[int]int)) mpitest.Train {
	return mpiRunIn(t, t.TempDir(), np, resume, kill)
}

func mpiRunIn(t *testing.T, dir string, np int, resume bool, kill func(pids map[int]int)) mpitest.Train {
	return mpitest.RunTrain(t, "TestTrainMPIRank", dir, np, resume, kill)
}

// TestTrainMPIRank is one rank of the tests above.
func TestTrainMPIRank(t *testing.T) {
	mpitest.Rank(t, func(c *mpi.Comm, dir string, resume bool) error {
		o := mpiOptions(dir, 1)
		o.Resume, o.Comm = resume, c
		_, err := Train(context.Background(), o)
		return err
	})
}

var lossLine = regexp.MustCompile(`step (\d+) loss ([0-9.]+)`)

// compareRuns compares the losses logged at every step and the snapshot
// after every step of a run in dir (log: its train.log) with an MPI run.
func compareRuns(t *testing.T, name, dir, log string, mpiRun mpitest.Train, tol float64) {
	t.Helper()
	got, want := losses(t, log), losses(t, mpiRun.Log)
	if len(got) != mpiSteps || len(want) != mpiSteps {
		t.Fatalf("%s: %d and %d losses logged, want %d each", name, len(got), len(want), mpiSteps)
	}
	worstLoss, worstWeight := 0.0, 0.0
	for i := range got {
		d := math.Abs(got[i] - want[i])
		if d > tol {
			t.Errorf("%s: step %d loss %.6f, 2 ranks %.6f", name, i+1, got[i], want[i])
		}
		worstLoss = max(worstLoss, d)
	}
	for step := 1; step <= mpiSteps; step++ {
		f := fmt.Sprintf("snapshot-%d.safetensors", step)
		worstWeight = max(worstWeight, compareWeights(t, fmt.Sprintf("%s, step %d", name, step), filepath.Join(dir, f), filepath.Join(mpiRun.Dir, f), tol))
	}
	t.Logf("%s against 2 ranks × half batches, %d steps: losses differ by up to %.2g, weights by up to %.2g", name, mpiSteps, worstLoss, worstWeight)
}

func losses(t *testing.T, log string) []float64 {
	var out []float64
	for _, m := range lossLine.FindAllStringSubmatch(log, -1) {
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// compareWeights compares two model files' weights within tol and
// returns the largest difference.
func compareWeights(t *testing.T, name, gotPath, wantPath string, tol float64) float64 {
	t.Helper()
	return snapshottest.CompareWeights(t, name, gotPath, wantPath, tol, func(path string) (*models.Params, error) {
		m, err := speechmodel.LoadModel(path)
		if err != nil {
			return nil, err
		}
		return m.Params, nil
	})
}
