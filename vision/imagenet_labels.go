package vision

import (
	_ "embed"
	"strings"
	"sync"
)

// imageNetLabels is imagenet_labels.txt of the TensorFlow Lite MobileNet
// models (Apache-2.0, as the models): line i names output class i, 1001
// lines, "background" first, each label its WordNet synonyms separated
// by commas ("tench, Tinca tinca").
//
//go:embed imagenet_labels.txt
var imageNetLabels string

var imageNetOnce = sync.OnceValue(func() []string {
	return strings.Split(strings.TrimRight(imageNetLabels, "\n"), "\n")
})

// ImageNetLabels returns the labels of the 1001 classes of the MobileNet
// classifiers' output (Classify, Encode): index 0 "background", then the
// 1000 ImageNet classes, each as its synonyms separated by commas. The
// slice is shared: do not modify it.
func ImageNetLabels() []string { return imageNetOnce() }

// ShortLabel returns a label's first synonym: "tench" for "tench, Tinca
// tinca".
func ShortLabel(label string) string {
	if i := strings.IndexByte(label, ','); i >= 0 {
		return label[:i]
	}
	return label
}
