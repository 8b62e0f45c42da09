package speech

import (
	"math"
	"strings"
	"unicode"

	"github.com/attend-go/attend/pipeline/speechdata"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// MismatchScore is the ScriptScore below which a script probably does not
// match its audio (the wrong script, the wrong file, or a script that
// differs in many words): a mean of −1.5 nats per character, a geometric
// mean probability of 0.22 per character under the speller. Measured on
// testdata/hello.wav and 80 speechocean762 training utterances (children
// and adults, non-native: the hard case) with the default model, by
// TestAlignMatchScores: their own scripts score −0.22 to −1.81 (median
// −0.68; 2 of 81 below −1.5), another utterance's script −1.25 to
// −3.17 (median −1.94; 7 of 81 above −1.5), and a script with one of its
// three to six words replaced −0.59 to −2.22 (median −1.16; 16 of 80
// below). The score says how well the model hears the script, so audio
// it hears badly scores low whatever the script: isolated synthetic words
// joined by pauses (testdata/speech) score −1.73 with their own script,
// −1.88 with it reversed.
const MismatchScore = -1.5

// A scriptWord is one word of a script as written (white-space separated,
// with its punctuation), and the normalized words it was aligned as: "$5."
// is "five", "1999" is "nineteen ninety nine", "Dr." is "dr".
type scriptWord struct {
	text string
	norm []string
}

// scriptWords splits a script at white space into the words it shows,
// each with its normalized words (speechdata.Normalize of the word alone,
// which, since white space is a word boundary to Normalize, joins to the
// normalization of the whole text). A word that normalizes to nothing (a
// dash, a quote mark, a lone "!") joins a neighbour: the word after it
// when it opens something ("(", "“", "«") or starts the script, else the
// word before it. It returns nil when the script holds no word to align.
func scriptWords(text string) []scriptWord {
	var (
		out  []scriptWord
		lead []string // words with nothing to say, waiting for the next
	)
	for _, f := range strings.Fields(text) {
		norm := strings.Fields(speechdata.Normalize(f))
		switch {
		case len(norm) > 0:
			lead = append(lead, f)
			out = append(out, scriptWord{text: strings.Join(lead, " "), norm: norm})
			lead = lead[:0]
		case len(out) > 0 && !opens(f):
			out[len(out)-1].text += " " + f
		default:
			lead = append(lead, f)
		}
	}
	if len(lead) > 0 && len(out) > 0 {
		out[len(out)-1].text += " " + strings.Join(lead, " ")
	}
	return out
}

// opens says whether a word of punctuation opens a bracket or quotation.
func opens(word string) bool {
	for _, r := range word {
		if !unicode.In(r, unicode.Ps, unicode.Pi) {
			return false
		}
	}
	return true
}

// scriptBoundaries marks, for each of the n normalized words of words
// and the end (n+1 entries), whether a script word starts there: where
// the text may be cut between chunks without splitting a word as written.
func scriptBoundaries(words []scriptWord) []bool {
	var b []bool
	for _, w := range words {
		b = append(b, true)
		for range len(w.norm) - 1 {
			b = append(b, false)
		}
	}
	return append(b, true)
}

// scriptChunk replaces the normalized words of a chunk, timed, by the
// script words they came from, which it takes from the front of *script:
// a script word starts where its first normalized word starts and ends
// where its last one ends, and its confidence is the geometric mean over
// all their characters.
func scriptChunk(c *Chunk, script *[]scriptWord) {
	timed := c.Words
	c.Words = []speechmodel.Word{}
	var texts []string
	for len(timed) > 0 && len(*script) > 0 {
		sw := (*script)[0]
		*script = (*script)[1:]
		parts := timed[:min(len(sw.norm), len(timed))]
		timed = timed[len(parts):]
		var logP, chars float64
		for _, p := range parts {
			n := float64(len(p.Word))
			logP += n * math.Log(p.Confidence)
			chars += n
		}
		c.Words = append(c.Words, speechmodel.Word{Word: sw.text, Normalized: strings.Join(sw.norm, " "),
			Start: roundMs(parts[0].Start), End: roundMs(parts[len(parts)-1].End), Confidence: math.Exp(logP / chars)})
		texts = append(texts, sw.text)
	}
	c.Text = strings.Join(texts, " ")
}
