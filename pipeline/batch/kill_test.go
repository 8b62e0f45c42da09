//go:build unix

package batch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The kill-and-resume tests run this test binary again as a child that
// does a batch (childMain), and kill or interrupt it.
const (
	envChild  = "BATCH_TEST_CHILD"  // output path: run as the child
	envFormat = "BATCH_TEST_FORMAT" // jsonl, tsv or csv
	envInputs = "BATCH_TEST_INPUTS" // number of inputs
	envSlow   = "BATCH_TEST_SLOW"   // mean processing time per input
)

func TestMain(m *testing.M) {
	if out := os.Getenv(envChild); out != "" {
		os.Exit(childMain(out))
	}
	os.Exit(m.Run())
}

// childInputs are the inputs of the child's batch: every 17th fails.
func childInputs(n int) []Input {
	var bad []int
	for i := 5; i < n; i += 17 {
		bad = append(bad, i)
	}
	return fakeInputs(n, bad...)
}

// watched is the input whose start the child announces on stderr: it is
// among the first four, and takes 383 ms with BATCH_TEST_SLOW=200ms.
const watched = "in/0002.wav"

// childMain is the child: a resumed batch over fake inputs that take a
// pseudo-random time each, exiting as a command would: 0 done, 1 some
// failed, 130 interrupted, 2 anything else.
func childMain(out string) int {
	n, _ := strconv.Atoi(os.Getenv(envInputs))
	slow, _ := time.ParseDuration(os.Getenv(envSlow))
	ctx, abort, stop := WithSignals(context.Background())
	defer stop()
	proc := func(ctx context.Context, in Input) (Result, error) {
		if in.Path == watched {
			fmt.Fprintln(os.Stderr, "started", in.Path)
		}
		h := fnv.New64a()
		h.Write([]byte(in.Path))
		d := time.Duration(h.Sum64()%2000) * slow / 1000 // 0 to 2× slow
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
		return fakeProcess(ctx, in)
	}
	_, err := Run(ctx, childInputs(n), Shared(proc), &Options{
		Jobs: 4, Output: out, Format: os.Getenv(envFormat), Resume: true,
		Abort: abort, SyncEvery: time.Millisecond, Model: "fake", Name: "child", Stderr: os.Stderr,
	})
	switch {
	case err == nil:
		return 0
	case errors.Is(err, ErrFailed):
		return 1
	case errors.Is(err, ErrInterrupted):
		return ExitInterrupted
	}
	fmt.Fprintln(os.Stderr, err)
	return 2
}

// child is a started child process and the lines of its stderr.
type child struct {
	cmd   *exec.Cmd
	lines chan string // closed when the child's stderr closes
	log   []string    // the lines read so far
}

func startChild(t *testing.T, out, format string, inputs int, slow time.Duration) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"="+out, envFormat+"="+format,
		envInputs+"="+strconv.Itoa(inputs), envSlow+"="+slow.String())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, lines: make(chan string, 1024)}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	return c
}

// waitFor reads the child's stderr up to a line containing s.
func (c *child) waitFor(t *testing.T, s string) {
	t.Helper()
	for line := range c.lines {
		c.log = append(c.log, line)
		if strings.Contains(line, s) {
			return
		}
	}
	t.Fatalf("the child ended without printing %q; it printed:\n%s", s, strings.Join(c.log, "\n"))
}

// exitCode reads the rest of the child's stderr and waits for it; -1
// means killed by a signal.
func (c *child) exitCode(t *testing.T) int {
	t.Helper()
	for line := range c.lines {
		c.log = append(c.log, line)
	}
	err := c.cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return 0
}

// checkPrefix fails unless out is complete records, each path at most
// once, possibly followed by an incomplete one: what a kill may leave.
func checkPrefix(t *testing.T, out, format string) int {
	t.Helper()
	f, err := os.Open(out)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	_, _, err = scan(f, codecFor(format), out, func(_ []byte, r *Record) error {
		if seen[r.Path] {
			return fmt.Errorf("%s: two records", r.Path)
		}
		seen[r.Path] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return len(seen)
}

// TestKillAndResume kills a batch with SIGKILL at random moments (seeded)
// and resumes it until it completes: the output must end with exactly one
// complete record per input. BATCH_KILL_ROUNDS sets the number of rounds
// (default 3), BATCH_KILL_SEED the seed.
func TestKillAndResume(t *testing.T) {
	rounds := envInt(t, "BATCH_KILL_ROUNDS", 3)
	seed := envInt(t, "BATCH_KILL_SEED", 1)
	const inputs, slow = 300, time.Millisecond
	formats := []string{FormatJSONL, FormatTSV, FormatCSV}
	kills, partial := 0, 0
	for round := range rounds {
		rng := rand.New(rand.NewPCG(uint64(seed), uint64(round)))
		format := formats[round%len(formats)]
		out := filepath.Join(t.TempDir(), "results."+format)
		for attempt := 0; ; attempt++ {
			c := startChild(t, out, format, inputs, slow)
			if attempt < 2+rng.IntN(5) { // 2 to 6 kills, then let it finish
				time.Sleep(time.Duration(rng.Int64N(int64(120 * time.Millisecond))))
				if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				c.exitCode(t)
				kills++
				if data, err := os.ReadFile(out); err == nil && len(data) > 0 && data[len(data)-1] != '\n' {
					partial++
				}
				n := checkPrefix(t, out, format)
				if testing.Verbose() {
					t.Logf("round %d: killed with %d records written", round, n)
				}
				continue
			}
			if code := c.exitCode(t); code != 1 { // some inputs always fail
				t.Fatalf("round %d (seed %d): the last run exited %d, want 1", round, seed, code)
			}
			break
		}
		checkExactlyOnce(t, readOutput(t, out, format), childInputs(inputs))
	}
	t.Logf("%d rounds, %d kills (%d left an incomplete last record), seed %d: exactly one record per input every time", rounds, kills, partial, seed)
}

// TestInterruptExitsCleanly sends SIGINT to a batch: it must stop, write
// only complete records and exit 130. After one interrupt the inputs in
// flight finish; a second abandons them. A resumed run then finishes the
// job. Inputs take 0 to 400 ms each (by the hash of their name); the
// interrupts come while the watched input (383 ms) is in flight.
func TestInterruptExitsCleanly(t *testing.T) {
	tests := []struct {
		name    string
		signals int
	}{
		{"one interrupt finishes the inputs in flight", 1},
		{"a second interrupt abandons them", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "results.jsonl")
			const inputs = 200
			c := startChild(t, out, FormatJSONL, inputs, 200*time.Millisecond)
			c.waitFor(t, "started "+watched)
			for i := range tc.signals {
				if i > 0 {
					c.waitFor(t, "interrupted: no new inputs")
				}
				if err := c.cmd.Process.Signal(syscall.SIGINT); err != nil {
					t.Fatal(err)
				}
			}
			if code := c.exitCode(t); code != ExitInterrupted {
				t.Fatalf("exit status %d, want %d; stderr:\n%s", code, ExitInterrupted, strings.Join(c.log, "\n"))
			}
			summary := c.log[len(c.log)-1]
			if abandoned := strings.Contains(summary, "abandoned"); abandoned != (tc.signals == 2) || !strings.Contains(summary, "not started") {
				t.Errorf("summary %q", summary)
			}
			recs := readOutput(t, out, FormatJSONL) // complete records only
			if slices.Contains(paths(recs), watched) != (tc.signals == 1) {
				t.Errorf("records %v: %s finished %v, want %v", paths(recs), watched, !(tc.signals == 1), tc.signals == 1)
			}
			c = startChild(t, out, FormatJSONL, inputs, 0)
			if code := c.exitCode(t); code != 1 {
				t.Fatalf("resumed run exited %d, want 1", code)
			}
			checkExactlyOnce(t, readOutput(t, out, FormatJSONL), childInputs(inputs))
		})
	}
}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s=%q: not an integer", name, s)
	}
	return v
}
