package input

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(path, []byte("file"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{{path, "file"}, {"-", "stdin"}} {
		r, closeFn, err := Open(tc.path, strings.NewReader("stdin"))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		closeFn()
		if string(got) != tc.want {
			t.Errorf("Open(%q) reads %q, want %q", tc.path, got, tc.want)
		}
	}
	if _, _, err := Open(filepath.Join(t.TempDir(), "none"), nil); !os.IsNotExist(err) {
		t.Errorf("Open of a missing file: %v, want a not-exist error", err)
	}
	if DisplayName("-") != "standard input" || DisplayName("x.wav") != "x.wav" {
		t.Error("DisplayName does not name standard input and files as it should")
	}
}
