package input

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestNotFiles: devices and directories are refused saying what they
// are; a named pipe is read like standard input.
func TestNotFiles(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux's /dev")
	}
	dir := t.TempDir()
	for _, tc := range []struct{ path, says string }{
		{"/dev/zero", "/dev/zero is a device of endless zero bytes: not a file to read"},
		{"/dev/urandom", "/dev/urandom is a device of endless random bytes: not a file to read"},
		{"/dev/null", "/dev/null is a device that holds nothing: not a file to read"},
		{dir, dir + " is a directory: not a file to read"},
	} {
		_, _, err := Open(tc.path, nil)
		if !errors.Is(err, ErrNotFile) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("Open(%s): %v, want %q", tc.path, err, tc.says)
		}
		if _, err := Check(tc.path); !errors.Is(err, ErrNotFile) {
			t.Errorf("Check(%s): %v, want ErrNotFile", tc.path, err)
		}
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			w.WriteString("piped")
			w.Close()
		}
	}()
	if size, err := Check(fifo); err != nil || size != -1 {
		t.Errorf("Check(fifo): %d, %v", size, err)
	}
	r, closeFn, err := Open(fifo, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	got, _ := io.ReadAll(r)
	if _, err := r.(io.Seeker).Seek(0, io.SeekStart); err != nil || string(got) != "piped" {
		t.Errorf("fifo: read %q, seek %v", got, err)
	}
}
