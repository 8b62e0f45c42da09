package ngram

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
)

// LoadOptions tunes Load and Read; a nil *LoadOptions means the defaults.
type LoadOptions struct {
	// MapWord, if set, rewrites every word of the file as it is read
	// (strings.ToLower, so that an upper-case CMU model matches a
	// lower-case recognizer). Two words that map to the same string are
	// an error naming both. The special words <s>, </s> and <unk> are
	// not mapped.
	MapWord func(string) string
}

// maxOrder bounds the order a file may declare.
const maxOrder = 16

// Read reads a model in the ARPA format (see the package documentation
// for what it accepts) or a CMU Sphinx binary trie model (".lm.bin") from
// r, plain or gzip-compressed, each recognized by its magic bytes.
func Read(r io.Reader, opts *LoadOptions) (*Model, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := newGzipReader(br)
		if err != nil {
			return nil, err
		}
		br = bufio.NewReaderSize(zr, 1<<16)
	}
	if magic, _ := br.Peek(len(sphinxMagic)); string(magic) == sphinxMagic {
		br.Discard(len(sphinxMagic))
		return readSphinx(br, opts)
	}
	p := &parser{lines: lineReader{r: br}, mapWord: opts.mapper()}
	return p.parse()
}

// mapper returns o.MapWord, nil for a nil o.
func (o *LoadOptions) mapper() func(string) string {
	if o == nil {
		return nil
	}
	return o.MapWord
}

// parser reads an ARPA file section by section.
type parser struct {
	lines   lineReader
	mapWord func(string) string
	fields  [][]byte
	counts  []int // counts[k-1]: the header's number of k-grams
	vocab   []string
	rawID   map[string]int32 // word as written in the file → id
	levels  []*grams
}

func (p *parser) parse() (*Model, error) {
	if err := p.header(); err != nil {
		return nil, err
	}
	line, err := p.unigrams()
	for k := 2; err == nil && k <= len(p.counts); k++ {
		line, err = p.section(k, line)
	}
	if err != nil {
		return nil, err
	}
	if line == nil || !bytes.Equal(line, []byte(`\end\`)) {
		return nil, syntaxf(p.lines.n, "got %q after the %d-grams, want \\end\\", line, len(p.counts))
	}
	for _, g := range p.levels[1:] {
		if err := sortGrams(g, p.vocab); err != nil {
			return nil, err
		}
	}
	completePrefixes(p.levels)
	return build(p.vocab, p.levels)
}

// header skips any text before \data\ and reads the "ngram k=count"
// lines.
func (p *parser) header() error {
	for {
		line, ok := p.lines.next()
		if !ok {
			return p.eof(`no \data\ line: not an ARPA file`)
		}
		if bytes.Equal(line, []byte(`\data\`)) {
			break
		}
	}
	for {
		line, ok := p.lines.next()
		if !ok {
			return p.eof(`the \data\ header is not followed by \1-grams:`)
		}
		if len(line) == 0 {
			continue
		}
		if line[0] == '\\' {
			if len(p.counts) == 0 {
				return syntaxf(p.lines.n, `no "ngram 1=count" line in the \data\ header`)
			}
			if !bytes.Equal(line, []byte(`\1-grams:`)) {
				return syntaxf(p.lines.n, "got %q, want \\1-grams:", line)
			}
			return nil
		}
		rest, ok := bytes.CutPrefix(line, []byte("ngram "))
		k, n, found := bytes.Cut(rest, []byte("="))
		if !ok || !found {
			return syntaxf(p.lines.n, `got %q in the \data\ header, want "ngram N=count"`, line)
		}
		order, err1 := strconv.Atoi(string(bytes.TrimSpace(k)))
		count, err2 := strconv.Atoi(string(bytes.TrimSpace(n)))
		switch {
		case err1 != nil || err2 != nil || count < 0:
			return syntaxf(p.lines.n, "bad order or count in %q", line)
		case order != len(p.counts)+1:
			return syntaxf(p.lines.n, "got the count of %d-grams, want %d-grams next", order, len(p.counts)+1)
		case order > maxOrder:
			return syntaxf(p.lines.n, "order %d is above the supported %d", order, maxOrder)
		}
		p.counts = append(p.counts, count)
	}
}

// eof reports an unexpected end of input (or the read error that ended it).
func (p *parser) eof(msg string) error {
	if err := p.lines.err; err != nil {
		return &SyntaxError{Line: p.lines.n, Msg: fmt.Sprintf("reading after this line: %v", err)}
	}
	return syntaxf(p.lines.n, "unexpected end of file: %s", msg)
}

// entries reads the entries of the k-grams section up to its end and
// calls add for each (fields: words; line: its number). It returns the
// line that ended the section (nil at end of file).
func (p *parser) entries(k int, add func(words [][]byte, prob, bow float32) error) ([]byte, error) {
	n := 0
	for {
		line, ok := p.lines.next()
		if !ok {
			return nil, p.eof(fmt.Sprintf("the %d-grams section has no end (no \\end\\)", k))
		}
		if len(line) == 0 {
			continue
		}
		if line[0] == '\\' {
			if n != p.counts[k-1] {
				return nil, syntaxf(p.lines.n, "the \\%d-grams: section has %d entries, the header says %d", k, n, p.counts[k-1])
			}
			return line, nil
		}
		n++
		p.fields = splitFields(p.fields[:0], line)
		f := p.fields
		if len(f) != k+1 && len(f) != k+2 {
			return nil, syntaxf(p.lines.n, "%d fields in a %d-gram entry, want %d or %d (log10 prob, %d words, optional log10 back-off)",
				len(f), k, k+1, k+2, k)
		}
		prob, err := parseLog(f[0])
		if err != nil {
			return nil, syntaxf(p.lines.n, "log10 probability %q: %v", f[0], err)
		}
		if prob > 0 {
			return nil, syntaxf(p.lines.n, "log10 probability %q is positive", f[0])
		}
		var bow float32
		if len(f) == k+2 {
			if bow, err = parseLog(f[k+1]); err != nil {
				return nil, syntaxf(p.lines.n, "log10 back-off %q: %v", f[k+1], err)
			}
			if math.IsInf(float64(bow), 0) {
				return nil, syntaxf(p.lines.n, "log10 back-off %q is infinite", f[k+1])
			}
			if k == len(p.counts) && bow != 0 {
				return nil, syntaxf(p.lines.n, "a back-off weight on a %d-gram of the highest order", k)
			}
		}
		if err := add(f[1:k+1], prob, bow); err != nil {
			return nil, err
		}
	}
}

// unigrams reads the \1-grams: section and makes the vocabulary.
func (p *parser) unigrams() ([]byte, error) {
	var words []string
	var probs, bows []float32
	var lines []int32
	line, err := p.entries(1, func(w [][]byte, prob, bow float32) error {
		words = append(words, string(w[0]))
		probs, bows = append(probs, prob), append(bows, bow)
		lines = append(lines, int32(p.lines.n))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return line, p.unigramLevel(words, probs, bows, lines)
}

// unigramLevel makes the vocabulary of the unigrams' words (see
// vocabulary) and appends the unigram level, in id order, with the
// special words a model lacks given their conventional probabilities.
func (p *parser) unigramLevel(words []string, probs, bows []float32, lines []int32) error {
	if err := p.vocabulary(words, lines); err != nil {
		return err
	}
	g := &grams{n: 1, words: make([]int32, len(p.vocab)), prob: make([]float32, len(p.vocab)),
		bow: make([]float32, len(p.vocab)), line: make([]int32, len(p.vocab))}
	for i := range g.words {
		g.words[i] = int32(i)
		g.prob[i] = float32(math.NaN())
	}
	for i, w := range words {
		id := p.rawID[w]
		g.prob[id], g.bow[id], g.line[id] = probs[i], bows[i], lines[i]
	}
	for w, lp := range map[string]float32{SentenceStart: log10Never, SentenceEnd: log10Missing, UnknownWord: log10Missing} {
		if id, _ := slices.BinarySearch(p.vocab, w); math.IsNaN(float64(g.prob[id])) {
			g.prob[id] = lp
		}
	}
	p.levels = append(p.levels, g)
	return nil
}

// vocabulary maps the unigrams' words, adds the missing special words,
// and numbers them in byte order.
func (p *parser) vocabulary(raw []string, lines []int32) error {
	mapped := make(map[string]int, len(raw)+3) // mapped word → index in raw
	p.rawID = make(map[string]int32, len(raw))
	for i, w := range raw {
		if _, dup := p.rawID[w]; dup {
			return syntaxf(int(lines[i]), "duplicate unigram %q", w)
		}
		p.rawID[w] = 0
		m := w
		if p.mapWord != nil && w != SentenceStart && w != SentenceEnd && w != UnknownWord {
			m = p.mapWord(w)
		}
		if j, dup := mapped[m]; dup {
			return syntaxf(int(lines[i]), "words %q (line %d) and %q both map to %q", raw[j], lines[j], w, m)
		}
		mapped[m] = i
	}
	p.vocab = make([]string, 0, len(mapped)+3)
	for m := range mapped {
		p.vocab = append(p.vocab, m)
	}
	for _, w := range []string{SentenceStart, SentenceEnd, UnknownWord} {
		if _, ok := mapped[w]; !ok {
			p.vocab = append(p.vocab, w)
		}
	}
	slices.Sort(p.vocab)
	for id, m := range p.vocab {
		if i, ok := mapped[m]; ok {
			p.rawID[raw[i]] = int32(id)
		}
	}
	return nil
}

// section reads the \k-grams: section for k ≥ 2, whose header is line.
func (p *parser) section(k int, line []byte) ([]byte, error) {
	if want := fmt.Sprintf("\\%d-grams:", k); string(line) != want {
		return nil, syntaxf(p.lines.n, "got %q, want %s", line, want)
	}
	g := &grams{n: k}
	if c := min(p.counts[k-1], 1<<20); c > 0 { // a bad header must not make us allocate much
		g.words, g.prob, g.bow, g.line = make([]int32, 0, c*k), make([]float32, 0, c), make([]float32, 0, c), make([]int32, 0, c)
	}
	// Consecutive entries mostly share their first words: remember the
	// last line's words and ids to skip most map lookups.
	prev := make([][]byte, k)
	prevID := make([]int32, k)
	next, err := p.entries(k, func(words [][]byte, prob, bow float32) error {
		for j, w := range words {
			if bytes.Equal(w, prev[j]) && len(prev[j]) > 0 {
				g.words = append(g.words, prevID[j])
				continue
			}
			id, ok := p.rawID[string(w)]
			if !ok {
				return syntaxf(p.lines.n, "word %q of a %d-gram is not among the unigrams", w, k)
			}
			prev[j], prevID[j] = append(prev[j][:0], w...), id
			g.words = append(g.words, id)
		}
		g.prob = append(g.prob, prob)
		g.bow = append(g.bow, bow)
		g.line = append(g.line, int32(p.lines.n))
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.levels = append(p.levels, g)
	return next, nil
}

// parseLog parses a log10 value; NaN and +Inf are errors, −Inf (some
// tools write it for probability 0) is kept.
func parseLog(b []byte) (float32, error) {
	v, err := strconv.ParseFloat(string(b), 32)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) {
			err = ne.Err
		}
		return 0, err
	}
	if math.IsNaN(v) || math.IsInf(v, 1) {
		return 0, errors.New("not a finite number")
	}
	return float32(v), nil
}

// splitFields appends the space- or tab-separated fields of line to dst.
func splitFields(dst [][]byte, line []byte) [][]byte {
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if j > i {
			dst = append(dst, line[i:j])
		}
		i = j
	}
	return dst
}
