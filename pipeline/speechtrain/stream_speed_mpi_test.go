//go:build mpi && cgo

package speechtrain

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/attend-go/attend/internal/mpi"
	"github.com/attend-go/attend/internal/mpi/mpitest"
	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
)

// TestGradStreamSpeed times a training step of the default speech model
// as two ranks of one thread (set ATTEND_MPI_STREAM_SPEED to the steps to
// time per mode, e.g. 8): the gradient summed in one buffer after the
// backward pass against summed in buckets during it, alternating, both
// ranks on the same batch of 8 utterances (one rank's half of the
// benchmark batch, key {8, 208, 112}); buckets of 0 (one bucket after the
// backward pass: MPI_Iallreduce's algorithm without overlap), 4 and 1 MB.
// Rank 0 prints the step times and the exposed communication: from the
// end of the last rank's tape to the sum in the parameters' Grad on every
// rank (exposedWait): after the backward pass, the whole allreduce and its
// copies; with buckets, what the backward pass left.
func TestGradStreamSpeed(t *testing.T) {
	steps, _ := strconv.Atoi(os.Getenv("ATTEND_MPI_STREAM_SPEED"))
	if steps < 1 {
		t.Skip("set ATTEND_MPI_STREAM_SPEED=N (steps per mode) to time the bucketed allreduce")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	out, err := mpitest.Command(ctx, t, 2, 1, "^TestGradStreamSpeedRank$", "ATTEND_MPI_STREAM_SPEED="+strconv.Itoa(steps)).CombinedOutput()
	if err != nil {
		t.Fatalf("mpirun: %v\n%s", err, out)
	}
	t.Logf("\n%s", out)
}

// TestGradStreamSpeedRank is one rank of TestGradStreamSpeed.
func TestGradStreamSpeedRank(t *testing.T) {
	mpitest.Helper(t)
	steps, _ := strconv.Atoi(os.Getenv("ATTEND_MPI_STREAM_SPEED"))
	c, err := mpi.Init()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Finalize()
	m, err := asr.New(asr.DefaultConfig(), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	key := asr.BatchKey{B: 8, T: 208, S: 112}
	bts, err := m.MakeBatches([]asr.BatchKey{key}, [][]asr.Example{speedExamples(m, key)})
	if err != nil {
		t.Fatal(err)
	}
	rs := models.NewReplicas(m.Params, 1, func(int) models.BuildFunc[asr.BatchKey, asr.Inputs] { return m.BuildFunc(nil) })
	defer rs.Close()
	gr, err := rs.Get(0, key)
	if err != nil {
		t.Fatal(err)
	}
	if err := gr.Inputs.Bind(bts[0]); err != nil {
		t.Fatal(err)
	}
	var buf []float32
	flat := func() (step, wait time.Duration) {
		start := time.Now()
		if _, err := rs.Run([]*models.Graph[asr.Inputs]{gr}); err != nil {
			t.Fatal(err)
		}
		tape := time.Now()
		buf = buf[:0]
		for _, p := range m.Params.All() {
			buf = append(buf, p.Grad.Data().([]float32)...)
		}
		if err := c.AllreduceSum(buf); err != nil {
			t.Fatal(err)
		}
		at := 0
		for _, p := range m.Params.All() {
			at += copy(p.Grad.Data().([]float32), buf[at:])
		}
		step, wait = time.Since(start), time.Since(tape)
		m.Params.ZeroGrads()
		return step, wait
	}
	var stream *models.GradStream
	streamed := func() (step, wait time.Duration) {
		before := stream.Stats().Wait
		start := time.Now()
		if _, err := rs.Run([]*models.Graph[asr.Inputs]{gr}); err != nil {
			t.Fatal(err)
		}
		step = time.Since(start)
		m.Params.ZeroGrads()
		return step, stream.Stats().Wait - before
	}
	flat() // warm-up: packs, first allocations
	for _, mb := range []float64{0, 4, 1} {
		if stream, err = models.NewGradStream(m.Params, c, int(mb*1e6)); err != nil {
			t.Fatal(err)
		}
		rs.SetStream(stream)
		streamed() // learns the order
		var flatSteps, flatWaits, bucketSteps, bucketWaits []time.Duration
		for round := range 2 * steps {
			var step, wait time.Duration
			if round%2 == 0 {
				rs.SetStream(nil)
				step, wait = flat()
			} else {
				rs.SetStream(stream)
				step, wait = streamed()
			}
			exposed := exposedWait(t, c, wait)
			if round%2 == 0 {
				flatSteps, flatWaits = append(flatSteps, step), append(flatWaits, exposed)
			} else {
				bucketSteps, bucketWaits = append(bucketSteps, step), append(bucketWaits, exposed)
			}
		}
		if c.Rank() == 0 {
			n, largest := stream.Buckets()
			st := stream.Stats()
			fmt.Printf("%d parameters (%.1f MB of gradient), %d steps per mode, alternating; buckets of %g MB (0: one): %d (largest %.1f MB), %d of %d started during the backward pass\n",
				m.Params.Count(), 4*float64(m.Params.Count())/1e6, steps, mb, n, float64(largest)/1e6, st.Early, st.Runs*st.Buckets)
			fmt.Printf("  one buffer after the backward pass: step %s, exposed %s\n", spread(flatSteps), spread(flatWaits))
			fmt.Printf("  buckets during the backward pass:   step %s, exposed %s\n", spread(bucketSteps), spread(bucketWaits))
		}
	}
}

// exposedWait returns the time from the end of the last rank's tape to
// the end of the last rank's sum, given this rank's wait, which just
// ended: the communication that no rank's backward pass hid, without the
// time a rank waited for a slower one to finish computing. The ranks
// share one machine's clock.
func exposedWait(t *testing.T, c *mpi.Comm, wait time.Duration) time.Duration {
	now := time.Now()
	x := make([]float64, 2*c.Size()) // tape ends, then sums' ends, µs since the Unix epoch
	x[c.Rank()] = float64(now.Add(-wait).UnixMicro())
	x[c.Size()+c.Rank()] = float64(now.UnixMicro())
	if err := c.AllreduceSum64(x); err != nil {
		t.Fatal(err)
	}
	return time.Duration(slices.Max(x[c.Size():])-slices.Max(x[:c.Size()])) * time.Microsecond
}

// spread formats durations as their median and range in ms.
func spread(ds []time.Duration) string {
	s := slices.Clone(ds)
	slices.Sort(s)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
	return fmt.Sprintf("median %.0f ms (%.0f–%.0f)", ms(s[len(s)/2]), ms(s[0]), ms(s[len(s)-1]))
}

// speedExamples are key.B utterances of 4/5 to all of key.T stacked
// frames and 4/5 to all of key.S−1 characters, of seeded noise.
func speedExamples(m *asr.Model, key asr.BatchKey) []asr.Example {
	r := rand.New(rand.NewPCG(3, 3))
	exs := make([]asr.Example, key.B)
	for i := range exs {
		frames := (key.T*4/5 + r.IntN(key.T/5+1)) * m.Config.Stack
		e := asr.Example{Frames: frames, Features: make([]float32, frames*m.Config.MelBins)}
		for j := range e.Features {
			e.Features[j] = float32(r.NormFloat64())
		}
		e.Tokens = make([]int, key.S*4/5+r.IntN(key.S/5))
		for j := range e.Tokens {
			e.Tokens[j] = 1 + r.IntN(m.Vocab.Size()-1)
		}
		exs[i] = e
	}
	return exs
}
