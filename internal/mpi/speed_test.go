//go:build mpi && cgo

package mpi_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/attend-go/attend/internal/mpi"
	"github.com/attend-go/attend/internal/mpi/mpitest"
)

// TestAllreduceSpeed times MPI_Allreduce of a gradient of the default
// speech model (9.4 M float32) and of one 10× larger between
// ATTEND_MPI_SPEED ranks of this machine (set it, e.g. 2, to run): the
// numbers of docs/training-mpi.md's scaling model.
func TestAllreduceSpeed(t *testing.T) {
	np, _ := strconv.Atoi(os.Getenv("ATTEND_MPI_SPEED"))
	if np < 2 {
		t.Skip("set ATTEND_MPI_SPEED=N (N ≥ 2 ranks) to time allreduces")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := mpitest.Command(ctx, t, np, 1, "^TestAllreduceSpeedRank$").CombinedOutput()
	if err != nil {
		t.Fatalf("mpirun: %v\n%s", err, out)
	}
	t.Logf("\n%s", out)
}

// TestAllreduceSpeedRank is one rank of TestAllreduceSpeed.
func TestAllreduceSpeedRank(t *testing.T) {
	mpitest.Helper(t)
	c, err := mpi.Init()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Finalize()
	for _, n := range []int{9_400_000, 94_000_000} {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(i%7) * 1e-3
		}
		const rounds = 5
		if err := c.AllreduceSum(x); err != nil { // warm-up
			t.Fatal(err)
		}
		start := time.Now()
		for range rounds {
			if err := c.AllreduceSum(x); err != nil {
				t.Fatal(err)
			}
		}
		el := time.Since(start) / rounds
		if c.Rank() == 0 {
			fmt.Printf("allreduce of %d float32 (%.1f MB) over %d ranks: %.1f ms, %.2f GB/s algorithm bandwidth\n",
				n, float64(4*n)/1e6, c.Size(), float64(el.Microseconds())/1e3, float64(4*n)/el.Seconds()/1e9)
		}
	}
}
