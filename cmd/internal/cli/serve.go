package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/attend-go/attend/pipeline/server"
)

// Serve holds the flags both "serve" commands share: where to listen,
// how much work to take, and the limits of a request.
type Serve struct {
	Addr    string
	Jobs    int
	Queue   int
	MaxMB   float64
	Timeout time.Duration
	Quiet   bool
	Check   bool
}

// Register adds the flags to fs; addr is the tool's default address.
func (s *Serve) Register(fs *flag.FlagSet, addr string) {
	fs.StringVar(&s.Addr, "addr", addr, "listen on this `host:port`; a non-loopback host opens the server to the network")
	fs.IntVar(&s.Jobs, "j", 0, "requests worked on at once (default: the number of cores)")
	fs.IntVar(&s.Queue, "queue", -1, fmt.Sprintf("requests that may wait for a worker before the server answers 429 (-1: %d per job)", server.DefaultQueue))
	fs.Float64Var(&s.MaxMB, "max-mb", float64(server.DefaultMaxBytes>>20), "largest upload in `MiB`")
	fs.DurationVar(&s.Timeout, "timeout", server.DefaultTimeout, "longest a request may take, waiting included")
	fs.BoolVar(&s.Quiet, "quiet", false, "do not log each request to stderr")
	fs.BoolVar(&s.Check, "check", false, "set everything up, listen, print the address and exit without serving")
}

// Options checks the flags and returns the server's options.
func (s *Serve) Options(stderr io.Writer) (server.Options, error) {
	switch {
	case s.Jobs < 0:
		return server.Options{}, Usagef("-j %d: want at least 1 (or 0 for the number of cores)", s.Jobs)
	case s.Queue < -1:
		return server.Options{}, Usagef("-queue %d: want 0 or more (or -1 for the default)", s.Queue)
	case !(s.MaxMB > 0) || s.MaxMB > 1<<20:
		return server.Options{}, Usagef("-max-mb %v: want a size in (0, 1048576] MiB", s.MaxMB)
	case s.Timeout <= 0:
		return server.Options{}, Usagef("-timeout %v: want a positive duration", s.Timeout)
	}
	if _, _, err := net.SplitHostPort(s.Addr); err != nil {
		return server.Options{}, Usagef("-addr %q: want host:port (%v)", s.Addr, err)
	}
	o := server.Options{Jobs: s.Jobs, Queue: s.Queue, MaxBytes: int64(s.MaxMB * (1 << 20)), Timeout: s.Timeout}
	switch s.Queue {
	case -1:
		o.Queue = 0 // the server's default
	case 0:
		o.Queue = -1 // none wait
	}
	if !s.Quiet {
		o.Log = stderr
	}
	return o, nil
}

// Run serves srv on -addr until SIGINT or SIGTERM, then finishes the
// requests in flight and returns; with -check it returns once listening.
func (s *Serve) Run(tool string, srv *server.Server, stdout, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if s.Check {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		cancel()
	}
	o := srv.Options()
	err := srv.ListenAndServe(ctx, s.Addr, func(a net.Addr) {
		fmt.Fprintf(stderr, "%s: serving http://%s/ (%d jobs, %d waiting, uploads up to %.4g MiB, %v a request)\n",
			tool, a, o.Jobs, o.Queue, float64(o.MaxBytes)/(1<<20), o.Timeout)
		if s.Check {
			fmt.Fprintf(stdout, "http://%s/\n", a)
		} else {
			fmt.Fprintf(stderr, "%s: open http://%s/ in a browser; Ctrl-C (SIGINT) or SIGTERM stops after the requests in flight\n", tool, a)
		}
	})
	if err == nil && !s.Check {
		fmt.Fprintf(stderr, "%s: stopped\n", tool)
	}
	return err
}
