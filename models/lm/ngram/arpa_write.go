package ngram

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// WriteARPA writes the model in the ARPA format: the \data\ header, one
// section per order with the n-grams in word-id order, and \end\. Numbers
// are log10 values in the shortest form that reads back as the same
// float32, so Read(WriteARPA(m)) scores exactly as m. Back-off weights of
// 0 are left out, as SRILM does.
func (m *Model) WriteARPA(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "\\data\\\n")
	for k := 1; k <= m.order; k++ {
		fmt.Fprintf(bw, "ngram %d=%d\n", k, m.NGrams(k))
	}
	var buf []byte
	for k := 1; k <= m.order; k++ {
		fmt.Fprintf(bw, "\n\\%d-grams:\n", k)
		m.eachNGram(k, k, func(x int32, words []int32) {
			buf = m.appendEntry(buf[:0], x, words)
			bw.Write(buf)
		})
	}
	bw.WriteString("\n\\end\\\n")
	return bw.Flush()
}

// appendEntry appends the ARPA line of node x, whose n-gram is words.
func (m *Model) appendEntry(buf []byte, x int32, words []int32) []byte {
	buf = strconv.AppendFloat(buf, float64(m.prob[x]), 'g', -1, 32)
	for i, w := range words {
		if i == 0 {
			buf = append(buf, '\t')
		} else {
			buf = append(buf, ' ')
		}
		buf = append(buf, m.vocab[w]...)
	}
	if m.bow[x] != 0 {
		buf = append(buf, '\t')
		buf = strconv.AppendFloat(buf, float64(m.bow[x]), 'g', -1, 32)
	}
	return append(buf, '\n')
}
