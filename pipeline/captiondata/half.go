package captiondata

import (
	"encoding/binary"
	"hash/crc32"
	"sync"

	"github.com/attend-go/attend/models"
)

// castagnoli is the CRC-32C table; hash/crc32 computes it with the SSE4.2
// or ARMv8 CRC instructions where present.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// halfTable maps every binary16 bit pattern to its float32 value: one
// lookup per value reads a record faster than converting bit fields.
var halfTable = sync.OnceValue(func() *[1 << 16]float32 {
	var t [1 << 16]float32
	for h := range t {
		t[h] = models.Float16frombits(uint16(h))
	}
	return &t
})

// decodeHalves converts the little-endian halves in src to dst, which has
// len(src)/2 elements.
func decodeHalves(dst []float32, src []byte) {
	t := halfTable()
	src = src[:2*len(dst)]
	for i := range dst {
		dst[i] = t[binary.LittleEndian.Uint16(src[2*i:])]
	}
}

// encodeHalves stores src in dst as little-endian halves, rounded to
// nearest even. It returns the index of the first value that is NaN or
// whose magnitude rounds beyond the largest half (65504), or −1.
func encodeHalves(dst []byte, src []float32) int {
	dst = dst[:2*len(src)]
	bad := -1
	for i, v := range src {
		h := models.Float16bits(v)
		if h&0x7c00 == 0x7c00 && bad < 0 { // Inf or NaN
			bad = i
		}
		binary.LittleEndian.PutUint16(dst[2*i:], h)
	}
	return bad
}
