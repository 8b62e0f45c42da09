package ggml

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// windowLen is how much a cursor reads ahead for the small header fields.
const windowLen = 64 << 10

// cursor reads a file's fields in order through an io.ReaderAt, checking
// every length against what is left of the file before reading or
// allocating, so a corrupt count costs an error, not memory.
type cursor struct {
	r      io.ReaderAt
	size   int64
	off    int64  // next byte to read
	win    []byte // bytes [winOff, winOff+len(win)) of the file
	winOff int64
}

func (c *cursor) left() int64 { return c.size - c.off }

// need fails with ErrTruncated unless n more bytes are left for what.
func (c *cursor) need(n int64, what string) error {
	if n < 0 || n > c.left() {
		return formatErr(c.off, ErrTruncated, "%s needs %d bytes, the file has %d left (size %d)", what, n, c.left(), c.size)
	}
	return nil
}

// readAt fills p from the file at off.
func (c *cursor) readAt(p []byte, off int64) error {
	n, err := c.r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return formatErr(off+int64(n), ErrTruncated, "the reader ended after %d of %d bytes (size given as %d)", n, len(p), c.size)
	}
	return fmt.Errorf("ggml: reading %d bytes at offset %d: %w", len(p), off, err)
}

// next returns the next n bytes for what. The slice is valid until the
// next call; n must be at most windowLen.
func (c *cursor) next(n int, what string) ([]byte, error) {
	if err := c.need(int64(n), what); err != nil {
		return nil, err
	}
	if c.off < c.winOff || c.off+int64(n) > c.winOff+int64(len(c.win)) {
		m := min(int64(windowLen), c.left())
		if cap(c.win) < int(m) {
			c.win = make([]byte, windowLen)
		}
		c.win = c.win[:m]
		if err := c.readAt(c.win, c.off); err != nil {
			c.win = c.win[:0]
			return nil, err
		}
		c.winOff = c.off
	}
	i := c.off - c.winOff
	c.off += int64(n)
	return c.win[i : i+int64(n)], nil
}

// int32 reads a little-endian int32.
func (c *cursor) int32(what string) (int32, error) {
	b, err := c.next(4, what)
	if err != nil {
		return 0, err
	}
	return int32(binary.LittleEndian.Uint32(b)), nil
}

// copyTo fills dst from the next len(dst) bytes for what.
func (c *cursor) copyTo(dst []byte, what string) error {
	if err := c.need(int64(len(dst)), what); err != nil {
		return err
	}
	if len(dst) <= windowLen {
		b, err := c.next(len(dst), what)
		if err != nil {
			return err
		}
		copy(dst, b)
		return nil
	}
	if err := c.readAt(dst, c.off); err != nil {
		return err
	}
	c.off += int64(len(dst))
	return nil
}

// skip moves past n bytes for what, which must be there.
func (c *cursor) skip(n int64, what string) error {
	if err := c.need(n, what); err != nil {
		return err
	}
	c.off += n
	return nil
}
