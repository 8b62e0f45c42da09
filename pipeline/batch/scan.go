package batch

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// scan reads a combined output and calls fn for each complete record
// (a line ending in '\n', the header excepted) with its line, without
// the newline. It returns the offset just past the last complete line
// and the length of an unterminated tail: what a killed writer leaves.
// A complete line that is not a record is an error naming name and the
// line number, since the file is then not (only) a batch output.
func scan(r io.Reader, c codec, name string, fn func(line []byte, rec *Record) error) (end, tail int64, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head := c.header()
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			return end, int64(len(line)), nil
		}
		if err != nil {
			return end, 0, fmt.Errorf("batch: reading %s: %w", name, err)
		}
		if n == 1 && head != nil {
			if !bytes.Equal(line, head) {
				return end, 0, fmt.Errorf("batch: %s: not a batch output: the first line is %.80q, want the header %q", name, line, head)
			}
			end += int64(len(line))
			continue
		}
		rec, err := c.decode(line[:len(line)-1])
		if err != nil {
			return end, 0, fmt.Errorf("batch: %s line %d: not a batch record (%v): %.80q", name, n, err, line)
		}
		if err := fn(line[:len(line)-1], &rec); err != nil {
			return end, 0, err
		}
		end += int64(len(line))
	}
}
