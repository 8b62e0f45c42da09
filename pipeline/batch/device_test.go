package batch

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestDeviceOutputs: an output that is no regular file is written as a
// stream: /dev/null takes everything, /dev/full fails saying why (not
// "truncate: invalid argument"), a directory is refused by name.
func TestDeviceOutputs(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux's /dev/null and /dev/full")
	}
	for _, tc := range []struct {
		output, format string
		says           string // in the error; "" for success
	}{
		{"/dev/null", FormatJSONL, ""},
		{"/dev/null", FormatCSV, ""},
		{"/dev/full", FormatJSONL, "writing /dev/full: no space left on device"},
		{"/dev/full", FormatTSV, "writing /dev/full: no space left on device"},
		{t.TempDir(), FormatJSONL, "is a directory"},
	} {
		if _, err := os.Stat(tc.output); err != nil {
			t.Skipf("no %s: %v", tc.output, err)
		}
		var stderr bytes.Buffer
		sum, err := Run(context.Background(), fakeInputs(5), Shared(fakeProcess), &Options{
			Jobs: 2, Output: tc.output, Format: tc.format, Model: "fake-1", Name: "asr", Stderr: &stderr, Resume: tc.says == "",
		})
		switch {
		case tc.says == "" && (err != nil || sum.Done != 5):
			t.Errorf("-o %s (%s): %v, summary %+v\n%s", tc.output, tc.format, err, sum, stderr.String())
		case tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says)):
			t.Errorf("-o %s (%s): error %v, want one saying %q", tc.output, tc.format, err, tc.says)
		}
		if err != nil && strings.Contains(err.Error(), "truncate") {
			t.Errorf("-o %s: %v", tc.output, err)
		}
	}
}
