package cli

import (
	"errors"
	"flag"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestWatchSignals(t *testing.T) {
	sig := make(chan os.Signal, 2)
	served := make(chan struct{})
	var cancels, aborts atomic.Int32
	var log strings.Builder
	finished := make(chan struct{})
	go func() {
		watchSignals(sig, served, func() { cancels.Add(1) }, func() { aborts.Add(1) }, "asr", &log)
		close(finished)
	}()
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 5 s", what)
			}
		}
	}
	sig <- os.Interrupt
	waitFor("the first signal cancels", func() bool { return cancels.Load() == 1 })
	if aborts.Load() != 0 {
		t.Fatal("the first signal aborted")
	}
	sig <- os.Interrupt
	waitFor("the second signal aborts", func() bool { return aborts.Load() == 1 })
	<-finished
	if !strings.Contains(log.String(), "signal again to stop now") {
		t.Errorf("log %q does not say a second signal stops at once", log.String())
	}
	// Once served, the watcher returns without a signal.
	done := make(chan struct{})
	go func() {
		watchSignals(make(chan os.Signal), served, func() {}, func() {}, "asr", io.Discard)
		close(done)
	}()
	close(served)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("watchSignals still running after the server stopped")
	}
}

func TestExposureWarning(t *testing.T) {
	for _, tc := range []struct {
		ip   string
		key  string
		warn bool
	}{
		{"127.0.0.1", "", false},
		{"::1", "", false},
		{"0.0.0.0", "", true},
		{"192.168.1.5", "", true},
		{"0.0.0.0", "k", false},
	} {
		got := exposureWarning(&net.TCPAddr{IP: net.ParseIP(tc.ip), Port: 8080}, tc.key)
		if (got != "") != tc.warn || tc.warn && !strings.Contains(got, APIKeyEnv) {
			t.Errorf("%s key %q: warning %q, want one: %v", tc.ip, tc.key, got, tc.warn)
		}
	}
}

func TestServeOptions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		env     string
		key     string
		origins []string
		usage   bool
	}{
		{name: "defaults"},
		{name: "key flag", args: []string{"-api-key", "a"}, env: "b", key: "a"},
		{name: "key from the environment", env: " b\n", key: "b"},
		{name: "origins", args: []string{"-allow-origin", "https://a.example, http://localhost:3000/"}, origins: []string{"https://a.example", "http://localhost:3000"}},
		{name: "any origin", args: []string{"-allow-origin", "*"}, origins: []string{"*"}},
		{name: "origin without scheme", args: []string{"-allow-origin", "a.example"}, usage: true},
		{name: "origin with a path", args: []string{"-allow-origin", "https://a.example/app"}, usage: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(APIKeyEnv, tc.env)
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			var s Serve
			s.Register(fs, "127.0.0.1:0")
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			o, err := s.Options(io.Discard)
			if tc.usage {
				if !errors.Is(err, ErrUsage) {
					t.Errorf("got %v, want a usage error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.APIKey != tc.key || !slices.Equal(o.AllowOrigins, tc.origins) {
				t.Errorf("key %q origins %q, want %q %q", o.APIKey, o.AllowOrigins, tc.key, tc.origins)
			}
		})
	}
}
