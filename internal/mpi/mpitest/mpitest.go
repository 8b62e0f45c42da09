// Package mpitest runs a test binary's helper under mpirun, for the tests
// of the mpi build: the test re-executes its own binary as N ranks, each
// running one named test function, and reads what they printed.
package mpitest

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// HelperEnv is set (to "1") in the ranks' environment: a helper test
// skips without it.
const HelperEnv = "ATTEND_MPI_HELPER"

// Command returns the mpirun command that runs the current test binary's
// test named run (a -test.run pattern) as np ranks with env added to
// their environment, each rank with GOMAXPROCS threads (0: left alone).
// It skips t, saying why, where mpirun is not installed. mpirun may
// oversubscribe the cores, and may run as root (CI does).
func Command(ctx context.Context, t testing.TB, np, threads int, run string, env ...string) *exec.Cmd {
	t.Helper()
	mpirun, err := exec.LookPath("mpirun")
	if err != nil {
		t.Skip("mpirun is not installed (Debian: apt-get install openmpi-bin libopenmpi-dev): skipping the multi-process test")
	}
	args := []string{"--oversubscribe", "-np", strconv.Itoa(np), "-x", HelperEnv + "=1"}
	if threads > 0 {
		args = append(args, "-x", "GOMAXPROCS="+strconv.Itoa(threads))
	}
	for _, e := range env {
		args = append(args, "-x", e)
	}
	args = append(args, os.Args[0], "-test.run", run, "-test.count=1", "-test.v")
	cmd := exec.CommandContext(ctx, mpirun, args...)
	cmd.Env = append(os.Environ(), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// Helper reports whether this process is a rank started by Command; a
// helper test returns at once (skipping) when it is not.
func Helper(t testing.TB) bool {
	t.Helper()
	if os.Getenv(HelperEnv) != "1" {
		t.Skip("a rank of an mpirun test, run by the test that launches it")
		return false
	}
	return true
}
