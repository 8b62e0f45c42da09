package metrics_test

import (
	"fmt"
	"strings"

	"github.com/attend-go/attend/pipeline/metrics"
)

func ExampleWordErrors() {
	refs := []string{"this is the reference", "there is another one"}
	hyps := []string{"this is the prediction", "there is an other sample"}
	var wer, cer metrics.EditCounts
	for i := range refs {
		wer.Add(metrics.WordErrors(refs[i], hyps[i]))
		cer.Add(metrics.CharErrors(refs[i], hyps[i]))
	}
	fmt.Println("WER", wer)
	fmt.Println("CER", cer)
	// Output:
	// WER 50.00% (S 3, D 0, I 1 / 8)
	// CER 34.15% (S 9, D 0, I 5 / 41)
}

// ExampleAlign prints an sclite-style alignment listing.
func ExampleAlign() {
	ref := strings.Fields("the cat sat on the mat")
	hyp := strings.Fields("the cap sat down on the")
	counts, ops := metrics.Align(ref, hyp)
	var r, h, mark []string
	for _, op := range ops {
		rw, hw := "***", "***"
		if op.Ref >= 0 {
			rw = ref[op.Ref]
		}
		if op.Hyp >= 0 {
			hw = hyp[op.Hyp]
		}
		w := max(len(rw), len(hw))
		r = append(r, fmt.Sprintf("%-*s", w, rw))
		h = append(h, fmt.Sprintf("%-*s", w, hw))
		m := ""
		if op.Kind != metrics.Match {
			m = strings.ToUpper(op.Kind.String()[:1])
		}
		mark = append(mark, fmt.Sprintf("%-*s", w, m))
	}
	fmt.Println("REF:", strings.Join(r, " "))
	fmt.Println("HYP:", strings.Join(h, " "))
	fmt.Println("    ", strings.TrimRight(strings.Join(mark, " "), " "))
	fmt.Println("WER", counts)
	// Output:
	// REF: the cat sat ***  on the mat
	// HYP: the cap sat down on the ***
	//          S       I           D
	// WER 50.00% (S 1, D 1, I 1 / 6)
}
