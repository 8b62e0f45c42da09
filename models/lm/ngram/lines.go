package ngram

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
)

// lineReader yields the lines of a text without their line ends and
// trailing white space, counting them.
type lineReader struct {
	r    *bufio.Reader
	n    int    // number of the last line returned
	long []byte // a line longer than the buffer
	err  error  // the read error that ended the input, other than io.EOF
}

// next returns the next line, valid until the following call, or false
// at the end of the input (err says whether a read failed).
func (l *lineReader) next() ([]byte, bool) {
	line, err := l.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = l.r.ReadSlice('\n')
			l.long = append(l.long, line...)
		}
		line = l.long
	}
	if err != nil && err != io.EOF {
		l.err = err
		return nil, false
	}
	if len(line) == 0 && err == io.EOF {
		return nil, false
	}
	l.n++
	return bytes.TrimRight(line, " \t\r\n"), true
}

// newGzipReader opens a gzip stream; a truncated stream becomes an error
// when the lines run out.
func newGzipReader(r io.Reader) (io.Reader, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: gzip: %v", ErrFormat, err)
	}
	return zr, nil
}
