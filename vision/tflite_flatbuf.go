package vision

import (
	"encoding/binary"
	"fmt"
	"math"
)

// flatReader reads a FlatBuffers binary (https://flatbuffers.dev/internals/)
// with every offset checked against the buffer, so that a truncated or
// hostile file yields an error and never a panic or an out-of-bounds read.
//
// The wire format, all little-endian:
//
//   - The buffer starts with a uoffset (uint32) to the root table.
//   - A table starts with an soffset (int32): the table's vtable lies at
//     table − soffset. A vtable is uint16 words: its own size in bytes, the
//     size of the table's inline data, then one offset per field, relative
//     to the table start; 0 (or a field beyond the vtable) means absent, and
//     the reader takes the schema default.
//   - Scalars are stored inline. Tables, vectors and strings are stored as a
//     uoffset relative to the position of the offset itself.
//   - A vector is a uint32 element count followed by the elements; a vector
//     of tables holds uoffsets, each relative to its own position. A string
//     is a vector of bytes (followed by a NUL that is not counted).
//   - A union is two fields: a uint8 type tag, then a uoffset to the table.
//
// The reader is sticky: the first failure is kept in err, later calls return
// zero values, and the caller checks err once per table. It describes where
// it is reading with a path like "subgraphs[0].tensors[17].shape", which
// callers set through at.
type flatReader struct {
	buf   []byte
	err   error
	where func() string // describes the table being read; nil at the root
}

// flatTable is a table that passed validation: its vtable and inline data
// lie inside the buffer.
type flatTable struct {
	pos    int // start of the table (its soffset)
	vtable int // start of its vtable
	vtSize int // vtable size in bytes (even, ≥ 4)
	size   int // size of the table's inline data in bytes (≥ 4)
}

// flatVector is a vector that passed validation: n elements of elemSize
// bytes starting at pos lie inside the buffer.
type flatVector struct {
	pos, n, elemSize int
}

func (r *flatReader) fail(format string, args ...any) {
	if r.err != nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if r.where != nil {
		msg = r.where() + ": " + msg
	}
	r.err = fmt.Errorf("%w: %s (file is %d bytes)", ErrModel, msg, len(r.buf))
}

// inside reports whether n bytes at pos lie inside the buffer, without
// overflow for any int inputs.
func (r *flatReader) inside(pos, n int) bool {
	return pos >= 0 && n >= 0 && pos <= len(r.buf) && n <= len(r.buf)-pos
}

func (r *flatReader) u16(pos int) int {
	if r.err != nil {
		return 0
	}
	if !r.inside(pos, 2) {
		r.fail("uint16 at offset %d out of range", pos)
		return 0
	}
	return int(binary.LittleEndian.Uint16(r.buf[pos:]))
}

func (r *flatReader) u32(pos int) uint32 {
	if r.err != nil {
		return 0
	}
	if !r.inside(pos, 4) {
		r.fail("uint32 at offset %d out of range", pos)
		return 0
	}
	return binary.LittleEndian.Uint32(r.buf[pos:])
}

// deref follows the uoffset stored at pos and returns its target, which is
// checked to lie inside the buffer.
func (r *flatReader) deref(pos int) int {
	off := r.u32(pos)
	if r.err != nil {
		return 0
	}
	target := int64(pos) + int64(off)
	if target >= int64(len(r.buf)) {
		r.fail("offset %d at %d points past the end", off, pos)
		return 0
	}
	return int(target)
}

// root returns the root table.
func (r *flatReader) root() flatTable {
	if len(r.buf) < 8 {
		r.fail("too short for a FlatBuffer")
		return flatTable{}
	}
	return r.table(r.deref(0))
}

// table validates the table starting at pos.
func (r *flatReader) table(pos int) flatTable {
	soff := int32(r.u32(pos))
	if r.err != nil {
		return flatTable{}
	}
	vt := int64(pos) - int64(soff)
	if vt < 0 || vt > int64(len(r.buf))-4 {
		r.fail("vtable offset %d of the table at %d out of range", soff, pos)
		return flatTable{}
	}
	t := flatTable{pos: pos, vtable: int(vt)}
	t.vtSize = r.u16(t.vtable)
	t.size = r.u16(t.vtable + 2)
	switch {
	case r.err != nil:
		return flatTable{}
	case t.vtSize < 4 || t.vtSize%2 != 0 || !r.inside(t.vtable, t.vtSize):
		r.fail("vtable at %d has invalid size %d", t.vtable, t.vtSize)
		return flatTable{}
	case t.size < 4 || !r.inside(pos, t.size):
		r.fail("table at %d has invalid size %d", pos, t.size)
		return flatTable{}
	}
	return t
}

// field returns the position of field id of t holding size bytes, or −1 if
// the field is absent.
func (r *flatReader) field(t flatTable, id, size int) int {
	if r.err != nil {
		return -1
	}
	slot := 4 + 2*id
	if slot+2 > t.vtSize {
		return -1
	}
	off := r.u16(t.vtable + slot)
	if off == 0 {
		return -1
	}
	if off < 4 || off > t.size-size {
		r.fail("field %d at table offset %d overruns the table (size %d)", id, off, t.size)
		return -1
	}
	return t.pos + off
}

func (r *flatReader) uint8Field(t flatTable, id int, def uint8) uint8 {
	p := r.field(t, id, 1)
	if p < 0 {
		return def
	}
	return r.buf[p]
}

func (r *flatReader) int8Field(t flatTable, id int, def int8) int8 {
	return int8(r.uint8Field(t, id, uint8(def)))
}

func (r *flatReader) uint32Field(t flatTable, id int, def uint32) uint32 {
	p := r.field(t, id, 4)
	if p < 0 {
		return def
	}
	return r.u32(p)
}

func (r *flatReader) int32Field(t flatTable, id int, def int32) int32 {
	return int32(r.uint32Field(t, id, uint32(def)))
}

func (r *flatReader) float32Field(t flatTable, id int, def float32) float32 {
	return math.Float32frombits(r.uint32Field(t, id, math.Float32bits(def)))
}

// tableField returns the table that field id of t points to; ok is false if
// the field is absent.
func (r *flatReader) tableField(t flatTable, id int) (sub flatTable, ok bool) {
	p := r.field(t, id, 4)
	if p < 0 {
		return flatTable{}, false
	}
	sub = r.table(r.deref(p))
	return sub, r.err == nil
}

// vectorField returns the vector of elemSize-byte elements that field id of
// t points to; an absent field is an empty vector.
func (r *flatReader) vectorField(t flatTable, id, elemSize int) flatVector {
	p := r.field(t, id, 4)
	if p < 0 {
		return flatVector{elemSize: elemSize}
	}
	start := r.deref(p)
	n := r.u32(start)
	if r.err != nil {
		return flatVector{elemSize: elemSize}
	}
	data := start + 4
	if uint64(n)*uint64(elemSize) > uint64(len(r.buf)-min(data, len(r.buf))) {
		r.fail("vector at %d claims %d elements of %d bytes, past the end", start, n, elemSize)
		return flatVector{elemSize: elemSize}
	}
	return flatVector{pos: data, n: int(n), elemSize: elemSize}
}

// tableAt returns table element i of a vector of tables.
func (r *flatReader) tableAt(v flatVector, i int) flatTable {
	return r.table(r.deref(v.pos + 4*i))
}

func (r *flatReader) int32At(v flatVector, i int) int32 {
	return int32(r.u32(v.pos + 4*i))
}

func (r *flatReader) float32At(v flatVector, i int) float32 {
	return math.Float32frombits(r.u32(v.pos + 4*i))
}

func (r *flatReader) int64At(v flatVector, i int) int64 {
	lo := r.u32(v.pos + 8*i)
	hi := r.u32(v.pos + 8*i + 4)
	return int64(uint64(hi)<<32 | uint64(lo))
}

// bytes returns the elements of a byte vector, sharing the buffer.
func (r *flatReader) bytes(v flatVector) []byte {
	if r.err != nil || v.n == 0 {
		return nil
	}
	return r.buf[v.pos : v.pos+v.n : v.pos+v.n]
}

func (r *flatReader) stringField(t flatTable, id int) string {
	return string(r.bytes(r.vectorField(t, id, 1)))
}
