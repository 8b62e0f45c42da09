package cli

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/mpi"
	"github.com/attend-go/attend/pipeline/trainloop"
)

// TestMPIJoin: the data-parallel flags' errors in a build without MPI:
// -mpi says how to rebuild, a process launched as one of several without
// -mpi is a usage error, and a plain run joins nothing.
func TestMPIJoin(t *testing.T) {
	if mpi.Built {
		t.Skip("built with -tags mpi: Join would start MPI")
	}
	for _, tc := range []struct {
		name     string
		args     []string
		size     string
		want     string
		usage    bool
		notBuilt bool
	}{
		{"plain", nil, "", "", false, false},
		{"asked without the binding", []string{"-mpi"}, "", "go build -tags mpi", false, true},
		{"launched without -mpi", nil, "4", "one of 4 processes: add -mpi", true, false},
		{"negative timeout", []string{"-mpi", "-mpi-timeout", "-1s"}, "", "-mpi-timeout -1s", true, false},
		{"negative bucket", []string{"-mpi", "-mpi-bucket-mb", "-1"}, "", "-mpi-bucket-mb -1", true, false},
		{"NaN bucket", []string{"-mpi", "-mpi-bucket-mb", "NaN"}, "", "-mpi-bucket-mb NaN", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("OMPI_COMM_WORLD_SIZE", tc.size)
			fs := flag.NewFlagSet("train", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			m := MPIFlags(fs)
			m.BucketFlag(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			var s trainloop.Setup
			err := m.Join(&s)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Join: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Join: %v, want an error saying %q", err, tc.want)
			case errors.Is(err, ErrUsage) != tc.usage || errors.Is(err, mpi.ErrNotBuilt) != tc.notBuilt:
				t.Fatalf("Join: %v: usage error %v, want %v", err, errors.Is(err, ErrUsage), tc.usage)
			}
			if s.Comm != nil || !m.Lead() {
				t.Errorf("Join gave a Comm (%v) or a process that does not lead", s.Comm)
			}
			if got := m.End(err, "asr train", io.Discard); got != err {
				t.Errorf("End(%v) = %v", err, got)
			}
		})
	}
}
