package speechdata

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// maxLine bounds one manifest line.
const maxLine = 16 << 20

// eachLine calls fn with each non-blank line of the file at path and its
// 1-based number, without the line ending (\n or \r\n) or a leading UTF-8
// byte-order mark. It stops at fn's first error.
func eachLine(path string, fn func(line int, text string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("speechdata: %w", err)
	}
	defer f.Close()
	return scanLines(path, f, fn)
}

// scanLines is eachLine over r, whose errors name path.
func scanLines(path string, r io.Reader, fn func(line int, text string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	n := 0
	for sc.Scan() {
		n++
		b := sc.Bytes()
		if n == 1 {
			b = bytes.TrimPrefix(b, []byte("\uFEFF"))
		}
		text := strings.TrimSuffix(string(b), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if err := fn(n, text); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return lineError(path, n+1, ErrSyntax, "line longer than %d MiB", maxLine>>20)
		}
		return fmt.Errorf("speechdata: %s: %w", path, err)
	}
	return nil
}
