package trainloop

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestOpenLog checks that a second opening appends (a resumed run
// continues the log) and that each line goes to the log and to also with
// its time of day.
func TestOpenLog(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var also bytes.Buffer
	for i := range 2 {
		var extra io.Writer
		if i == 0 {
			extra = &also
		}
		logf, closeLog, err := OpenLog(dir, extra)
		if err != nil {
			t.Fatal(err)
		}
		logf("step %d", i)
		if err := closeLog(); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(filepath.Join(dir, "train.log"))
	if err != nil {
		t.Fatal(err)
	}
	line := `\d\d:\d\d:\d\d step %d\n`
	if !regexp.MustCompile(`^` + fmt.Sprintf(line, 0) + fmt.Sprintf(line, 1) + `$`).Match(got) {
		t.Errorf("train.log %q, want the two lines in order", got)
	}
	if !regexp.MustCompile(`^` + fmt.Sprintf(line, 0) + `$`).Match(also.Bytes()) {
		t.Errorf("also got %q, want the first line only", also.String())
	}
}
