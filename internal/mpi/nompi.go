//go:build !mpi || !cgo

package mpi

import "time"

// Built reports whether this build has the MPI binding.
const Built = false

// Comm is the group of every process of the job (MPI_COMM_WORLD). In a
// build without the mpi tag no Comm can be made.
type Comm struct{}

// Init fails in a build without the mpi tag: ErrNotBuilt.
func Init() (*Comm, error) { return nil, ErrNotBuilt }

// Rank is 0.
func (c *Comm) Rank() int { return 0 }

// Size is 1.
func (c *Comm) Size() int { return 1 }

// AllreduceSum does nothing: one process holds the sum.
func (c *Comm) AllreduceSum(x []float32) error { return nil }

// AllreduceSum64 does nothing: one process holds the sum.
func (c *Comm) AllreduceSum64(x []float64) error { return nil }

// IallreduceSum does nothing: one process holds the sum.
func (c *Comm) IallreduceSum(x []float32) error { return nil }

// TestAll reports true: nothing is pending.
func (c *Comm) TestAll() (bool, error) { return true, nil }

// WaitAll does nothing.
func (c *Comm) WaitAll() error { return nil }

// Bcast does nothing.
func (c *Comm) Bcast(x []float32, root int) error { return nil }

// Bcast64 does nothing.
func (c *Comm) Bcast64(x []float64, root int) error { return nil }

// SetStallTimeout does nothing: there is no collective to wait in.
func (c *Comm) SetStallTimeout(d time.Duration) {}

// Abort does nothing.
func (c *Comm) Abort(code int) {}

// Finalize does nothing.
func (c *Comm) Finalize() error { return nil }
