package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// The counts worked out by hand from the layer docs, so that a change in
// the Go models that breaks the comparison with PyTorch shows here.
//
//	decoder:  embed 30·64 + lstm (64+256)·1024 + 256·1024 + 1024
//	          + att 256·256 + 256·256 + 256 + 256 + out 512·30 + 30 = 739742
//	listener: per direction (In·1024 + 256·1024 + 1024), In = 80 then 1024,
//	          two directions: 2·(82944+262144) + 2·(1049600+262144) = 3313664
func TestRunCounts(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"totals", nil, []string{"PARAMS model=decoder trainable=739742", "PARAMS model=listener trainable=3313664"}},
		{"verbose", []string{"-v"}, []string{"dec.lstm.wx", "listener.l1.bwd.wh", "PARAMS model=listener trainable=3313664"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if err := run(tc.args, &out, &errOut); err != nil {
				t.Fatalf("run(%q): %v (stderr %q)", tc.args, err, errOut.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("run(%q) output lacks %q:\n%s", tc.args, w, out.String())
				}
			}
		})
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{{"extra"}, {"-nosuchflag"}} {
		var out, errOut bytes.Buffer
		if err := run(args, &out, &errOut); !errors.Is(err, errUsage) {
			t.Errorf("run(%q) = %v, want errUsage", args, err)
		}
		if errOut.Len() == 0 {
			t.Errorf("run(%q) wrote no message to stderr", args)
		}
	}
}
