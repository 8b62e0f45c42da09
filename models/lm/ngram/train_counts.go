package ngram

import "slices"

// table holds distinct n-grams of one order, sorted by word ids, with a
// count each: words[i*n : i*n+n] is n-gram i.
type table struct {
	n     int
	words []int32
	count []int32
}

func (t *table) len() int            { return len(t.count) }
func (t *table) tuple(i int) []int32 { return t.words[i*t.n : i*t.n+t.n] }

// countTuples sorts the n-grams of flat (n words each) and counts the
// repeats.
func countTuples(flat []int32, n int) table {
	m := len(flat) / n
	perm := make([]int32, m)
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortFunc(perm, func(a, b int32) int {
		return slices.Compare(flat[int(a)*n:int(a)*n+n], flat[int(b)*n:int(b)*n+n])
	})
	t := table{n: n}
	for k, p := range perm {
		g := flat[int(p)*n : int(p)*n+n]
		if k > 0 && slices.Equal(g, t.tuple(t.len()-1)) {
			t.count[t.len()-1]++
			continue
		}
		t.words = append(t.words, g...)
		t.count = append(t.count, 1)
	}
	return t
}

// mergeTables merges two sorted tables of disjoint n-grams.
func mergeTables(a, b table) table {
	out := table{n: a.n, words: make([]int32, 0, len(a.words)+len(b.words)), count: make([]int32, 0, a.len()+b.len())}
	i, j := 0, 0
	for i < a.len() || j < b.len() {
		if j == b.len() || (i < a.len() && slices.Compare(a.tuple(i), b.tuple(j)) < 0) {
			out.words, out.count = append(out.words, a.tuple(i)...), append(out.count, a.count[i])
			i++
		} else {
			out.words, out.count = append(out.words, b.tuple(j)...), append(out.count, b.count[j])
			j++
		}
	}
	return out
}

// adjustedCounts returns, for k = 1 … order, the n-grams of order k of
// the sentences (word ids, each between <s> and </s>) with the counts
// Kneser-Ney estimates from (Chen & Goodman 1998 §2.7; KenLM's "adjusted
// counts"):
//
//	a(w_1…w_k) = c(w_1…w_k)          k = order, or w_1 = <s>
//	           = N1+(• w_1…w_k)      otherwise: the number of distinct
//	                                 words seen before it
//
// The unigram table has every word of a vocabulary of size V, in id order,
// with count 0 for those never seen after another word (<s>, maybe <unk>).
func adjustedCounts(sents [][]int32, order, V int) []table {
	raw := make([][]int32, order+1) // raw[k]: n-grams of order k with their full context
	for _, s := range sents {
		for i := 1; i < len(s); i++ {
			start := max(0, i-order+1)
			k := i + 1 - start
			raw[k] = append(raw[k], s[start:i+1]...)
		}
	}
	tables := make([]table, order+1)
	tables[order] = countTuples(raw[order], order)
	for k := order - 1; k >= 1; k-- {
		hi := tables[k+1]
		suffixes := make([]int32, 0, hi.len()*k)
		for i := 0; i < hi.len(); i++ {
			suffixes = append(suffixes, hi.tuple(i)[1:]...)
		}
		cont := countTuples(suffixes, k)
		if k > 1 {
			tables[k] = mergeTables(cont, countTuples(raw[k], k)) // raw[k] all start with <s>
			continue
		}
		uni := table{n: 1, words: make([]int32, V), count: make([]int32, V)}
		for w := range uni.words {
			uni.words[w] = int32(w)
		}
		for i := 0; i < cont.len(); i++ {
			uni.count[cont.words[i]] = cont.count[i]
		}
		tables[1] = uni
	}
	return tables
}

// countOfCounts returns n_r, the number of n-grams of t with count r, for
// r = 1 … 4 (index r).
func countOfCounts(t table) [5]int {
	var n [5]int
	for _, c := range t.count {
		if c >= 1 && c <= 4 {
			n[c]++
		}
	}
	return n
}

// discounts returns D_1, D_2, D_3+ of modified Kneser-Ney (Chen & Goodman
// 1998, eq. 26) from count-of-counts n:
//
//	Y = n_1 / (n_1 + 2 n_2)
//	D_1 = 1 − 2Y n_2/n_1,  D_2 = 2 − 3Y n_3/n_2,  D_3+ = 3 − 4Y n_4/n_3
//
// Where a count-of-count is 0 or an estimate falls outside (0, r), D_r
// falls back to Y (absolute discounting with Ney's estimate), or to 0.5
// where Y itself is undefined or not in (0, 1): small corpora make these
// holes, and KenLM refuses them.
func discounts(n [5]int) [4]float64 {
	Y := 0.5
	if n[1] > 0 && n[2] > 0 {
		if y := float64(n[1]) / float64(n[1]+2*n[2]); y > 0 && y < 1 {
			Y = y
		}
	}
	var D [4]float64
	for r := 1; r <= 3; r++ {
		D[r] = Y
		if n[r] > 0 && n[r+1] > 0 {
			d := float64(r) - float64(r+1)*Y*float64(n[r+1])/float64(n[r])
			if d > 0 && d < float64(r) {
				D[r] = d
			}
		}
	}
	return D
}

// discount returns D(c): D_1, D_2 or D_3+ for c ≥ 1, and 0 for c = 0.
func discount(D [4]float64, c int32) float64 {
	switch {
	case c <= 0:
		return 0
	case c >= 3:
		return D[3]
	default:
		return D[c]
	}
}
