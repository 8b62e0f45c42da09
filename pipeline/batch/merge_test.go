package batch

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// runShards runs n shards of inputs into dir/out.I.format and returns
// their names.
func runShards(t *testing.T, dir, format string, inputs []Input, n int) []string {
	t.Helper()
	var outs []string
	for i := range n {
		var part []Input
		for _, in := range inputs {
			if (Shard{i, n}).Contains(in) {
				part = append(part, in)
			}
		}
		out := filepath.Join(dir, "out."+string(rune('0'+i))+"."+format)
		if _, err := Run(context.Background(), part, Shared(fakeProcess), &Options{Output: out, Jobs: 2}); err != nil && !errors.Is(err, ErrFailed) {
			t.Fatal(err)
		}
		outs = append(outs, out)
	}
	return outs
}

func TestMergeShards(t *testing.T) {
	for _, format := range []string{FormatJSONL, FormatTSV, FormatCSV} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			inputs := fakeInputs(60, 4, 44)
			outs := runShards(t, dir, format, inputs, 3)
			var merged bytes.Buffer
			st, err := Merge(outs, &merged, nil)
			if err != nil {
				t.Fatal(err)
			}
			if *st != (MergeStats{Outputs: 3, Records: 60, Failed: 2}) {
				t.Errorf("stats %+v", st)
			}
			file := filepath.Join(dir, "merged."+format)
			if err := os.WriteFile(file, merged.Bytes(), 0o666); err != nil {
				t.Fatal(err)
			}
			recs := readOutput(t, file, format)
			checkExactlyOnce(t, recs, inputs)
			if !slices.IsSorted(paths(recs)) {
				t.Errorf("not sorted: %v", paths(recs))
			}
		})
	}
}

func TestMergeErrors(t *testing.T) {
	dir := t.TempDir()
	inputs := fakeInputs(20)
	outs := runShards(t, dir, FormatJSONL, inputs, 2)
	cut := filepath.Join(dir, "cut.jsonl")
	data, _ := os.ReadFile(outs[0])
	if err := os.WriteFile(cut, data[:len(data)-5], 0o666); err != nil {
		t.Fatal(err)
	}
	tsv := runShards(t, t.TempDir(), FormatTSV, inputs, 1)[0]
	tests := []struct {
		name    string
		outputs []string
		want    error
		says    string
	}{
		{"same shard twice", []string{outs[0], outs[1], outs[0]}, ErrDuplicate, "(in " + outs[0] + " and " + outs[0] + ")"},
		{"overlapping runs", []string{outs[0], outs[1], runShards(t, t.TempDir(), FormatJSONL, inputs[:3], 1)[0]}, ErrDuplicate, "in/0000.wav"},
		{"incomplete", []string{outs[1], cut}, ErrIncomplete, cut},
		{"mixed formats", []string{outs[0], tsv}, ErrOptions, tsv},
		{"nothing", nil, ErrOptions, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var w bytes.Buffer
			_, err := Merge(tc.outputs, &w, nil)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("Merge: %v, want %v saying %q", err, tc.want, tc.says)
			}
			if w.Len() != 0 {
				t.Errorf("wrote %d bytes despite the error", w.Len())
			}
		})
	}
}
