package whisper

import (
	"bytes"
	"compress/zlib"
)

// CompressionRatio is openai/whisper's compression_ratio (whisper/utils.py):
// len(text's UTF-8 bytes) / len(zlib.compress(those bytes)), which
// transcribe compares with compression_ratio_threshold (2.4) to catch
// repetitive output. CPython's zlib.compress is C zlib's deflate at level 6;
// Go's compress/zlib produces other (often longer) streams, off by up to
// 20 % on short texts, which would move decisions at the threshold, so the
// length comes from zlibLen, a port of zlib's level-6 deflate that
// reproduces its output size exactly for inputs up to 32 KiB (a window's
// text is at most a few KiB). Longer inputs fall back to compress/zlib.
func CompressionRatio(text string) float64 {
	return float64(len(text)) / float64(zlibLen([]byte(text)))
}

// zlibLen returns len(zlib.compress(b)) for C zlib's defaults (level 6,
// 32 KiB window, memLevel 8): a 2-byte header, the deflate stream and a
// 4-byte Adler-32.
func zlibLen(b []byte) int {
	if len(b) > zlibWindow {
		var buf bytes.Buffer
		w, _ := zlib.NewWriterLevel(&buf, 6)
		_, _ = w.Write(b)
		_ = w.Close()
		return buf.Len()
	}
	bits := deflateBits(b)
	return 2 + (bits+7)/8 + 4
}

// C zlib's constants (zlib.h, deflate.h) and level 6's configuration.
const (
	zlibWindow   = 1 << 15 // w_size
	minMatch     = 3
	maxMatch     = 258
	minLookahead = maxMatch + minMatch + 1
	maxDist      = zlibWindow - minLookahead
	hashBits     = 15 // memLevel 8 + 7
	hashMask     = 1<<hashBits - 1
	hashShift    = (hashBits + minMatch - 1) / minMatch
	tooFar       = 4096
	goodLength   = 8
	maxLazy      = 16
	niceLength   = 128
	maxChain     = 128
	symEnd       = 1<<(8+6) - 1 // (lit_bufsize − 1) symbols per block
)

// deflateBits runs zlib's deflate_slow over b (len(b) ≤ 32 KiB, so the
// window never slides) with Z_FINISH and returns the deflate stream's
// length in bits, the last block padded to a byte.
func deflateBits(in []byte) int {
	// The window holds the input followed by zeros (zlib zeroes the
	// memory past the input that longest_match may read).
	win := make([]byte, len(in)+maxMatch+minMatch)
	copy(win, in)
	head := make([]uint16, 1<<hashBits) // positions < 32 Ki; 0 is NIL
	prev := make([]uint16, zlibWindow)

	var blk deflateBlock
	bits := 0
	blockStart := 0
	flush := func(strstart int, last bool) {
		bits = blk.flush(bits, strstart-blockStart, last)
		blockStart = strstart
	}

	lookahead := len(in)
	strstart := 0
	insH := 0
	if lookahead >= minMatch {
		insH = (int(win[0])<<hashShift ^ int(win[1])) & hashMask
	}
	insert := func(pos int) int {
		insH = (insH<<hashShift ^ int(win[pos+minMatch-1])) & hashMask
		h := head[insH]
		prev[pos&(zlibWindow-1)] = h
		head[insH] = uint16(pos)
		return int(h)
	}
	// longest is longest_match: the best of at most maxChain earlier
	// positions with the same hash, longer than prevLength; matchStart is
	// kept when nothing longer is found.
	longest := func(cur, prevLength, matchStart int) (int, int) {
		chain := maxChain
		best := prevLength
		nice := min(niceLength, lookahead)
		limit := 0
		if strstart > maxDist {
			limit = strstart - maxDist
		}
		if prevLength >= goodLength {
			chain >>= 2
		}
		for {
			n := 0
			for n < maxMatch && win[cur+n] == win[strstart+n] {
				n++
			}
			if n > best {
				matchStart, best = cur, n
				if n >= nice {
					break
				}
			}
			cur = int(prev[cur&(zlibWindow-1)])
			chain--
			if cur <= limit || chain == 0 {
				break
			}
		}
		return min(best, lookahead), matchStart
	}

	matchLength, matchStart := minMatch-1, 0
	matchAvailable := false
	for lookahead > 0 {
		hashHead := 0
		if lookahead >= minMatch {
			hashHead = insert(strstart)
		}
		prevLength, prevMatch := matchLength, matchStart
		matchLength = minMatch - 1
		if hashHead != 0 && prevLength < maxLazy && strstart-hashHead <= maxDist {
			matchLength, matchStart = longest(hashHead, prevLength, matchStart)
			if matchLength == minMatch && strstart-matchStart > tooFar {
				matchLength = minMatch - 1
			}
		}
		switch {
		case prevLength >= minMatch && matchLength <= prevLength:
			maxInsert := strstart + lookahead - minMatch
			full := blk.tallyDist(strstart-1-prevMatch, prevLength-minMatch)
			lookahead -= prevLength - 1
			for n := prevLength - 2; n > 0; n-- {
				strstart++
				if strstart <= maxInsert {
					insert(strstart)
				}
			}
			matchAvailable = false
			matchLength = minMatch - 1
			strstart++
			if full {
				flush(strstart, false)
			}
		case matchAvailable:
			if blk.tallyLit(win[strstart-1]) {
				flush(strstart, false)
			}
			strstart++
			lookahead--
		default:
			matchAvailable = true
			strstart++
			lookahead--
		}
	}
	if matchAvailable {
		blk.tallyLit(win[strstart-1])
	}
	flush(strstart, true)
	return bits
}
