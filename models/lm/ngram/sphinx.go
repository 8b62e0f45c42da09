package ngram

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
)

// sphinxMagic opens a CMU Sphinx binary trie model (sphinxbase 5prealpha
// and PocketSphinx 5, such as Debian's
// /usr/share/pocketsphinx/model/en-us/en-us.lm.bin).
const sphinxMagic = "Trie Language Model"

// sphinxLog10 converts the files' log probabilities, in units of
// log base 1.0001 (sphinxbase's logmath), to log10.
var sphinxLog10 = math.Log10(1.0001)

// sphinxQuantBits is the width of a quantized probability or back-off
// weight: each order's values index a table of 2^16 float32 centres.
const sphinxQuantBits = 16

// readSphinx reads a Sphinx trie model, after its magic, from r. The
// format (sphinxbase lm_trie.c, a port of KenLM's trie):
//
//	uint8 order; uint32 count[order]
//	int32 (unused); float32 tables: per middle order a probability and a
//	  back-off table, then the longest order's probability table, 2^16 each
//	(count[0]+1) unigrams {float32 prob, float32 backoff, uint32 next}
//	bit-packed middle orders {word, backoff, prob, next}, the longest {word, prob}
//	int32 length; the words, NUL-terminated, in id order
//
// All integers are little-endian. The n-grams are read by walking the
// trie, not trusted from the header counts: the en-us model's header
// declares 2,051,547 bigrams and its trie holds 2,051,541
// (cmusphinx/pocketsphinx#502, which makes sphinx_lm_convert abort).
func readSphinx(r *bufio.Reader, opts *LoadOptions) (*Model, error) {
	var order uint8
	if err := binary.Read(r, binary.LittleEndian, &order); err != nil {
		return nil, sphinxErr("order", err)
	}
	if order < 1 || order > maxOrder {
		return nil, fmt.Errorf("%w: Sphinx model of order %d", ErrFormat, order)
	}
	counts := make([]uint32, order)
	if err := binary.Read(r, binary.LittleEndian, counts); err != nil {
		return nil, sphinxErr("counts", err)
	}
	for k, c := range counts {
		if c == 0 || c >= 1<<25 {
			return nil, fmt.Errorf("%w: Sphinx model declares %d %d-grams", ErrFormat, c, k+1)
		}
	}
	var tables []float32
	if order > 1 {
		var unused int32
		if err := binary.Read(r, binary.LittleEndian, &unused); err != nil {
			return nil, sphinxErr("quantization", err)
		}
		b, err := readN(r, 4*(2*(int(order)-2)+1)<<sphinxQuantBits)
		if err != nil {
			return nil, sphinxErr("quantization tables", err)
		}
		tables = make([]float32, len(b)/4)
		for i := range tables {
			tables[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
	b, err := readN(r, 12*(int(counts[0])+1))
	if err != nil {
		return nil, sphinxErr("unigrams", err)
	}
	uni := make([]uint32, len(b)/4) // prob, backoff (float32 bits), next
	for i := range uni {
		uni[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	// The bit-packed orders 2..order, each sized by the header counts.
	wordBits := requiredBits(counts[0])
	type level struct {
		mem             []byte
		total, nextBits uint
	}
	levels := make([]level, order)
	for k := 2; k <= int(order); k++ {
		l := level{total: wordBits + sphinxQuantBits}
		if k < int(order) {
			l.nextBits = requiredBits(counts[k])
			l.total += sphinxQuantBits + l.nextBits
		}
		size := (uint64(counts[k-1]+1)*uint64(l.total)+7)/8 + 8
		mem, err := readN(r, int(size))
		if err != nil {
			return nil, sphinxErr(fmt.Sprintf("%d-grams", k), err)
		}
		l.mem = append(mem, make([]byte, 8)...) // slack for 64-bit reads at the end
		levels[k-1] = l
	}
	var n int32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return nil, sphinxErr("word list", err)
	}
	if n < 0 || n > 1<<28 {
		return nil, fmt.Errorf("%w: Sphinx word list of %d bytes", ErrFormat, n)
	}
	raw, err := readN(r, int(n))
	if err != nil {
		return nil, sphinxErr("word list", err)
	}
	words := make([]string, 0, counts[0])
	for w := range bytes.SplitSeq(bytes.TrimSuffix(raw, []byte{0}), []byte{0}) {
		words = append(words, string(w))
	}
	if len(words) != int(counts[0]) {
		return nil, fmt.Errorf("%w: Sphinx model has %d words for %d unigrams", ErrFormat, len(words), counts[0])
	}

	p := &parser{mapWord: opts.mapper()}
	probs, bows := make([]float32, len(words)), make([]float32, len(words))
	for i := range words {
		probs[i] = sphinxValue(math.Float32frombits(uni[3*i]))
		bows[i] = sphinxValue(math.Float32frombits(uni[3*i+1]))
	}
	if err := p.unigramLevel(words, probs, bows, make([]int32, len(words))); err != nil {
		return nil, err
	}
	for k := 2; k <= int(order); k++ {
		p.levels = append(p.levels, &grams{n: k})
	}

	// Walk the trie, which is keyed by the last word and then the earlier
	// ones (KenLM's reversed trie): the entries [next(w), next(w+1)) of
	// the bigrams are the n-grams "v w", and so on up.
	hist, tuple := make([]int32, order), make([]int32, order)
	var walk func(k int, lo, hi uint32) error
	walk = func(k int, lo, hi uint32) error {
		l := levels[k-1]
		if uint64(hi)*uint64(l.total) > uint64(len(l.mem)-16)*8 || lo > hi {
			return fmt.Errorf("%w: Sphinx %d-gram range [%d, %d) outside the file", ErrFormat, k, lo, hi)
		}
		mask := uint64(1)<<wordBits - 1
		for ptr := lo; ptr < hi; ptr++ {
			off := uint64(ptr) * uint64(l.total)
			w := readBits(l.mem, off, wordBits) & mask
			if w >= uint64(counts[0]) {
				return fmt.Errorf("%w: Sphinx %d-gram word id %d of %d words", ErrFormat, k, w, counts[0])
			}
			hist[k-1] = p.rawID[words[w]]
			off += uint64(wordBits)
			var prob, bow float32
			if k == int(order) {
				prob = tables[(2*(k-2))<<sphinxQuantBits+int(readBits(l.mem, off, sphinxQuantBits))]
			} else {
				t := (2 * (k - 2)) << sphinxQuantBits
				bow = tables[t+1<<sphinxQuantBits+int(readBits(l.mem, off, sphinxQuantBits))]
				prob = tables[t+int(readBits(l.mem, off+sphinxQuantBits, sphinxQuantBits))]
			}
			for i := range k { // the trie holds each n-gram last word first
				tuple[i] = hist[k-1-i]
			}
			p.levels[k-1].add(tuple[:k], sphinxValue(prob), sphinxValue(bow), 0)
			if k < int(order) {
				at := uint64(wordBits) + 2*sphinxQuantBits
				next := readBits(l.mem, off-uint64(wordBits)+at, l.nextBits)
				end := readBits(l.mem, off-uint64(wordBits)+uint64(l.total)+at, l.nextBits)
				if err := walk(k+1, uint32(next), uint32(end)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if order > 1 {
		for i := range words {
			hist[0] = p.rawID[words[i]]
			lo, hi := uni[3*i+2], uni[3*(i+1)+2]
			if err := walk(2, lo, hi); err != nil {
				return nil, err
			}
		}
	}
	for _, g := range p.levels[1:] {
		if err := sortGrams(g, p.vocab); err != nil {
			return nil, err
		}
	}
	completePrefixes(p.levels)
	return build(p.vocab, p.levels)
}

// sphinxValue converts a stored log probability or back-off weight to
// log10, keeping sphinxbase's floor (about −99 and below) as is.
func sphinxValue(v float32) float32 {
	return float32(float64(v) * sphinxLog10)
}

// readBits reads the n ≤ 32 bits at bit offset off of mem (little-endian
// bit packing, as sphinxbase's bitarr_read_int25).
func readBits(mem []byte, off uint64, n uint) uint64 {
	v := binary.LittleEndian.Uint64(mem[off>>3:])
	return (v >> (off & 7)) & (uint64(1)<<n - 1)
}

// readN reads exactly n bytes, allocating as they arrive (so that a
// header that declares huge counts in a short file fails fast).
func readN(r io.Reader, n int) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(min(n, 1<<20))
	if _, err := io.CopyN(&buf, r, int64(n)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// requiredBits is the number of bits that hold values up to max.
func requiredBits(max uint32) uint { return uint(bits.Len32(max)) }

func sphinxErr(what string, err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("%w: Sphinx model truncated in its %s", ErrFormat, what)
	}
	return fmt.Errorf("ngram: reading the Sphinx model's %s: %w", what, err)
}
