package clitest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps the failures of a check instead of
// failing the test.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

// check runs f with a recorder in a goroutine of its own, so that Fatalf
// can end it, and returns the failures, joined.
func check(t *testing.T, f func(tb testing.TB)) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return strings.Join(r.failures, "; ")
}

func TestChecks(t *testing.T) {
	const two = `{"path":"a.wav","frames":342,"shape":[3,224,224],"existing":null}` + "\n" + `{"path":"b.wav","frames":7}` + "\n"
	tests := []struct {
		name string
		f    func(tb testing.TB)
		fail string // a failure message, "" for none
	}{
		{name: "fields", f: func(tb testing.TB) {
			objs := JSONLines(tb, two, "asr: 2 files\n")
			if len(objs) != 2 {
				tb.Errorf("%d objects", len(objs))
			}
			Fields(tb, objs[0], map[string]any{"path": "a.wav", "frames": 342, "shape": []int{3, 224, 224}, "existing": nil})
			Keys(tb, objs[1], "frames", "path")
		}},
		{name: "check", f: func(tb testing.TB) {
			if objs := Check(tb, 0, two, "", Want{Objects: 2, Keys: []string{"frames", "path"}, Fields: map[string]any{"path": "b.wav"}}); len(objs) != 2 {
				tb.Errorf("%d objects", len(objs))
			}
		}},
		{name: "failed run", f: func(tb testing.TB) { Check(tb, 1, "", "asr: nope.wav: no such file\n", Want{}) },
			fail: "exit 1\nstderr: asr: nope.wav: no such file"},
		{name: "object count", f: func(tb testing.TB) { Check(tb, 0, two, "", Want{Objects: 1}) },
			fail: "2 JSON objects, want 1"},
		{name: "wrong value", f: func(tb testing.TB) { Fields(tb, JSONLines(tb, two, "")[0], map[string]any{"frames": 341}) },
			fail: `field "frames" is 342, want 341`},
		{name: "missing field", f: func(tb testing.TB) { Fields(tb, JSONLines(tb, two, "")[1], map[string]any{"shape": nil}) },
			fail: `field "shape" is missing`},
		{name: "other fields", f: func(tb testing.TB) { Keys(tb, JSONLines(tb, two, "")[1], "path") },
			fail: "fields [frames path], want [path]"},
		{name: "text on stdout", f: func(tb testing.TB) { JSONLines(tb, "a.wav: 3.44 s\n", "") },
			fail: "stdout line 1 is not one JSON object"},
		{name: "two values on a line", f: func(tb testing.TB) { JSONLines(tb, `{"a":1} {"b":2}`+"\n", "") },
			fail: "stdout line 1 is not one JSON object"},
		{name: "an array", f: func(tb testing.TB) { JSONLines(tb, "[1]\n", "") },
			fail: "stdout line 1 is not one JSON object"},
		{name: "no newline", f: func(tb testing.TB) { JSONLines(tb, `{"a":1}`, "") },
			fail: "the last line is not ended"},
		{name: "JSON on stderr", f: func(tb testing.TB) { JSONLines(tb, two, "asr: done\n  {\"wer\": 0.1}\n") },
			fail: `stderr holds JSON, which belongs on stdout: {"wer": 0.1}`},
		{name: "braces in a log line", f: func(tb testing.TB) { JSONLines(tb, two, "config {Hidden:16}\n{not json}\n") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := check(t, tc.f)
			if tc.fail == "" && got != "" || !strings.Contains(got, tc.fail) {
				t.Errorf("failures %q, want %q", got, tc.fail)
			}
		})
	}
}
