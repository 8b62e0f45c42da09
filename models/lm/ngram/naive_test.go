package ngram

import (
	"math"
	"strconv"
	"strings"
)

// naive is a textbook back-off model over maps, the reference the trie
// is tested against.
type naive struct {
	order     int
	prob, bow map[string]float64 // n-gram "w1 w2 …" → log10
}

// parseNaive reads a well-formed ARPA text.
func parseNaive(text string) *naive {
	n := &naive{prob: map[string]float64{}, bow: map[string]float64{}}
	section := 0
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case strings.HasPrefix(f[0], `\`) && strings.HasSuffix(f[0], "-grams:"):
			section, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(f[0], `\`), "-grams:"))
			n.order = max(n.order, section)
		case f[0] == `\end\`:
			section = 0
		case section > 0:
			key := strings.Join(f[1:1+section], " ")
			n.prob[key], _ = strconv.ParseFloat(f[0], 64)
			if len(f) > section+1 {
				n.bow[key], _ = strconv.ParseFloat(f[section+1], 64)
			}
		}
	}
	if _, ok := n.prob[UnknownWord]; !ok {
		n.prob[UnknownWord] = log10Missing // as KenLM (and Load) add it
	}
	return n
}

// logp returns log10 p(w | history) by the back-off rule, with the
// history cut to order−1 words; an unknown w scores as <unk>.
func (n *naive) logp(history []string, w string) float64 {
	if _, ok := n.prob[w]; !ok {
		w = UnknownWord
	}
	if len(history) > n.order-1 {
		history = history[len(history)-(n.order-1):]
	}
	for i := range history {
		if _, ok := n.prob[history[i]]; !ok {
			history[i] = UnknownWord
		}
	}
	return n.backoff(history, w)
}

func (n *naive) backoff(h []string, w string) float64 {
	key := strings.Join(append(append([]string(nil), h...), w), " ")
	if p, ok := n.prob[key]; ok {
		return p
	}
	if len(h) == 0 {
		return math.Inf(-1)
	}
	return n.bow[strings.Join(h, " ")] + n.backoff(h[1:], w)
}

// sentence returns log10 p(<s> words </s>).
func (n *naive) sentence(words []string) float64 {
	h := []string{SentenceStart}
	total := 0.0
	for _, w := range append(append([]string(nil), words...), SentenceEnd) {
		total += n.logp(append([]string(nil), h...), w)
		h = append(h, w)
	}
	return total
}
