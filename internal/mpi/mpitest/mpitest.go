// Package mpitest runs a test binary's helper under mpirun, for the tests
// of the mpi build: the test re-executes its own binary as N ranks, each
// running one named test function, and reads what they printed.
package mpitest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
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

// PrintPID prints the line by which Run learns a rank's process id.
func PrintPID(rank int) { fmt.Printf("rank %d pid %d\n", rank, os.Getpid()) }

// Result is what Run saw of a job.
type Result struct {
	Output string        // the ranks' standard output and mpirun's
	Stderr string        // their standard error
	Err    error         // mpirun's exit
	Ended  time.Duration // with kill: from kill's return to the job's end
}

// Run runs cmd (from Command) to its end. With kill, it calls kill (on
// its own goroutine) with the ranks' process ids (rank → pid, from the
// lines of PrintPID) once all np have printed theirs, and measures how
// long the job then takes to end.
func Run(t testing.TB, cmd *exec.Cmd, np int, kill func(pids map[int]int)) Result {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids := map[int]int{}
	var text strings.Builder
	killed := make(chan time.Time, 1)
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		text.WriteString(line + "\n")
		var rank, pid int
		if n, _ := fmt.Sscanf(line, "rank %d pid %d", &rank, &pid); n == 2 {
			pids[rank] = pid
			if kill != nil && len(pids) == np {
				go func() {
					kill(pids)
					killed <- time.Now()
				}()
			}
		}
	}
	r := Result{Err: cmd.Wait(), Output: text.String(), Stderr: stderr.String()}
	if kill != nil {
		select {
		case at := <-killed:
			r.Ended = time.Since(at)
		default:
			t.Fatalf("the job ended before a rank was killed: %v\n%s%s", r.Err, r.Output, r.Stderr)
		}
	}
	return r
}

// WaitFor polls for path to exist, failing t after limit.
func WaitFor(t testing.TB, path string, limit time.Duration) {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Errorf("%s did not appear within %v", path, limit)
}

// LastLines returns the last n lines of s.
func LastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
