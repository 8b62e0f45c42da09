package metrics

// porterStem returns the stem of a lower-case English word by Porter's
// algorithm (M. F. Porter, An algorithm for suffix stripping, Program
// 14(3), 1980), in the revision of Porter's own reference implementation
// (tartarus.org/martin/PorterStemmer, the ANSI C version), which departs
// from the paper in two rules of step 2 ("bli" → "ble" instead of
// "abli" → "able", and the added "logi" → "log"); its published
// vocabulary and output lists are made with that version.
//
// Words of one or two letters are returned unchanged, and so is any word
// holding a byte other than a lower-case ASCII letter, a digit, a hyphen
// or an apostrophe (upper case, non-ASCII), which the algorithm is not
// defined for; hyphens, apostrophes and digits count as consonants, as in
// the C version.
func porterStem(w string) string {
	if len(w) <= 2 {
		return w
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '\'') {
			return w
		}
	}
	p := porter{b: []byte(w), k: len(w) - 1}
	p.step1ab()
	if p.k > 0 {
		p.step1c()
		p.step2()
		p.step3()
		p.step4()
		p.step5()
	}
	return string(p.b[:p.k+1])
}

// porter is the state of one stemming: the word b[0…k] and the offset j
// set by ends, as in the C reference.
type porter struct {
	b    []byte
	k, j int
}

// cons reports whether b[i] is a consonant.
func (p *porter) cons(i int) bool {
	switch p.b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !p.cons(i-1)
	}
	return true
}

// m measures the number of consonant sequences in b[0…j]: with [C] an
// optional consonant run and V a vowel run, b[0…j] is [C](VC)^m[V].
func (p *porter) m() int {
	n, i := 0, 0
	for {
		if i > p.j {
			return n
		}
		if !p.cons(i) {
			break
		}
		i++
	}
	i++
	for {
		for {
			if i > p.j {
				return n
			}
			if p.cons(i) {
				break
			}
			i++
		}
		i++
		n++
		for {
			if i > p.j {
				return n
			}
			if !p.cons(i) {
				break
			}
			i++
		}
		i++
	}
}

// vowelInStem reports whether b[0…j] contains a vowel.
func (p *porter) vowelInStem() bool {
	for i := 0; i <= p.j; i++ {
		if !p.cons(i) {
			return true
		}
	}
	return false
}

// doubleC reports whether b[i-1…i] is a double consonant.
func (p *porter) doubleC(i int) bool {
	return i >= 1 && p.b[i] == p.b[i-1] && p.cons(i)
}

// cvc reports whether b[i-2…i] is consonant-vowel-consonant with the
// last consonant not w, x or y (where a final e is restored or kept:
// cav(e), lov(e), hop(e), but snow, box, tray).
func (p *porter) cvc(i int) bool {
	if i < 2 || !p.cons(i) || p.cons(i-1) || !p.cons(i-2) {
		return false
	}
	switch p.b[i] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}

// ends reports whether b[0…k] ends with s, and if so sets j to the end of
// the stem before it.
func (p *porter) ends(s string) bool {
	n := len(s)
	if n > p.k+1 || string(p.b[p.k-n+1:p.k+1]) != s {
		return false
	}
	p.j = p.k - n
	return true
}

// setTo replaces b[j+1…k] with s.
func (p *porter) setTo(s string) {
	p.b = append(p.b[:p.j+1], s...)
	p.k = p.j + len(s)
}

// r replaces the suffix with s when the stem has m > 0.
func (p *porter) r(s string) {
	if p.m() > 0 {
		p.setTo(s)
	}
}

// step1ab removes plurals and -ed or -ing: caresses → caress, ponies →
// poni, cats → cat, feed → feed, agreed → agree, plastered → plaster,
// motoring → motor, sing → sing, hopping → hop, filing → file.
func (p *porter) step1ab() {
	if p.b[p.k] == 's' {
		switch {
		case p.ends("sses"):
			p.k -= 2
		case p.ends("ies"):
			p.setTo("i")
		case p.b[p.k-1] != 's':
			p.k--
		}
	}
	if p.ends("eed") {
		if p.m() > 0 {
			p.k--
		}
		return
	}
	if (p.ends("ed") || p.ends("ing")) && p.vowelInStem() {
		p.k = p.j
		switch {
		case p.ends("at"):
			p.setTo("ate")
		case p.ends("bl"):
			p.setTo("ble")
		case p.ends("iz"):
			p.setTo("ize")
		case p.doubleC(p.k):
			p.k--
			switch p.b[p.k] {
			case 'l', 's', 'z':
				p.k++
			}
		default:
			if p.m() == 1 && p.cvc(p.k) {
				p.setTo("e")
			}
		}
	}
}

// step1c turns a final y into i when there is another vowel in the stem.
func (p *porter) step1c() {
	if p.ends("y") && p.vowelInStem() {
		p.b[p.k] = 'i'
	}
}

// porterRule is one suffix replacement of steps 2 to 4.
type porterRule struct{ suffix, repl string }

// porterStep2 maps double suffixes to single ones, keyed by the
// penultimate letter of the suffix as in the C reference.
var porterStep2 = map[byte][]porterRule{
	'a': {{"ational", "ate"}, {"tional", "tion"}},
	'c': {{"enci", "ence"}, {"anci", "ance"}},
	'e': {{"izer", "ize"}},
	'l': {{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"}},
	'o': {{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}},
	's': {{"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"}, {"ousness", "ous"}},
	't': {{"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"}},
	'g': {{"logi", "log"}},
}

// step2 replaces double suffixes when m > 0: relational → relate,
// conditional → condition, digitizer → digitize, vietnamization →
// vietnamize.
func (p *porter) step2() {
	for _, rule := range porterStep2[p.b[p.k-1]] {
		if p.ends(rule.suffix) {
			p.r(rule.repl)
			return
		}
	}
}

// porterStep3 is keyed by the last letter of the suffix.
var porterStep3 = map[byte][]porterRule{
	'e': {{"icate", "ic"}, {"ative", ""}, {"alize", "al"}},
	'i': {{"iciti", "ic"}},
	'l': {{"ical", "ic"}, {"ful", ""}},
	's': {{"ness", ""}},
}

// step3 handles -ic-, -full, -ness: triplicate → triplic, formative →
// form, hopeful → hope, goodness → good.
func (p *porter) step3() {
	for _, rule := range porterStep3[p.b[p.k]] {
		if p.ends(rule.suffix) {
			p.r(rule.repl)
			return
		}
	}
}

// porterStep4 is keyed by the penultimate letter of the suffix; "ion" is
// special-cased in step4.
var porterStep4 = map[byte][]string{
	'a': {"al"},
	'c': {"ance", "ence"},
	'e': {"er"},
	'i': {"ic"},
	'l': {"able", "ible"},
	'n': {"ant", "ement", "ment", "ent"},
	'o': {"ion", "ou"},
	's': {"ism"},
	't': {"ate", "iti"},
	'u': {"ous"},
	'v': {"ive"},
	'z': {"ize"},
}

// step4 removes -ant, -ence etc. when m > 1: revival → reviv, allowance
// → allow, adoption → adopt (an -ion only after s or t).
func (p *porter) step4() {
	found := false
	for _, s := range porterStep4[p.b[p.k-1]] {
		if p.ends(s) {
			found = s != "ion" || p.j >= 0 && (p.b[p.j] == 's' || p.b[p.j] == 't')
			break
		}
	}
	if found && p.m() > 1 {
		p.k = p.j
	}
}

// step5 removes a final -e when m > 1 (or m = 1 and not *o), and turns
// -ll into -l when m > 1: probate → probat, rate → rate, cease → ceas,
// controll → control.
func (p *porter) step5() {
	p.j = p.k
	if p.b[p.k] == 'e' {
		a := p.m()
		if a > 1 || a == 1 && !p.cvc(p.k-1) {
			p.k--
		}
	}
	if p.b[p.k] == 'l' && p.doubleC(p.k) && p.m() > 1 {
		p.k--
	}
}
