package metrics

import "testing"

// TestPorterStem checks the stemmer on the examples of Porter (1980), run
// through the whole algorithm (the paper lists them per step; the final
// stems are those of Porter's published output list), plus the words
// the implementation treats specially.
//
// Beyond this table, the stems of all 8,293 distinct words of the
// Flickr8k captions (after Tokenize) were compared once with
// github.com/blevesearch/go-porterstemmer v1.0.3: no difference.
func TestPorterStem(t *testing.T) {
	tests := []struct{ word, stem string }{
		// Step 1a
		{"caresses", "caress"}, {"ponies", "poni"}, {"ties", "ti"}, {"caress", "caress"}, {"cats", "cat"},
		// Step 1b
		{"feed", "feed"}, {"agreed", "agre"}, {"plastered", "plaster"}, {"bled", "bled"},
		{"motoring", "motor"}, {"sing", "sing"},
		{"conflated", "conflat"}, {"troubled", "troubl"}, {"sized", "size"}, {"hopping", "hop"},
		{"tanned", "tan"}, {"falling", "fall"}, {"hissing", "hiss"}, {"fizzed", "fizz"},
		{"failing", "fail"}, {"filing", "file"},
		// Step 1c
		{"happy", "happi"}, {"sky", "sky"},
		// Step 2
		{"relational", "relat"}, {"conditional", "condit"}, {"rational", "ration"},
		{"valenci", "valenc"}, {"hesitanci", "hesit"}, {"digitizer", "digit"},
		{"conformabli", "conform"}, {"radicalli", "radic"}, {"differentli", "differ"},
		{"vileli", "vile"}, {"analogousli", "analog"}, {"vietnamization", "vietnam"},
		{"predication", "predic"}, {"operator", "oper"}, {"feudalism", "feudal"},
		{"decisiveness", "decis"}, {"hopefulness", "hope"}, {"callousness", "callous"},
		{"formaliti", "formal"}, {"sensitiviti", "sensit"}, {"sensibiliti", "sensibl"},
		// Step 3
		{"triplicate", "triplic"}, {"formative", "form"}, {"formalize", "formal"},
		{"electriciti", "electr"}, {"electrical", "electr"}, {"hopeful", "hope"}, {"goodness", "good"},
		// Step 4
		{"revival", "reviv"}, {"allowance", "allow"}, {"inference", "infer"}, {"airliner", "airlin"},
		{"gyroscopic", "gyroscop"}, {"adjustable", "adjust"}, {"defensible", "defens"},
		{"irritant", "irrit"}, {"replacement", "replac"}, {"adjustment", "adjust"},
		{"dependent", "depend"}, {"adoption", "adopt"}, {"homologou", "homolog"},
		{"communism", "commun"}, {"activate", "activ"}, {"angulariti", "angular"},
		{"homologous", "homolog"}, {"effective", "effect"}, {"bowdlerize", "bowdler"},
		// Step 5
		{"probate", "probat"}, {"rate", "rate"}, {"cease", "ceas"}, {"controll", "control"}, {"roll", "roll"},
		// Several steps
		{"generalizations", "gener"}, {"oscillators", "oscil"},
		// Caption words
		{"running", "run"}, {"runs", "run"}, {"dogs", "dog"}, {"playing", "plai"}, {"played", "plai"},
		{"t-shirts", "t-shirt"},
		// Left alone: short, clitics, not lower-case ASCII
		{"is", "is"}, {"as", "as"}, {"'s", "'s"}, {"n't", "n't"}, {"Dogs", "Dogs"}, {"cafés", "cafés"}, {"", ""},
	}
	for _, tt := range tests {
		if got := porterStem(tt.word); got != tt.stem {
			t.Errorf("porterStem(%q) = %q, want %q", tt.word, got, tt.stem)
		}
	}
}

func FuzzPorterStem(f *testing.F) {
	for _, w := range []string{"generalizations", "oscillators", "agreed", "sses", "ies", "eed", "yyy", "a-b's", "bbbing"} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w string) {
		s := porterStem(w)
		if len(s) > len(w) { // every rule replaces a suffix by one no longer
			t.Fatalf("porterStem(%q) = %q grew", w, s)
		}
		if len(w) >= 3 && s == "" {
			t.Fatalf("porterStem(%q) is empty", w)
		}
	})
}
