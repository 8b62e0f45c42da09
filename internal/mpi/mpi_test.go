//go:build mpi && cgo

package mpi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/attend-go/attend/internal/mpi"
	"github.com/attend-go/attend/internal/mpi/mpitest"
)

// TestCollectives runs TestCollectivesRank as three ranks.
func TestCollectives(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := mpitest.Command(ctx, t, 3, 1, "^TestCollectivesRank$").CombinedOutput()
	if err != nil {
		t.Fatalf("mpirun: %v\n%s", err, out)
	}
	if got := strings.Count(string(out), "rank ok"); got != 3 {
		t.Fatalf("%d of 3 ranks report success:\n%s", got, out)
	}
}

// TestCollectivesRank is one rank of TestCollectives: Allreduce and Bcast
// of both widths, checked on every rank.
func TestCollectivesRank(t *testing.T) {
	mpitest.Helper(t)
	c, err := mpi.Init()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Finalize()
	r, n := c.Rank(), c.Size()
	x := []float32{float32(r), 1, float32(10 * r)}
	y := []float64{float64(r) + 0.5, -1}
	if err := c.AllreduceSum(x); err != nil {
		t.Fatal(err)
	}
	if err := c.AllreduceSum64(y); err != nil {
		t.Fatal(err)
	}
	tri := float64(n * (n - 1) / 2)
	if x[0] != float32(tri) || x[1] != float32(n) || x[2] != float32(10*tri) || y[0] != tri+0.5*float64(n) || y[1] != -float64(n) {
		t.Fatalf("rank %d of %d: sums %v %v", r, n, x, y)
	}
	// Two sums in flight at once, advanced by TestAll, then waited for.
	u, v := []float32{float32(r), 2}, []float32{float32(3 * r)}
	if err := c.IallreduceSum(u); err != nil {
		t.Fatal(err)
	}
	if err := c.IallreduceSum(v); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TestAll(); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitAll(); err != nil {
		t.Fatal(err)
	}
	if done, err := c.TestAll(); !done || err != nil {
		t.Fatalf("rank %d: TestAll after WaitAll: %v %v", r, done, err)
	}
	if u[0] != float32(tri) || u[1] != float32(2*n) || v[0] != float32(3*tri) {
		t.Fatalf("rank %d of %d: non-blocking sums %v %v", r, n, u, v)
	}
	b, b64 := []float32{float32(r)}, []float64{float64(r)}
	if err := c.Bcast(b, n-1); err != nil {
		t.Fatal(err)
	}
	if err := c.Bcast64(b64, n-1); err != nil {
		t.Fatal(err)
	}
	if b[0] != float32(n-1) || b64[0] != float64(n-1) {
		t.Fatalf("rank %d: broadcast from %d gave %v %v", r, n-1, b, b64)
	}
	fmt.Printf("rank ok %d/%d\n", r, n)
}
