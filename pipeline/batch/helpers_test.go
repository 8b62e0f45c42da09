package batch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeInputs returns n inputs named in/0000.wav … below the root "in";
// the files need not exist, since fake processors do not open them.
func fakeInputs(n int, bad ...int) []Input {
	isBad := map[int]bool{}
	for _, b := range bad {
		isBad[b] = true
	}
	ins := make([]Input, n)
	for i := range ins {
		name := fmt.Sprintf("%04d.wav", i)
		if isBad[i] {
			name = fmt.Sprintf("%04d-bad.wav", i)
		}
		ins[i] = Input{Path: filepath.Join("in", name), Root: "in"}
	}
	return ins
}

// errBad is what fakeProcess fails with.
var errBad = errors.New("unreadable")

// fakeProcess succeeds with "text of PATH", except for names containing
// "bad".
func fakeProcess(_ context.Context, in Input) (Result, error) {
	if strings.Contains(in.Path, "bad") {
		return Result{}, fmt.Errorf("%s: %w", in.Path, errBad)
	}
	return Result{Text: "text of " + in.Path, Value: map[string]string{"path": in.Path}}, nil
}

// readOutput decodes a combined output, failing the test on anything but
// complete records.
func readOutput(t *testing.T, path, format string) []Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []Record
	_, tail, err := scan(bytes.NewReader(data), codecFor(format), path, func(_ []byte, r *Record) error {
		recs = append(recs, *r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if tail != 0 {
		t.Fatalf("%s ends in an incomplete record of %d bytes", path, tail)
	}
	return recs
}

// checkExactlyOnce fails unless recs hold exactly one record per input.
func checkExactlyOnce(t *testing.T, recs []Record, inputs []Input) {
	t.Helper()
	count := map[string]int{}
	for _, r := range recs {
		count[r.Path]++
	}
	for _, in := range inputs {
		switch n := count[in.Path]; n {
		case 1:
		case 0:
			t.Errorf("%s: no record", in.Path)
		default:
			t.Errorf("%s: %d records", in.Path, n)
		}
		delete(count, in.Path)
	}
	for p := range count {
		t.Errorf("record for %s, which is no input", p)
	}
}

// paths returns the paths of records in order.
func paths(recs []Record) []string {
	var ps []string
	for _, r := range recs {
		ps = append(ps, r.Path)
	}
	return ps
}
