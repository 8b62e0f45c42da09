//go:build mpi && cgo

package mpi

/*
#cgo pkg-config: mpi
#include <stdlib.h>
#include <mpi.h>

static int attend_init(int *provided) {
	int done = 0;
	MPI_Initialized(&done);
	if (done) {
		return MPI_Query_thread(provided);
	}
	return MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, provided);
}
static int attend_serialized(int provided) { return provided >= MPI_THREAD_SERIALIZED; }
static int attend_rank(int *r) { return MPI_Comm_rank(MPI_COMM_WORLD, r); }
static int attend_size(int *n) { return MPI_Comm_size(MPI_COMM_WORLD, n); }
static int attend_allreduce_f32(float *x, int n) {
	return MPI_Allreduce(MPI_IN_PLACE, x, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
static int attend_allreduce_f64(double *x, int n) {
	return MPI_Allreduce(MPI_IN_PLACE, x, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
static int attend_iallreduce_f32(float *x, int n, MPI_Request *req) {
	return MPI_Iallreduce(MPI_IN_PLACE, x, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, req);
}
static int attend_testall(int n, MPI_Request *reqs, int *done) {
	return MPI_Testall(n, reqs, done, MPI_STATUSES_IGNORE);
}
static int attend_waitall(int n, MPI_Request *reqs) {
	return MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
}
static int attend_bcast_f32(float *x, int n, int root) {
	return MPI_Bcast(x, n, MPI_FLOAT, root, MPI_COMM_WORLD);
}
static int attend_bcast_f64(double *x, int n, int root) {
	return MPI_Bcast(x, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
}
static void attend_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
static int attend_finalize(void) { return MPI_Finalize(); }
static int attend_error_string(int code, char *buf, int *n) { return MPI_Error_string(code, buf, n); }
static int attend_max_string(void) { return MPI_MAX_ERROR_STRING; }
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// Built reports whether this build has the MPI binding.
const Built = true

// Comm is the group of every process of the job (MPI_COMM_WORLD). Its
// methods are safe to call from any goroutine, one at a time (a mutex
// serializes them).
type Comm struct {
	mu         sync.Mutex
	rank, size int
	done       bool
	stall      time.Duration
	// The sums IallreduceSum started and WaitAll has not seen end, and
	// the pins that keep their buffers legal for MPI to hold.
	reqs []C.MPI_Request
	pins runtime.Pinner
}

// SetStallTimeout bounds how long an AllreduceSum may wait for the other
// ranks (0: no bound). Past it the rank writes why to standard error and
// exits with status 1; the launcher then ends the job. A collective
// cannot be cancelled, so exiting is the only way out of one whose peers
// hang without exiting (a frozen machine; a rank that dies is the
// launcher's to notice). Bcast has no bound: ranks wait there for rank 0's
// dev evaluation, which may be long.
func (c *Comm) SetStallTimeout(d time.Duration) { c.stall = d }

// watch arms the stall timeout for one collective; call the result when
// it returns.
func (c *Comm) watch(name string) (stop func() bool) {
	if c.stall <= 0 {
		return func() bool { return false }
	}
	t := time.AfterFunc(c.stall, func() {
		fmt.Fprintf(os.Stderr, "mpi: rank %d of %d: %s has waited %v for the other ranks: one of them is gone or hung; ending this rank, and with it the job\n",
			c.rank, c.size, name, c.stall)
		os.Exit(1)
	})
	return t.Stop
}

var (
	initOnce sync.Once
	world    *Comm
	initErr  error
)

// Init initializes MPI once per process (later calls return the same
// Comm) at MPI_THREAD_SERIALIZED. A process not started by a launcher is
// a job of one (MPI's singleton init).
func Init() (*Comm, error) {
	initOnce.Do(func() {
		var provided C.int
		if err := check("MPI_Init_thread", C.attend_init(&provided)); err != nil {
			initErr = err
			return
		}
		if C.attend_serialized(provided) == 0 {
			initErr = fmt.Errorf("mpi: the MPI library gives thread level %d, less than MPI_THREAD_SERIALIZED", int(provided))
			return
		}
		var r, n C.int
		if err := check("MPI_Comm_rank", C.attend_rank(&r)); err != nil {
			initErr = err
			return
		}
		if err := check("MPI_Comm_size", C.attend_size(&n)); err != nil {
			initErr = err
			return
		}
		world = &Comm{rank: int(r), size: int(n)}
	})
	return world, initErr
}

// Rank is this process's rank, 0 to Size−1.
func (c *Comm) Rank() int { return c.rank }

// Size is the number of processes of the job.
func (c *Comm) Size() int { return c.size }

// maxCount bounds the elements of one MPI call (its count is a C int).
const maxCount = 1 << 30

// AllreduceSum replaces x on every rank by the element-wise sum of every
// rank's x (MPI_Allreduce, MPI_SUM, in place). Every rank must call it
// with the same length. The order of the additions is the library's: for
// two ranks it is one addition, a + b = b + a exactly.
func (c *Comm) AllreduceSum(x []float32) error {
	defer c.watch("MPI_Allreduce")()
	return c.chunks("MPI_Allreduce", len(x), func(lo, n int) C.int {
		return C.attend_allreduce_f32((*C.float)(unsafe.Pointer(&x[lo])), C.int(n))
	})
}

// AllreduceSum64 is AllreduceSum for float64.
func (c *Comm) AllreduceSum64(x []float64) error {
	defer c.watch("MPI_Allreduce")()
	return c.chunks("MPI_Allreduce", len(x), func(lo, n int) C.int {
		return C.attend_allreduce_f64((*C.double)(unsafe.Pointer(&x[lo])), C.int(n))
	})
}

// IallreduceSum starts AllreduceSum of x (MPI_Iallreduce, MPI_SUM, in
// place) and returns at once: x belongs to MPI, which may read and write
// it at any time, until TestAll reports every started sum done or WaitAll
// returns. Every rank must start the same sums, of the same lengths, in
// the same order. The sum of each element is the one AllreduceSum gives
// over two ranks (a + b); over more, MPI's algorithm for the length
// picks the order of the additions.
//
// Open MPI advances a non-blocking collective only inside MPI calls of
// the process (no progress thread): a caller that wants the sum to move
// while it computes calls TestAll now and then.
func (c *Comm) IallreduceSum(x []float32) error {
	return c.chunks("MPI_Iallreduce", len(x), func(lo, n int) C.int {
		p := &x[lo]
		c.pins.Pin(p) // MPI holds the pointer past the call's return
		var req C.MPI_Request
		code := C.attend_iallreduce_f32((*C.float)(unsafe.Pointer(p)), C.int(n), &req)
		if code == 0 {
			c.reqs = append(c.reqs, req)
		}
		return code
	})
}

// TestAll lets the sums IallreduceSum started advance (MPI_Testall) and
// reports whether all of them are done; then their buffers are the
// caller's again.
func (c *Comm) TestAll() (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.reqs) == 0 {
		return true, nil
	}
	var done C.int
	if err := check("MPI_Testall", C.attend_testall(C.int(len(c.reqs)), &c.reqs[0], &done)); err != nil {
		return false, err
	}
	if done == 0 {
		return false, nil
	}
	c.reqs = c.reqs[:0]
	c.pins.Unpin()
	return true, nil
}

// WaitAll returns when every sum IallreduceSum started is done
// (MPI_Waitall), bounded like AllreduceSum by the stall timeout.
func (c *Comm) WaitAll() error {
	defer c.watch("MPI_Waitall")()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.reqs) == 0 {
		return nil
	}
	err := check("MPI_Waitall", C.attend_waitall(C.int(len(c.reqs)), &c.reqs[0]))
	c.reqs = c.reqs[:0]
	c.pins.Unpin()
	return err
}

// Bcast copies root's x into every rank's x (MPI_Bcast).
func (c *Comm) Bcast(x []float32, root int) error {
	return c.chunks("MPI_Bcast", len(x), func(lo, n int) C.int {
		return C.attend_bcast_f32((*C.float)(unsafe.Pointer(&x[lo])), C.int(n), C.int(root))
	})
}

// Bcast64 is Bcast for float64.
func (c *Comm) Bcast64(x []float64, root int) error {
	return c.chunks("MPI_Bcast", len(x), func(lo, n int) C.int {
		return C.attend_bcast_f64((*C.double)(unsafe.Pointer(&x[lo])), C.int(n), C.int(root))
	})
}

// chunks runs call over [0, n) in pieces of at most maxCount elements,
// holding the mutex.
func (c *Comm) chunks(name string, n int, call func(lo, n int) C.int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return fmt.Errorf("mpi: %s after Finalize", name)
	}
	for lo := 0; lo < n; lo += maxCount {
		if err := check(name, call(lo, min(maxCount, n-lo))); err != nil {
			return err
		}
	}
	return nil
}

// Abort ends every process of the job with exit code code
// (MPI_Abort); it does not return.
func (c *Comm) Abort(code int) {
	C.attend_abort(C.int(code))
}

// Finalize ends this process's part in the job (MPI_Finalize). Every rank
// calls it once, after its last collective.
func (c *Comm) Finalize() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return nil
	}
	c.done = true
	return check("MPI_Finalize", C.attend_finalize())
}

// check turns an MPI return code into an error naming the call.
func check(name string, code C.int) error {
	if code == 0 { // MPI_SUCCESS
		return nil
	}
	buf := make([]byte, int(C.attend_max_string()))
	var n C.int
	if C.attend_error_string(code, (*C.char)(unsafe.Pointer(&buf[0])), &n) != 0 {
		return fmt.Errorf("mpi: %s failed with code %d", name, int(code))
	}
	return fmt.Errorf("mpi: %s: %s", name, buf[:n])
}
