// Package mpi is the message-passing engine of data-parallel training: a
// thin cgo binding of the few MPI calls attend needs (Init, the rank and
// size of MPI_COMM_WORLD, Allreduce with MPI_SUM, blocking and not
// (Iallreduce, Testall, Waitall), Bcast, Abort, Finalize), over Open MPI
// or MPICH.
//
// # Builds
//
// The binding is compiled only with the mpi build tag (cgo and the MPI
// development files: Debian's libopenmpi-dev, or libmpich-dev, found
// through pkg-config's "mpi"):
//
//	go build -tags mpi ./cmd/asr
//
// The default build stays pure Go (CGO_ENABLED=0 works): there Init
// returns ErrNotBuilt, whose message says how to build with MPI, and
// Launched still reports a process that an MPI launcher started, so that
// a program started by mpirun without the binding fails instead of
// training N unrelated copies of one run.
//
// # Threads
//
// Go moves goroutines between operating-system threads, so Init asks for
// MPI_THREAD_SERIALIZED (any thread may call MPI, one at a time) and every
// call here holds a mutex; a library that gives less fails Init.
//
// # Failure
//
// MPI has no recovery from a lost rank: a collective waits for ranks that
// will never come. mpirun (and srun, and the MPI Operator's launcher) end
// the whole job when one rank exits, so a rank that fails must exit, never
// wait: Abort ends every rank of the job. What is left is a rank that
// stalls without exiting (a hung machine); the training loop bounds each
// collective with a watchdog for that (trainloop.Options.CommTimeout).
package mpi
