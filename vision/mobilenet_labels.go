package vision

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"
)

// Prediction is one class of a classifier output.
type Prediction struct {
	Index int     // class index in the output
	Label string  // its label, "" when no labels were given
	Prob  float32 // its probability
}

// TopK returns the k most probable classes of probs, most probable first
// (ties in index order), labelled from labels when labels has an entry
// for the index. k is clipped to len(probs).
func TopK(probs []float32, labels []string, k int) []Prediction {
	k = min(max(k, 0), len(probs))
	idx := make([]int, len(probs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return probs[idx[a]] > probs[idx[b]] })
	out := make([]Prediction, k)
	for i := range out {
		j := idx[i]
		out[i] = Prediction{Index: j, Prob: probs[j]}
		if j < len(labels) {
			out[i].Label = labels[j]
		}
	}
	return out
}

// ReadLabels reads a label file: one label per line, line i (from 0)
// naming class i, as in the imagenet_labels.txt that accompanies the
// MobileNet TFLite models (1001 lines, "background" first). Trailing
// whitespace and a final empty line are dropped; an empty file is an error.
func ReadLabels(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("vision: labels: %w", err)
	}
	var labels []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		labels = append(labels, strings.TrimRight(sc.Text(), " \t\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("vision: labels %s: %w", path, err)
	}
	if len(labels) == 0 {
		return nil, fmt.Errorf("vision: labels %s: the file is empty", path)
	}
	return labels, nil
}
