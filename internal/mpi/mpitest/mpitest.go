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
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/attend-go/attend/internal/mpi"
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

// Env names of the training tests' ranks (RunTrain, Rank).
const (
	DirEnv    = "ATTEND_MPI_DIR"    // the run's output directory
	ResumeEnv = "ATTEND_MPI_RESUME" // "true": resume it
)

// Train is what RunTrain saw: the run's directory, rank 0's train.log
// (after a successful run) and mpirun's result.
type Train struct {
	Dir, Log string
	Result
}

// RunTrain runs the test named run (a training rank: Rank) as np ranks
// of one thread over dir, resuming with resume. With kill (see Run) it
// returns what mpirun did; without, it fails t unless the job succeeds
// and reads dir/train.log.
func RunTrain(t testing.TB, run, dir string, np int, resume bool, kill func(pids map[int]int)) Train {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := Command(ctx, t, np, 1, "^"+run+"$", DirEnv+"="+dir, ResumeEnv+"="+strconv.FormatBool(resume))
	r := Train{Dir: dir, Result: Run(t, cmd, np, kill)}
	if kill != nil {
		return r
	}
	if r.Err != nil {
		t.Fatalf("mpirun: %v\n%s%s", r.Err, r.Output, r.Stderr)
	}
	log, err := os.ReadFile(filepath.Join(dir, "train.log"))
	if err != nil {
		t.Fatal(err)
	}
	r.Log = string(log)
	return r
}

// Rank is the body of a training rank started by RunTrain: it joins the
// job (mpi.Init), prints its process id (PrintPID), bounds its waits to a
// minute, and runs train with the Comm, the output directory and whether
// to resume. A failing train aborts the job, as the commands do.
func Rank(t testing.TB, train func(c *mpi.Comm, dir string, resume bool) error) {
	t.Helper()
	if !Helper(t) {
		return
	}
	c, err := mpi.Init()
	if err != nil {
		t.Fatal(err)
	}
	PrintPID(c.Rank())
	c.SetStallTimeout(time.Minute)
	if err := train(c, os.Getenv(DirEnv), os.Getenv(ResumeEnv) == "true"); err != nil {
		fmt.Fprintf(os.Stderr, "rank %d: %v\n", c.Rank(), err)
		c.Abort(1)
	}
	if err := c.Finalize(); err != nil {
		t.Fatal(err)
	}
}
