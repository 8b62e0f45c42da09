package speech_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechdata"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

var alignManifest = flag.String("align.manifest", "", "speech manifest for the script-match measurement (skipped when empty)")

// TestAlignMatchScores is the measurement behind MismatchScore: it aligns
// 80 utterances of a manifest (evenly spaced in it) and testdata/hello.wav
// with their own scripts, with another utterance's script, and with one
// word of their script replaced, and prints the spread of two scores of
// each kind: the mean log-probability per character (ScriptScore, the one
// kept) and the share of words of confidence below 0.2. It reads real
// speech, so it runs only when given a manifest:
//
//	go test ./pipeline/speech -run TestAlignMatchScores -v -align.manifest ../shared/data/speechocean762/train.tsv
func TestAlignMatchScores(t *testing.T) {
	if *alignManifest == "" {
		t.Skip("needs -align.manifest")
	}
	utts, err := speechdata.Read(*alignManifest)
	if err != nil {
		t.Fatal(err)
	}
	model, err := speechmodel.OpenModel("")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := speech.NewTranscriber(speechmodel.NewLAS(model, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	var picked []speechdata.Utterance
	for i := 0; i < len(utts) && len(picked) < 80; i += len(utts) / 80 {
		picked = append(picked, utts[i])
	}
	score := func(path, text string) (float64, float64) {
		tt, err := tr.Align(path, nil, text)
		if err != nil {
			t.Fatal(err)
		}
		var low, words int
		for _, c := range tt.Chunks {
			for _, w := range c.Words {
				words++
				if w.Confidence < 0.2 {
					low++
				}
			}
		}
		return tt.ScriptScore, float64(low) / float64(words)
	}
	kinds := []string{"matched", "one word wrong", "other script"}
	res := map[string][][2]float64{}
	add := func(k, path, text string) {
		a, b := score(path, text)
		res[k] = append(res[k], [2]float64{a, b})
	}
	hello := filepath.Join("..", "..", "testdata", "hello.wav")
	add("matched", hello, "The quick brown fox jumps over the lazy dog.")
	add("other script", hello, picked[0].Text)
	for i, u := range picked {
		other := picked[(i+len(picked)/2)%len(picked)].Text
		add("matched", u.Path, u.Text)
		add("other script", u.Path, other)
		w := strings.Fields(u.Text)
		ow := strings.Fields(other)
		if len(w) > 1 {
			w[len(w)/2] = ow[len(ow)/2]
			add("one word wrong", u.Path, strings.Join(w, " "))
		}
	}
	for _, k := range kinds {
		for j, name := range []string{"mean log p per char", "share of words < 0.2"} {
			var v []float64
			for _, r := range res[k] {
				v = append(v, r[j])
			}
			slices.Sort(v)
			q := func(p float64) float64 { return v[int(p*float64(len(v)-1))] }
			fmt.Printf("%-15s %-22s n=%d min %.3f p5 %.3f p25 %.3f p50 %.3f p75 %.3f p95 %.3f max %.3f\n", k, name, len(v), v[0], q(.05), q(.25), q(.5), q(.75), q(.95), v[len(v)-1])
		}
	}
}
