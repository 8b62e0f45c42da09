package ngram_test

import (
	"fmt"
	"log"
	"math"
	"os"
	"strings"

	"github.com/attend-go/attend/models/lm/ngram"
)

func ExampleTrain() {
	text := [][]string{
		strings.Fields("the cat sat"),
		strings.Fields("the cat ran"),
		strings.Fields("a dog sat"),
	}
	m, err := ngram.Train(text, &ngram.TrainOptions{Order: 3})
	if err != nil {
		log.Fatal(err)
	}
	lp, oovs := m.Log10Prob(strings.Fields("the cat sat"))
	fmt.Printf("%d words, log10 p(the cat sat) = %.3f, %d OOVs\n", len(m.Words()), lp, oovs)
	r := m.Perplexity([][]string{strings.Fields("the dog sat")})
	fmt.Printf("perplexity %.2f\n", r.Perplexity)
	// Output:
	// 9 words, log10 p(the cat sat) = -0.951, 0 OOVs
	// perplexity 3.74
}

func ExampleModel_Score() {
	m, err := ngram.Load("testdata/turtle.arpa", nil)
	if err != nil {
		log.Fatal(err)
	}
	s, total := m.Begin(), float32(0)
	for _, w := range strings.Fields("go forward ten meters") {
		id, _ := m.ID(w)
		var lp float32
		lp, s = m.Score(s, id)
		total += lp
	}
	total += m.End(s)
	fmt.Printf("log10 p = %.4f\n", total/math.Ln10)
	// Output:
	// log10 p = -3.4960
}

func ExampleModel_LookAhead() {
	m, err := ngram.Load("testdata/turtle.arpa", nil)
	if err != nil {
		log.Fatal(err)
	}
	// The words spelled "f…" are one id range.
	words := m.Words()
	lo, hi := ngram.WordID(-1), ngram.WordID(0)
	for i, w := range words {
		if strings.HasPrefix(w, "f") {
			if lo < 0 {
				lo = ngram.WordID(i)
			}
			hi = ngram.WordID(i + 1)
		}
	}
	_, s := m.Score(m.Begin(), mustID(m, "go"))
	fmt.Printf("%s … %s: best ln p ≤ %.3f\n", words[lo], words[hi-1], m.LookAhead(s, lo, hi))
	lp, _ := m.Score(s, mustID(m, "forward"))
	fmt.Printf("ln p(forward | <s> go) = %.3f\n", lp)
	// Output:
	// fifteen … fourteen: best ln p ≤ -1.386
	// ln p(forward | <s> go) = -1.386
}

func mustID(m *ngram.Model, w string) ngram.WordID {
	id, ok := m.ID(w)
	if !ok {
		log.Fatalf("no word %q", w)
	}
	return id
}

func ExampleModel_WriteARPA() {
	m, err := ngram.Train([][]string{{"hello", "world"}}, &ngram.TrainOptions{Order: 2})
	if err != nil {
		log.Fatal(err)
	}
	if err := m.WriteARPA(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// \data\
	// ngram 1=5
	// ngram 2=3
	//
	// \1-grams:
	// -0.5351132	</s>
	// -99	<s>	-0.30103
	// -0.90309	<unk>
	// -0.5351132	hello	-0.30103
	// -0.5351132	world	-0.30103
	//
	// \2-grams:
	// -0.18987954	<s> hello
	// -0.18987954	hello world
	// -0.18987954	world </s>
	//
	// \end\
}
