package speechtrain

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/trainloop"
)

// TestTrainReplicasRange: Replicas must lie in [1, min(MaxReplicas,
// BatchSize)]; 0 takes the default.
func TestTrainReplicasRange(t *testing.T) {
	for _, tc := range []struct {
		name            string
		replicas, batch int
		want            string // "" for valid
	}{
		{"default", 0, 4, ""},
		{"one", 1, 4, ""},
		{"one per utterance", 4, 4, ""},
		{"negative", -1, 4, "-1 replicas"},
		{"more than the batch", 5, 4, "5 replicas: replicas out of range (1 to 4 for batches of 4)"},
		{"more than the most", models.MaxReplicas + 1, 1000, "(1 to 64 for batches of 1000)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := TrainOptions{Replicas: tc.replicas, Setup: trainloop.Setup{BatchSize: tc.batch}}
			o.defaults()
			err := o.checkReplicas()
			if tc.want == "" && err != nil || tc.want != "" && (!errors.Is(err, ErrReplicas) || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("checkReplicas = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestTrainReplicasGOMAXPROCS trains the tiny model for three steps over
// two replicas (dropout on) with GOMAXPROCS 1 and 2: the weights must come
// out bit-identical.
func TestTrainReplicasGOMAXPROCS(t *testing.T) {
	run := func(procs int) [][]float32 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		dir := t.TempDir()
		o := tinyTrainOptions(dir)
		o.Replicas = 2
		if _, err := Train(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		m, err := speechmodel.LoadModel(filepath.Join(dir, lastName))
		if err != nil {
			t.Fatal(err)
		}
		var w [][]float32
		for _, p := range m.Params.All() {
			w = append(w, p.F32())
		}
		return w
	}
	one, two := run(1), run(2)
	if !slices.EqualFunc(one, two, slices.Equal) {
		t.Error("weights after three steps differ between GOMAXPROCS 1 and 2")
	}
}
