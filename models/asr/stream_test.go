package asr_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/attend-go/attend/models"
)

// checkingReducer is a one-rank Reducer that checks a GradStream's use of
// it: it copies each bucket when its sum starts, and at WaitAll fails if
// any started bucket changed since (the stream wrote into a buffer MPI
// owns), then doubles every bucket: the sum over two ranks that computed
// the same gradient, which is exact in float32.
type checkingReducer struct {
	t       testing.TB
	started [][]float32
	copies  [][]float32
}

func (c *checkingReducer) IallreduceSum(x []float32) error {
	c.started = append(c.started, x)
	c.copies = append(c.copies, slices.Clone(x))
	return nil
}

func (c *checkingReducer) TestAll() (bool, error) { return false, nil }

func (c *checkingReducer) Bcast64([]float64, int) error { return nil }

func (c *checkingReducer) WaitAll() error {
	for i, x := range c.started {
		if !slices.Equal(x, c.copies[i]) {
			c.t.Errorf("bucket %d changed after its sum started", i)
		}
		for j := range x {
			x[j] *= 2
		}
	}
	c.started, c.copies = c.started[:0], c.copies[:0]
	return nil
}

// TestGradStream: a few seeded optimizer steps with the gradients summed
// by a GradStream during the backward pass (buckets of every size from a
// few parameters to all of them) take bit for bit the steps of the same
// run whose gradients are summed after it, with one to three replicas,
// joint CTC, a phone head and dropout. So every gradient the tape reports
// final (models/ready.go) is the one it ends with, and the stream adds the
// replicas' as Replicas.Run does. With small buckets most start before
// the backward pass ends.
func TestGradStream(t *testing.T) {
	type result struct {
		losses  []float64
		weights [][]float32
		stats   models.StreamStats
	}
	run := func(r, bucketBytes int) result {
		m, rs := dropoutReplicas(t, r)
		defer rs.Close()
		var (
			stream *models.GradStream
			err    error
		)
		if bucketBytes >= 0 {
			if stream, err = models.NewGradStream(m.Params, &checkingReducer{t: t}, bucketBytes); err != nil {
				t.Fatal(err)
			}
			rs.SetStream(stream)
		}
		opt := models.NewAdam(m.Params, &models.AdamOptions{LR: 0.01})
		var res result
		for step := range 3 {
			res.losses = append(res.losses, replicatedStep(t, m, rs, replicaExamples(m, 7, uint64(step))))
			if stream == nil { // the flat sum of two equal ranks
				for _, p := range m.Params.All() {
					for j, g := range p.Grad.Data().([]float32) {
						p.Grad.Data().([]float32)[j] = 2 * g
					}
				}
			}
			if _, err := opt.Step(); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range m.Params.All() {
			res.weights = append(res.weights, slices.Clone(p.F32()))
		}
		if stream != nil {
			res.stats = stream.Stats()
		}
		return res
	}
	for _, r := range []int{1, 2, 3} {
		want := run(r, -1)
		for _, bucketBytes := range []int{256, 4 << 10, 0} {
			t.Run(fmt.Sprintf("%d replicas, buckets of %d bytes", r, bucketBytes), func(t *testing.T) {
				got := run(r, bucketBytes)
				if !slices.Equal(got.losses, want.losses) {
					t.Errorf("losses %v, %v summed after the backward pass", got.losses, want.losses)
				}
				if !slices.EqualFunc(got.weights, want.weights, slices.Equal) {
					t.Errorf("weights differ from those of gradients summed after the backward pass")
				}
				st := got.stats
				if st.Runs != 3 {
					t.Errorf("%d runs streamed, want 3", st.Runs)
				}
				if bucketBytes == 256 && st.Early < st.Runs*st.Buckets/2 {
					t.Errorf("%d of %d buckets started during the backward pass, want at least half", st.Early, st.Runs*st.Buckets)
				}
				t.Logf("%d buckets a step, %d of %d started during the backward pass", st.Buckets, st.Early, st.Runs*st.Buckets)
			})
		}
	}
}
