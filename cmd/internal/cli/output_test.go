package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileAndCheck(t *testing.T) {
	dir := t.TempDir()
	hello := func(w io.Writer) error { _, err := io.WriteString(w, "hello"); return err }
	path := filepath.Join(dir, "out.json")
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{path, true},
		{os.DevNull, true},
		{dir, false},
		{filepath.Join(dir, "missing", "out.json"), false},
	} {
		checkErr := CheckWritable(tc.path, "-captions")
		writeErr := WriteFile(tc.path, hello)
		if (checkErr == nil) != tc.ok || (writeErr == nil) != tc.ok {
			t.Errorf("%s: check %v, write %v; want success %v", tc.path, checkErr, writeErr, tc.ok)
		}
		if checkErr != nil && !strings.Contains(checkErr.Error(), "-captions "+tc.path) {
			t.Errorf("%s: check error %q does not name the flag and path", tc.path, checkErr)
		}
	}
	if data, _ := os.ReadFile(path); string(data) != "hello" {
		t.Errorf("%s holds %q", path, data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries in %s, want the file alone (no temporary or check file left)", len(entries), dir)
	}
}
