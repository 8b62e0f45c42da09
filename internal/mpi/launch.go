package mpi

import (
	"errors"
	"os"
	"strconv"
)

// ErrNotBuilt is Init's error in a build without the mpi tag.
var ErrNotBuilt = errors.New("mpi: this program was built without MPI: rebuild it with cgo and the mpi build tag " +
	"(apt-get install libopenmpi-dev; go build -tags mpi ./cmd/asr ./cmd/caption) to train on several processes")

// launcherSize lists the environment variables by which launchers tell a
// process the size of its job: Open MPI's mpirun, PMIx (Open MPI 5,
// srun --mpi=pmix), and PMI-1/2 (MPICH's hydra, srun --mpi=pmi2).
var launcherSize = []string{"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"}

// Launched reports the number of processes of the job an MPI launcher
// started this process in (0 when none did, or the launcher is unknown).
// It needs no MPI library: a build without the binding uses it to refuse
// to run as one of several copies.
func Launched() int {
	for _, v := range launcherSize {
		if n, err := strconv.Atoi(os.Getenv(v)); err == nil && n > 0 {
			return n
		}
	}
	return 0
}
