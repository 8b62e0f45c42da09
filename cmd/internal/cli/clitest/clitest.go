// Package clitest checks the machine output of the command-line tools in
// their tests, as a program reading it would see it: a command run with
// -json prints JSON Lines on standard output (one object a line, the
// result and nothing else) and no JSON on standard error, where its
// progress and logs go.
//
// Objects are the decoding of a line into map[string]any, so numbers are
// float64, arrays []any and objects map[string]any; Fields compares them
// with expected values that went through the same JSON round trip, so a
// test may write 342 for 342.0 and a struct or slice for an object or
// array.
package clitest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Want is what a command run with -json should print.
type Want struct {
	Objects int            // JSON objects on stdout
	Keys    []string       // every field of the last object
	Fields  map[string]any // fields of the last object whose values are known (Fields)
}

// Check checks a command run with -json that returned the exit status
// code and printed stdout and stderr: it must have succeeded and printed
// w (JSONLines, Keys, Fields). It returns the objects, for the checks of
// values known only roughly.
func Check(t testing.TB, code int, stdout, stderr string, w Want) []map[string]any {
	t.Helper()
	if code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, stderr)
	}
	objs := JSONLines(t, stdout, stderr)
	if len(objs) != w.Objects {
		t.Fatalf("%d JSON objects, want %d:\n%s", len(objs), w.Objects, stdout)
	}
	last := objs[len(objs)-1]
	Keys(t, last, w.Keys...)
	Fields(t, last, w.Fields)
	return objs
}

// JSONLines decodes stdout as JSON Lines, one object a line, failing the
// test when a line is not one JSON object or when a line of stderr is a
// JSON object or array.
func JSONLines(t testing.TB, stdout, stderr string) []map[string]any {
	t.Helper()
	for _, line := range strings.Split(stderr, "\n") {
		if l := strings.TrimSpace(line); (strings.HasPrefix(l, "{") || strings.HasPrefix(l, "[")) && json.Valid([]byte(l)) {
			t.Errorf("stderr holds JSON, which belongs on stdout: %s", l)
		}
	}
	if stdout == "" || !strings.HasSuffix(stdout, "\n") {
		t.Fatalf("stdout %q is not JSON Lines: empty, or the last line is not ended", stdout)
	}
	var objs []map[string]any
	for i, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil || obj == nil {
			t.Fatalf("stdout line %d is not one JSON object (%v): %s", i+1, err, line)
		}
		objs = append(objs, obj)
	}
	return objs
}

// Fields checks that obj has each field of want with want's value as it
// would decode from JSON; obj's other fields are not looked at.
func Fields(t testing.TB, obj map[string]any, want map[string]any) {
	t.Helper()
	data, err := json.Marshal(want)
	if err != nil {
		t.Fatalf("clitest: expected fields: %v", err)
	}
	var norm map[string]any
	if err := json.Unmarshal(data, &norm); err != nil {
		t.Fatalf("clitest: expected fields: %v", err)
	}
	for k, w := range norm {
		g, ok := obj[k]
		switch {
		case !ok:
			t.Errorf("field %q is missing; want %s", k, show(w))
		case !reflect.DeepEqual(g, w):
			t.Errorf("field %q is %s, want %s", k, show(g), show(w))
		}
	}
}

// Keys checks that obj has exactly the fields keys.
func Keys(t testing.TB, obj map[string]any, keys ...string) {
	t.Helper()
	var got []string
	for k := range obj {
		got = append(got, k)
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(keys))
	if !slices.Equal(got, want) {
		t.Errorf("fields %v, want %v", got, want)
	}
}

// show formats a decoded value as JSON for a failure message.
func show(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "?"
	}
	return strings.TrimSuffix(b.String(), "\n")
}
