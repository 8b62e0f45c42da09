package synth

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"

	"github.com/attend-go/attend/pipeline/speechdata"
)

// A Sentence is one line of text to render.
type Sentence struct {
	Text   string // what the engine reads
	Norm   string // the transcript, speechdata.Normalize(Text)
	Source string // "file:line", for messages
}

// TextOptions filter the sentences read. Zero fields mean no limit.
type TextOptions struct {
	MinWords int // fewer words are skipped
	MaxWords int // more words are skipped
	MaxChars int // longer transcripts (in bytes) are skipped
}

// Skip reasons counted by ReadSentences.
const (
	SkipDigits   = "digits"       // the engine reads numbers the transcript cannot spell
	SkipAcronym  = "acronym"      // all-capital words, spelled by some engines and read by others
	SkipLetter   = "letter"       // a lone letter other than a, i, o: read as its name ("n" as "en")
	SkipAbbrev   = "abbreviation" // "mr", "dr", "etc": read expanded ("mister")
	SkipSymbols  = "symbols"      // characters an engine reads aloud (&, %, @, …) or non-ASCII letters
	SkipTooShort = "too short"    // fewer than MinWords words
	SkipTooLong  = "too long"     // more than MaxWords words or MaxChars characters
)

// ReadSentences reads one sentence per line from r (named name in
// Sources), skipping blank lines and counting in skipped, by reason, the
// lines whose transcript would not match what an engine says.
func ReadSentences(r io.Reader, name string, o *TextOptions) (out []Sentence, skipped map[string]int, err error) {
	var opts TextOptions
	if o != nil {
		opts = *o
	}
	skipped = map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.Join(strings.Fields(typographic.Replace(sc.Text())), " ")
		if text == "" {
			continue
		}
		norm, reason := normalize(text)
		if reason == "" {
			n := len(strings.Fields(norm))
			switch {
			case n == 0:
				continue
			case opts.MinWords > 0 && n < opts.MinWords:
				reason = SkipTooShort
			case opts.MaxWords > 0 && n > opts.MaxWords, opts.MaxChars > 0 && len(norm) > opts.MaxChars:
				reason = SkipTooLong
			}
		}
		if reason != "" {
			skipped[reason]++
			continue
		}
		out = append(out, Sentence{Text: text, Norm: norm, Source: fmt.Sprintf("%s:%d", name, line)})
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("synth: %s: line %d: %w", name, line+1, err)
	}
	return out, skipped, nil
}

// typographic maps typographic punctuation to the ASCII an engine reads
// the same way.
var typographic = strings.NewReplacer("\u2018", "'", "\u2019", "'", "\u201c", `"`, "\u201d", `"`,
	"\u2013", "-", "\u2014", " - ", "\u2026", "...", "\u00a0", " ")

// silentPunct is the punctuation engines pause at but do not read aloud.
const silentPunct = ".,;:!?\"()-'`"

// normalize returns the transcript of text, speechdata.Normalize's (the
// form asr train scores against), or instead a skip reason when text holds
// something an engine says that the transcript would not match: digits
// (which Normalize spells one way and engines another), symbols an engine
// reads aloud, letters outside ASCII, all-capital words, lone letters and
// abbreviations.
func normalize(text string) (norm, reason string) {
	for _, w := range strings.Fields(text) {
		letters, upper := 0, 0
		for _, c := range w {
			if unicode.IsLetter(c) {
				letters++
				if unicode.IsUpper(c) {
					upper++
				}
			}
		}
		if upper >= 2 && upper == letters {
			return "", SkipAcronym
		}
	}
	for _, c := range text {
		switch {
		case c >= '0' && c <= '9':
			return "", SkipDigits
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == ' ', strings.ContainsRune(silentPunct, c):
		default:
			return "", SkipSymbols
		}
	}
	norm = speechdata.Normalize(text)
	for _, w := range strings.Fields(norm) {
		switch {
		case len(w) == 1 && w != "a" && w != "i" && w != "o":
			return "", SkipLetter
		case abbreviations[w]:
			return "", SkipAbbrev
		}
	}
	return norm, ""
}

// abbreviations are words engines read expanded.
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "jr": true, "sr": true,
	"st": true, "etc": true, "vs": true, "esq": true, "eg": true, "ie": true,
}

// Select removes sentences whose transcript repeats an earlier one and,
// when 0 < limit < the number left, keeps limit of them drawn uniformly
// at random with seed, in their original order. The draw uses its own
// PCG stream, apart from the per-clip plans.
func Select(sentences []Sentence, limit int, seed uint64) []Sentence {
	seen := make(map[string]bool, len(sentences))
	var uniq []Sentence
	for _, s := range sentences {
		if !seen[s.Norm] {
			seen[s.Norm] = true
			uniq = append(uniq, s)
		}
	}
	if limit <= 0 || limit >= len(uniq) {
		return uniq
	}
	r := rand.New(rand.NewPCG(seed, math.MaxUint64))
	idx := r.Perm(len(uniq))[:limit]
	slices.Sort(idx)
	out := make([]Sentence, limit)
	for i, j := range idx {
		out[i] = uniq[j]
	}
	return out
}
