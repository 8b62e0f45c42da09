package main

import (
	"bytes"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// TestRunWritesReferences checks the file parity.py reads: every tensor it
// looks up is there with the shape it expects, and the references are
// finite and not all zero (a gradient that never reached a parameter would
// make the comparison vacuous).
func TestRunWritesReferences(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parity.safetensors")
	var out, errOut bytes.Buffer
	if err := run([]string{"-o", path}, &out, &errOut); err != nil {
		t.Fatalf("run: %v (stderr %q)", err, errOut.String())
	}
	f, err := safetensors.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		shape []int
	}{
		{"dec.embed.table", []int{decV, decE}},
		{"dec.lstm.wx", []int{decE + decD, 4 * decH}},
		{"grad.dec.att.v", []int{decA}},
		{"grad.dec.out.w", []int{decH + decD, decV}},
		{"dec.memory", []int{3, 9, decD}},
		{"dec.dec_in", []int{5, 3}},
		{"dec.loss", []int{1}},
		{"step.tokens", []int{3, 2}},
		{"step.logits", []int{3, 2, decV}},
		{"listener.l1.bwd.wx", []int{4 * lisH, 4 * lisH}},
		{"grad.listener.l0.fwd.wh", []int{lisH, 4 * lisH}},
		{"lis.x", []int{2, 9, lisI}},
		{"lis.y", []int{2, 5, 2 * lisH}},
		{"lis.loss", []int{1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ten, ok := f.Tensor(tc.name)
			if !ok {
				t.Fatalf("no tensor %q", tc.name)
			}
			if !slices.Equal(ten.Shape, tc.shape) {
				t.Fatalf("shape %v, want %v", ten.Shape, tc.shape)
			}
			nonzero := false
			for _, v := range ten.Data {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					t.Fatalf("holds %v", v)
				}
				nonzero = nonzero || v != 0
			}
			if !nonzero {
				t.Errorf("all zero")
			}
		})
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"-o"}, {"-o", "x", "extra"}, {"-nosuchflag"}} {
		var out, errOut bytes.Buffer
		if err := run(args, &out, &errOut); !errors.Is(err, errUsage) {
			t.Errorf("run(%q) = %v, want errUsage", args, err)
		}
		if errOut.Len() == 0 {
			t.Errorf("run(%q) wrote no message to stderr", args)
		}
	}
}
