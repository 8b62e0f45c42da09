package trainloop

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// OpenLog creates dir and opens dir/train.log for appending (a resumed
// run continues the log), and returns logf, which writes a line prefixed
// with the time of day ("15:04:05 ") to the log and to also when it is not
// nil, and the function that closes the log.
func OpenLog(dir string, also io.Writer) (logf func(format string, args ...any), closeLog func() error, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, "train.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	var w io.Writer = f
	if also != nil {
		w = io.MultiWriter(f, also)
	}
	logf = func(format string, args ...any) {
		fmt.Fprintf(w, time.Now().Format("15:04:05 ")+format+"\n", args...)
	}
	return logf, f.Close, nil
}
