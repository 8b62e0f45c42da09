package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
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
	// APIKey is -api-key, else $ATTEND_API_KEY (APIKeyEnv).
	APIKey string
	// AllowOrigins is -allow-origin, comma-separated.
	AllowOrigins string
}

// APIKeyEnv names the environment variable that holds the server's API
// key when -api-key is not given (a key on the command line shows in ps).
const APIKeyEnv = "ATTEND_API_KEY"

// Register adds the flags to fs; addr is the tool's default address.
func (s *Serve) Register(fs *flag.FlagSet, addr string) {
	fs.StringVar(&s.Addr, "addr", addr, "listen on this `host:port`; a non-loopback host opens the server to the network")
	fs.IntVar(&s.Jobs, "j", 0, "requests worked on at once (default: the number of cores)")
	fs.IntVar(&s.Queue, "queue", -1, fmt.Sprintf("requests that may wait for a worker before the server answers 429 (-1: %d per job)", server.DefaultQueue))
	fs.Float64Var(&s.MaxMB, "max-mb", float64(server.DefaultMaxBytes>>20), "largest upload in `MiB`")
	fs.DurationVar(&s.Timeout, "timeout", server.DefaultTimeout, "longest a request may take, waiting included")
	fs.BoolVar(&s.Quiet, "quiet", false, "do not log each request to stderr")
	fs.BoolVar(&s.Check, "check", false, "set everything up, listen, print the address and exit without serving")
	fs.StringVar(&s.APIKey, "api-key", "", "require this `key` of API clients (\"Authorization: Bearer KEY\"; the page asks for it) (default $"+APIKeyEnv+")")
	fs.StringVar(&s.AllowOrigins, "allow-origin", "", "let the web pages of these comma-separated `origins` (https://host[:port], or *) call the API; others are refused")
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
	o := server.Options{Jobs: s.Jobs, Queue: s.Queue, MaxBytes: int64(s.MaxMB * (1 << 20)), Timeout: s.Timeout, APIKey: s.APIKey}
	if o.APIKey == "" {
		o.APIKey = strings.TrimSpace(os.Getenv(APIKeyEnv))
	}
	for _, origin := range strings.Split(s.AllowOrigins, ",") {
		if origin = strings.TrimRight(strings.TrimSpace(origin), "/"); origin == "" {
			continue
		}
		if u, err := url.Parse(origin); origin != "*" && (err != nil || u.Scheme == "" || u.Host == "" || u.Path != "") {
			return server.Options{}, Usagef("-allow-origin %q: want scheme://host[:port], as a browser's Origin header, or *", origin)
		}
		o.AllowOrigins = append(o.AllowOrigins, origin)
	}
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
// requests in flight and returns; a second signal cuts that short. With
// -check it returns once listening.
func (s *Serve) Run(tool string, srv *server.Server, stdout, stderr io.Writer) error {
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if s.Check {
		cancel()
	}
	served := make(chan struct{})
	defer close(served)
	go watchSignals(sig, served, cancel, srv.Abort, tool, stderr)
	o := srv.Options()
	err := srv.ListenAndServe(ctx, s.Addr, func(a net.Addr) {
		fmt.Fprintf(stderr, "%s: serving http://%s/ (%d jobs, %d waiting, uploads up to %.4g MiB, %v a request)\n",
			tool, a, o.Jobs, o.Queue, float64(o.MaxBytes)/(1<<20), o.Timeout)
		if w := exposureWarning(a, o.APIKey); w != "" {
			fmt.Fprintf(stderr, "%s: warning: %s\n", tool, w)
		}
		if s.Check {
			fmt.Fprintf(stdout, "http://%s/\n", a)
		} else {
			fmt.Fprintf(stderr, "%s: open http://%s/ in a browser; Ctrl-C (SIGINT) or SIGTERM stops after the requests in flight, a second one at once\n", tool, a)
		}
	})
	if err == nil && !s.Check {
		fmt.Fprintf(stderr, "%s: stopped\n", tool)
	}
	return err
}

// watchSignals turns the first signal into a graceful stop (cancel) and
// a second into abort, until served is closed.
func watchSignals(sig <-chan os.Signal, served <-chan struct{}, cancel, abort func(), tool string, stderr io.Writer) {
	select {
	case <-sig:
		fmt.Fprintf(stderr, "%s: stopping after the requests in flight; signal again to stop now\n", tool)
		cancel()
	case <-served:
		return
	}
	select {
	case <-sig:
		fmt.Fprintf(stderr, "%s: stopping now\n", tool)
		abort()
	case <-served:
	}
}

// exposureWarning is the warning for a server listening on addr, a
// non-loopback address, with no API key: anyone who can reach it may
// use it ("" when on loopback or with a key).
func exposureWarning(addr net.Addr, key string) string {
	tcp, ok := addr.(*net.TCPAddr)
	if key != "" || !ok || tcp.IP.IsLoopback() {
		return ""
	}
	return fmt.Sprintf("listening on %s, open to the network, with no API key: anyone who can reach it may use it; set -api-key or $%s", tcp, APIKeyEnv)
}
