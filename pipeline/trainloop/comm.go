package trainloop

import (
	"fmt"
	"slices"
	"time"

	"github.com/attend-go/attend/models"
)

// Comm is the group of processes a data-parallel run trains in: one rank
// per process, each training its share of every batch (package
// internal/mpi, built with -tags mpi, is the one over MPI). Setup.Comm nil
// is a run of one process.
//
// With N ranks every rank plans the same epochs from the same seed and
// runs its 1/N of each batch (the task splits it, Setup.Share), its loss
// normalized by the whole batch's counts, so that the ranks' gradients add
// up to the batch's. Run sums them over the ranks (AllreduceSum, one
// buffer of every parameter's gradient in Params order) before each
// optimizer step, or a Streamer task's Train sums them bucket by bucket
// during its backward pass (Options.BucketBytes): every rank takes the
// same step from the same gradient and the weights stay identical without
// ever being sent. Rank 0 alone
// evaluates dev (the others receive its value, so that the learning-rate
// decay and the stopping rules agree) and writes the checkpoints, the best
// model, the snapshots and the log.
type Comm interface {
	Rank() int
	Size() int
	// AllreduceSum replaces x on every rank by the element-wise sum over
	// the ranks; AllreduceSum64 likewise for float64.
	AllreduceSum(x []float32) error
	AllreduceSum64(x []float64) error
	// Bcast64 copies root's x into every rank's x.
	Bcast64(x []float64, root int) error
}

// group is Run's view of its Comm: a run of one when c is nil.
type group struct {
	c    Comm
	grad []float32     // the flat gradient buffer of SumGradients
	wait time.Duration // spent in sumGradients
}

// many reports whether the run has more than one rank.
func (g *group) many() bool { return g.c != nil && g.c.Size() > 1 }

// lead reports whether this rank writes the run's files (rank 0).
func (g *group) lead() bool { return g.c == nil || g.c.Rank() == 0 }

// sumGradients replaces every parameter's Grad by its sum over the ranks:
// one AllreduceSum of a buffer that holds them all, in Params order
// (float32 stores; a float64 one sums each gradient on its own). It
// returns the bytes each rank contributed.
func (g *group) sumGradients(ps *models.Params) (int, error) {
	defer func(start time.Time) { g.wait += time.Since(start) }(time.Now())
	all := ps.All()
	n := 0
	for _, p := range all {
		n += p.Size()
	}
	if _, f32 := all[0].Grad.Data().([]float32); !f32 {
		for _, p := range all {
			if err := g.c.AllreduceSum64(p.Grad.Data().([]float64)); err != nil {
				return 0, err
			}
		}
		return 8 * n, nil
	}
	if cap(g.grad) < n {
		g.grad = make([]float32, n)
	}
	buf := g.grad[:n]
	at := 0
	for _, p := range all {
		at += copy(buf[at:], p.Grad.Data().([]float32))
	}
	if err := g.c.AllreduceSum(buf); err != nil {
		return 0, err
	}
	at = 0
	for _, p := range all {
		at += copy(p.Grad.Data().([]float32), buf[at:])
	}
	return 4 * n, nil
}

// stats sums a batch's numbers over the ranks and tells whether any rank
// was interrupted: the sums of Tokens, Loss, Media, and the mean Reward.
func (g *group) stats(b Batch, interrupted bool) (Batch, bool, error) {
	x := []float64{float64(b.Tokens), b.Loss, b.Media, b.Reward, 0}
	if interrupted {
		x[4] = 1
	}
	if err := g.c.AllreduceSum64(x); err != nil {
		return b, false, err
	}
	return Batch{Tokens: int(x[0]), Loss: x[1], Media: x[2], Reward: x[3] / float64(g.c.Size())}, x[4] > 0, nil
}

// shareValue gives every rank rank 0's dev value.
func (g *group) shareValue(v float64) (float64, error) {
	x := []float64{v}
	err := g.c.Bcast64(x, 0)
	return x[0], err
}

// checkStart fails unless every rank starts where rank 0 does: the same
// state and the same weights (a checksum), as a resumed run on a file
// system every rank shares, or a fresh one from the same seed, gives.
func (g *group) checkStart(st *State, ps *models.Params) error {
	var sum float64
	for _, p := range ps.All() {
		switch w := p.Value.Data().(type) {
		case []float32:
			for _, v := range w {
				sum += float64(v)
			}
		case []float64:
			for _, v := range w {
				sum += v
			}
		}
	}
	mine := []float64{float64(st.Epoch), float64(st.Batch), float64(st.Step), sum}
	lead := append([]float64(nil), mine...)
	if err := g.c.Bcast64(lead, 0); err != nil {
		return err
	}
	if !slices.Equal(mine, lead) {
		return fmt.Errorf("rank %d of %d starts at epoch %g, batch %g, step %g (weights sum %g), rank 0 at epoch %g, batch %g, step %g (%g): "+
			"every rank must start from the same checkpoint (an output directory on a file system all of them share) or the same seed",
			g.c.Rank(), g.c.Size(), mine[0], mine[1], mine[2], mine[3], lead[0], lead[1], lead[2], lead[3])
	}
	return nil
}
