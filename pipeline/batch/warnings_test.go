package batch

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWarnings: an input done with warnings (a file cut short) is
// recorded with "truncated" and "warnings", and each warning gets a line
// on stderr, quiet or not; TSV keeps its columns.
func TestWarnings(t *testing.T) {
	process := func(ctx context.Context, in Input) (Result, error) {
		res, err := fakeProcess(ctx, in)
		if err == nil && strings.HasSuffix(in.Path, "0001.wav") {
			res.Truncated, res.Warnings = true, []string{"the file is cut short: transcribed the 1.5 s it holds"}
		}
		return res, err
	}
	for _, format := range []string{FormatJSONL, FormatTSV} {
		out := filepath.Join(t.TempDir(), "out."+format)
		var stderr bytes.Buffer
		sum, err := Run(context.Background(), fakeInputs(3), Shared(process), &Options{
			Jobs: 2, Output: out, Model: "fake-1", Name: "asr", Stderr: &stderr, Quiet: true,
		})
		if err != nil || sum.Done != 3 {
			t.Fatalf("%s: %v, %+v", format, err, sum)
		}
		want := "asr: warning: " + filepath.Join("in", "0001.wav") + ": the file is cut short: transcribed the 1.5 s it holds\n"
		if stderr.String() != want {
			t.Errorf("%s: stderr %q, want %q", format, stderr.String(), want)
		}
		for _, r := range readOutput(t, out, format) {
			cut := strings.HasSuffix(r.Path, "0001.wav") && format == FormatJSONL
			if r.Truncated != cut || (len(r.Warnings) == 1) != cut {
				t.Errorf("%s: record %+v", format, r)
			}
		}
		if format == FormatJSONL && !slices.ContainsFunc(sum.Warnings, func(f Failure) bool { return strings.Contains(f.Reason, "cut short") }) {
			t.Errorf("summary warnings %v", sum.Warnings)
		}
	}
}
