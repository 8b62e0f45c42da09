package ngram

import "math/bits"

// keyed is an n-gram's word ids packed into one integer, and its index.
type keyed struct {
	key uint64
	idx int32
}

// packedOrder returns the permutation that sorts g lexicographically,
// by packing each n-gram into a uint64 (wordBits bits a word) and radix
// sorting, or nil when n·wordBits exceeds 64.
func packedOrder(g *grams, vocabSize int) []int32 {
	wordBits := bits.Len(uint(vocabSize))
	if g.n*wordBits > 64 {
		return nil
	}
	a := make([]keyed, g.len())
	for i := range a {
		var k uint64
		for _, w := range g.tuple(i) {
			k = k<<wordBits | uint64(w)
		}
		a[i] = keyed{k, int32(i)}
	}
	a = radixSort(a, g.n*wordBits)
	perm := make([]int32, len(a))
	for i, x := range a {
		perm[i] = x.idx
	}
	return perm
}

// radixSort sorts a by the low keyBits bits of key, stably (LSD, 16 bits
// a pass), and returns the sorted slice (a or a buffer).
func radixSort(a []keyed, keyBits int) []keyed {
	buf := make([]keyed, len(a))
	var count [1 << 16]int
	for shift := 0; shift < keyBits; shift += 16 {
		clear(count[:])
		for _, x := range a {
			count[(x.key>>shift)&0xffff]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, x := range a {
			d := (x.key >> shift) & 0xffff
			buf[count[d]] = x
			count[d]++
		}
		a, buf = buf, a
	}
	return a
}
