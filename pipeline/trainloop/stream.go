package trainloop

import (
	"time"

	"github.com/attend-go/attend/models"
)

// A Streamer is a Task whose Train can sum its gradients over the ranks
// during its backward pass (models.GradStream: bucketed allreduce
// overlapping the backward pass, as PyTorch DDP does). In a run of several
// ranks with Options.BucketBytes > 0, a Comm that is a models.Reducer
// (internal/mpi's is) and float32 parameters, Run gives the task a stream
// before the first batch; Train must then leave the sum over the ranks in
// the parameters' Grad, and Run does not sum them again.
type Streamer interface {
	Stream(s *models.GradStream)
}

// startStream gives the task a stream where Streamer says it can take
// one, and logs the buckets.
func (r *run) startStream() error {
	s, ok := r.task.(Streamer)
	red, isReducer := r.o.Comm.(models.Reducer)
	if !ok || !isReducer || r.o.BucketBytes <= 0 || !r.g.many() {
		return nil
	}
	if _, f32 := r.opt.Params().All()[0].Grad.Data().([]float32); !f32 {
		return nil
	}
	gs, err := models.NewGradStream(r.opt.Params(), red, r.o.BucketBytes)
	if err != nil {
		return err
	}
	s.Stream(gs)
	r.stream = gs
	r.o.Logf("gradients summed over the ranks during the backward pass, in buckets of %.3g MB (-mpi-bucket-mb)", float64(r.o.BucketBytes)/1e6)
	return nil
}

// commWait returns the time this rank has waited for gradient sums: the
// whole allreduce without a stream, what the backward pass did not hide
// with one.
func (r *run) commWait() time.Duration {
	if r.stream != nil {
		return r.stream.Stats().Wait
	}
	return r.g.wait
}
