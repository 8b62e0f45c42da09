// Package snapshottest checks the snapshots that the trainers (asr train,
// caption train) keep with trainloop.Snapshots, so that both are held to
// the same contract: after each dev evaluation, the model alone, the
// newest the weights of the training checkpoint written with it.
package snapshottest

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/pipeline/trainloop"
)

// Check checks that dir holds the snapshots of steps and no others, and
// that the newest holds the weights of the training checkpoint last
// without its optimizer state and loads with check. It returns the
// newest snapshot.
func Check(t testing.TB, dir, last string, check func(*safetensors.File) error, steps ...int) *safetensors.File {
	t.Helper()
	CheckSteps(t, dir, steps...)
	ckpt, err := safetensors.ReadFile(last)
	if err != nil {
		t.Fatal(err)
	}
	newest := trainloop.Snapshots{Dir: dir}.Path(steps[len(steps)-1])
	snap, err := safetensors.ReadFile(newest)
	if err != nil {
		t.Fatal(err)
	}
	if err := check(snap); err != nil {
		t.Errorf("%s does not load: %v", newest, err)
	}
	want := models.WithoutOptimizer(ckpt).Tensors
	if !slices.EqualFunc(snap.Tensors, want, func(a, b safetensors.Tensor) bool { return a.Name == b.Name && slices.Equal(a.Data, b.Data) }) {
		t.Errorf("%s does not hold the weights of %s without its optimizer state", newest, last)
	}
	return snap
}

// CheckSteps checks that dir holds the snapshots of steps and no others.
func CheckSteps(t testing.TB, dir string, steps ...int) {
	t.Helper()
	s := trainloop.Snapshots{Dir: dir}
	var want []string
	for _, step := range steps {
		want = append(want, s.Path(step))
	}
	if got, err := s.Paths(); err != nil || !slices.Equal(got, want) {
		t.Fatalf("snapshots %q (error %v), want %q", got, err, want)
	}
}

// CheckReplaced checks, after a fresh run with overwrite into dir, that
// its train.log says it removed the removed snapshots of the run before
// and that dir holds its own of steps.
func CheckReplaced(t testing.TB, dir string, removed int, steps ...int) {
	t.Helper()
	CheckSteps(t, dir, steps...)
	log, err := os.ReadFile(filepath.Join(dir, "train.log"))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("removed the %d snapshots of the run replaced", removed); !strings.Contains(string(log), want) {
		t.Errorf("train.log lacks %q:\n%s", want, log)
	}
}

// CompareWeights fails t unless the weights of two model files (read by
// load, which returns their parameters) differ by at most tol, and
// returns the largest difference: the data-parallel tests compare a run
// over MPI ranks with one in a single process this way.
func CompareWeights(t testing.TB, name, gotPath, wantPath string, tol float64, load func(path string) (*models.Params, error)) float64 {
	t.Helper()
	got, err := load(gotPath)
	if err != nil {
		t.Fatal(err)
	}
	want, err := load(wantPath)
	if err != nil {
		t.Fatal(err)
	}
	worst, at := 0.0, ""
	for i, p := range got.All() {
		w := want.All()[i].F32()
		for j, v := range p.F32() {
			if d := math.Abs(float64(v - w[j])); d > worst || math.IsNaN(d) {
				worst, at = d, fmt.Sprintf("%s[%d]", p.Name, j)
			}
		}
	}
	if worst > tol || math.IsNaN(worst) {
		t.Errorf("%s: weights differ by up to %.3g (at %s), want at most %g", name, worst, at, tol)
	}
	return worst
}
