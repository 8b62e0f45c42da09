package whisper

// The block-size side of C zlib's trees.c: symbol tallies, Huffman code
// lengths built exactly as build_tree/gen_bitlen build them (heap order,
// depth tie-break, overflow repair), the dynamic header's cost
// (scan_tree, build_bl_tree) and _tr_flush_block's choice among stored,
// static and dynamic blocks. Only lengths are computed, never codes.

const (
	lengthCodes = 29
	literals    = 256
	lCodes      = literals + 1 + lengthCodes // 286
	dCodes      = 30
	blCodes     = 19
	heapSize    = 2*lCodes + 1
	maxBits     = 15
	maxBLBits   = 7
	endBlock    = 256
)

var (
	extraLBits  = [lengthCodes]int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	extraDBits  = [dCodes]int{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	extraBLBits = [blCodes]int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7}
	blOrder     = [blCodes]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

	lengthCode [256]uint8 // match length − 3 → length code (tr_static_init)
	distCode   [512]uint8 // distance − 1 → distance code, via d_code
	staticLLen [lCodes + 2]int
)

func init() {
	length := 0
	code := 0
	for ; code < lengthCodes-1; code++ {
		for n := 0; n < 1<<extraLBits[code]; n++ {
			lengthCode[length] = uint8(code)
			length++
		}
	}
	lengthCode[length-1] = uint8(code)

	dist := 0
	for code = 0; code < 16; code++ {
		for n := 0; n < 1<<extraDBits[code]; n++ {
			distCode[dist] = uint8(code)
			dist++
		}
	}
	dist >>= 7
	for ; code < dCodes; code++ {
		for n := 0; n < 1<<(extraDBits[code]-7); n++ {
			distCode[256+dist] = uint8(code)
			dist++
		}
	}

	for n := range staticLLen {
		switch {
		case n <= 143:
			staticLLen[n] = 8
		case n <= 255:
			staticLLen[n] = 9
		case n <= 279:
			staticLLen[n] = 7
		default:
			staticLLen[n] = 8
		}
	}
}

func dCode(dist int) int {
	if dist < 256 {
		return int(distCode[dist])
	}
	return int(distCode[256+dist>>7])
}

// deflateBlock tallies one block's symbols.
type deflateBlock struct {
	lfreq [lCodes]int
	dfreq [dCodes]int
	syms  int
}

// tallyLit counts a literal; it reports whether the block is full.
func (b *deflateBlock) tallyLit(c byte) bool {
	b.lfreq[c]++
	b.syms++
	return b.syms == symEnd
}

// tallyDist counts a match of distance dist and length length+3.
func (b *deflateBlock) tallyDist(dist, length int) bool {
	b.lfreq[int(lengthCode[length])+literals+1]++
	b.dfreq[dCode(dist-1)]++
	b.syms++
	return b.syms == symEnd
}

// flush is _tr_flush_block: it adds the block's bits (3-bit header
// included) to bits, pads the last block to a byte, and starts a new
// block.
func (b *deflateBlock) flush(bits, storedLen int, last bool) int {
	var optLen, staticLen int
	lfreq := make([]int, heapSize)
	copy(lfreq, b.lfreq[:])
	lfreq[endBlock] = 1
	dfreq := make([]int, 2*dCodes+1)
	copy(dfreq, b.dfreq[:])

	staticD := func(int) int { return 5 }
	staticL := func(n int) int { return staticLLen[n] }
	llen, lmax := buildTree(lfreq, lCodes, literals+1, extraLBits[:], maxBits, staticL, &optLen, &staticLen)
	dlen, dmax := buildTree(dfreq, dCodes, 0, extraDBits[:], maxBits, staticD, &optLen, &staticLen)

	// build_bl_tree: the bit-length tree over both trees' lengths.
	blfreq := make([]int, 2*blCodes+1)
	scanTree(llen, lmax, blfreq)
	scanTree(dlen, dmax, blfreq)
	bllen, _ := buildTree(blfreq, blCodes, 0, extraBLBits[:], maxBLBits, nil, &optLen, nil)
	maxBLIndex := blCodes - 1
	for ; maxBLIndex >= 3; maxBLIndex-- {
		if bllen[blOrder[maxBLIndex]] != 0 {
			break
		}
	}
	optLen += 3*(maxBLIndex+1) + 5 + 5 + 4

	optLenb := (optLen + 3 + 7) >> 3
	staticLenb := (staticLen + 3 + 7) >> 3
	if staticLenb <= optLenb {
		optLenb = staticLenb
	}
	switch {
	case storedLen+4 <= optLenb:
		bits += 3
		bits = (bits + 7) &^ 7
		bits += 32 + 8*storedLen
	case staticLenb == optLenb:
		bits += 3 + staticLen
	default:
		bits += 3 + optLen
	}
	if last {
		bits = (bits + 7) &^ 7
	}
	*b = deflateBlock{}
	return bits
}

// buildTree is build_tree + gen_bitlen: the Huffman code lengths of
// freq[:elems] (freq has room for the internal nodes), the largest code
// with a non-zero frequency, and the block's cost added to *optLen (and,
// with a static tree, to *staticLen).
func buildTree(freq []int, elems, extraBase int, extra []int, maxLength int, static func(int) int, optLen, staticLen *int) ([]int, int) {
	n := len(freq)
	length := make([]int, n+1) // one more for scan_tree's guard
	dad := make([]int, n)
	depth := make([]int, n)
	heap := make([]int, heapSize+1)
	heapLen, heapMax := 0, heapSize
	maxCode := -1
	for i := 0; i < elems; i++ {
		if freq[i] != 0 {
			heapLen++
			heap[heapLen] = i
			maxCode = i
		}
	}
	for heapLen < 2 {
		node := 0
		if maxCode < 2 {
			maxCode++
			node = maxCode
		}
		heapLen++
		heap[heapLen] = node
		freq[node] = 1
		depth[node] = 0
		*optLen--
		if static != nil {
			*staticLen -= static(node)
		}
	}

	smaller := func(a, b int) bool {
		return freq[a] < freq[b] || (freq[a] == freq[b] && depth[a] <= depth[b])
	}
	downheap := func(k int) {
		v := heap[k]
		j := k << 1
		for j <= heapLen {
			if j < heapLen && smaller(heap[j+1], heap[j]) {
				j++
			}
			if smaller(v, heap[j]) {
				break
			}
			heap[k] = heap[j]
			k = j
			j <<= 1
		}
		heap[k] = v
	}
	for k := heapLen / 2; k >= 1; k-- {
		downheap(k)
	}
	node := elems
	for {
		a := heap[1]
		heap[1] = heap[heapLen]
		heapLen--
		downheap(1)
		b := heap[1]
		heapMax--
		heap[heapMax] = a
		heapMax--
		heap[heapMax] = b
		freq[node] = freq[a] + freq[b]
		depth[node] = max(depth[a], depth[b]) + 1
		dad[a], dad[b] = node, node
		heap[1] = node
		node++
		downheap(1)
		if heapLen < 2 {
			break
		}
	}
	heapMax--
	heap[heapMax] = heap[1]

	// gen_bitlen.
	var blCount [maxBits + 1]int
	length[heap[heapMax]] = 0
	overflow := 0
	h := heapMax + 1
	for ; h < heapSize; h++ {
		m := heap[h]
		bits := length[dad[m]] + 1
		if bits > maxLength {
			bits = maxLength
			overflow++
		}
		length[m] = bits
		if m > maxCode {
			continue
		}
		blCount[bits]++
		xbits := 0
		if m >= extraBase {
			xbits = extra[m-extraBase]
		}
		*optLen += freq[m] * (bits + xbits)
		if static != nil {
			*staticLen += freq[m] * (static(m) + xbits)
		}
	}
	if overflow > 0 {
		for overflow > 0 {
			bits := maxLength - 1
			for blCount[bits] == 0 {
				bits--
			}
			blCount[bits]--
			blCount[bits+1] += 2
			blCount[maxLength]--
			overflow -= 2
		}
		for bits := maxLength; bits != 0; bits-- {
			k := blCount[bits]
			for k != 0 {
				h--
				m := heap[h]
				if m > maxCode {
					continue
				}
				if length[m] != bits {
					*optLen += (bits - length[m]) * freq[m]
					length[m] = bits
				}
				k--
			}
		}
	}
	// Codes without frequency have length 0 (internal nodes keep theirs).
	for i := 0; i < elems; i++ {
		if freq[i] == 0 {
			length[i] = 0
		}
	}
	return length, maxCode
}

// scanTree is scan_tree: the bit-length tree's symbol frequencies for
// sending lengths[0..maxCode] with run-length codes 16, 17 and 18.
func scanTree(lengths []int, maxCode int, blfreq []int) {
	const rep3to6, repz3to10, repz11to138 = 16, 17, 18
	prevlen := -1
	nextlen := lengths[0]
	count := 0
	maxCount, minCount := 7, 4
	if nextlen == 0 {
		maxCount, minCount = 138, 3
	}
	guarded := append([]int(nil), lengths[:maxCode+1]...)
	guarded = append(guarded, 0xffff)
	for n := 0; n <= maxCode; n++ {
		curlen := nextlen
		nextlen = guarded[n+1]
		count++
		if count < maxCount && curlen == nextlen {
			continue
		} else if count < minCount {
			blfreq[curlen] += count
		} else if curlen != 0 {
			if curlen != prevlen {
				blfreq[curlen]++
			}
			blfreq[rep3to6]++
		} else if count <= 10 {
			blfreq[repz3to10]++
		} else {
			blfreq[repz11to138]++
		}
		count = 0
		prevlen = curlen
		switch {
		case nextlen == 0:
			maxCount, minCount = 138, 3
		case curlen == nextlen:
			maxCount, minCount = 6, 3
		default:
			maxCount, minCount = 7, 4
		}
	}
}
