package cli

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/attend-go/attend/internal/mpi"
	"github.com/attend-go/attend/pipeline/trainloop"
)

// MPI is the data-parallel flags of asr train and caption train: -mpi
// trains as one rank of the MPI job that mpirun (srun, the MPI Operator)
// started, -mpi-timeout bounds each wait for the other ranks, and
// -mpi-bucket-mb (BucketFlag, for a trainer that can) sizes the buckets
// of gradient summed during the backward pass.
type MPI struct {
	On       bool
	Timeout  time.Duration
	BucketMB float64
	comm     *mpi.Comm
}

// DefaultBucketMB is -mpi-bucket-mb's default.
const DefaultBucketMB = 4

// BucketFlag registers -mpi-bucket-mb on fs: a trainer whose task sums
// its gradient during the backward pass (trainloop.Streamer).
func (m *MPI) BucketFlag(fs *flag.FlagSet) {
	fs.Float64Var(&m.BucketMB, "mpi-bucket-mb", DefaultBucketMB, "with -mpi, sum the gradient over the ranks in buckets of about this many `MB` while the backward pass runs (0: in one buffer after it)")
}

// MPIFlags registers -mpi and -mpi-timeout on fs.
func MPIFlags(fs *flag.FlagSet) *MPI {
	m := &MPI{}
	fs.BoolVar(&m.On, "mpi", false, "train data-parallel as one rank of an MPI job (mpirun -np N): each rank trains 1/N of every batch, rank 0 writes the output (needs a build with -tags mpi)")
	fs.DurationVar(&m.Timeout, "mpi-timeout", 10*time.Minute, "with -mpi, end the job when a rank waits longer than this for the others' gradients (a hung machine)")
	return m
}

// Join starts MPI when -mpi asks for it and gives s its Comm. Without
// -mpi, a process that an MPI launcher started as one of several is a
// usage error: it would train one of N unrelated copies of a run into the
// same directory. Call End with the run's result.
func (m *MPI) Join(s *trainloop.Setup) error {
	if !m.On {
		if n := mpi.Launched(); n > 1 {
			return Usagef("started by an MPI launcher as one of %d processes: add -mpi to train data-parallel, or start one process", n)
		}
		return nil
	}
	if m.Timeout < 0 {
		return Usagef("-mpi-timeout %v: want 0 (no bound) or more", m.Timeout)
	}
	if !(m.BucketMB >= 0 && m.BucketMB <= 1<<20) {
		return Usagef("-mpi-bucket-mb %g: want 0 (one buffer after the backward pass) to %d", m.BucketMB, 1<<20)
	}
	s.BucketBytes = int(m.BucketMB * 1e6)
	c, err := mpi.Init()
	if err != nil {
		return fmt.Errorf("-mpi: %w", err)
	}
	c.SetStallTimeout(m.Timeout)
	m.comm, s.Comm = c, c
	return nil
}

// Lead reports whether this process prints the run's result: rank 0 of
// an MPI job, or a process without one.
func (m *MPI) Lead() bool { return m.comm == nil || m.comm.Rank() == 0 }

// End ends this process's part in the MPI job, if any. A run of several
// ranks that failed writes its error (prefixed with the tool's name and
// the rank) to stderr and aborts every rank of the job (MPI_Abort): the
// others may be waiting for this one in a collective that never ends. End
// then does not return. Otherwise it finalizes MPI and returns err.
func (m *MPI) End(err error, tool string, stderr io.Writer) error {
	if m.comm == nil {
		return err
	}
	if err != nil && m.comm.Size() > 1 {
		fmt.Fprintf(stderr, "%s: rank %d of %d: %v\n", tool, m.comm.Rank(), m.comm.Size(), err)
		m.comm.Abort(1)
	}
	if ferr := m.comm.Finalize(); err == nil {
		err = ferr
	}
	return err
}
