package captioning

import (
	"context"
	"fmt"
	"testing"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/captiondata"
)

// benchModel is a model of the default size (E 256, H 512, A 256, a
// Flickr8k-sized vocabulary of 2,541 tokens) on the 7×7×1280 grid; its
// weights are random, which does not change the work of a step. Search
// runs to the full 30 words when no End comes, so the timings are of the
// longest captions.
func benchModel(b *testing.B) *caption.Model {
	words := []string{"<pad>", "<start>", "<end>", "<unk>"}
	for i := len(words); i < 2541; i++ {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	v, err := caption.NewVocab(words)
	if err != nil {
		b.Fatal(err)
	}
	m, err := caption.New(caption.Config{}, v, 1)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkDescribe times captioning one image from its features (no
// encoder) with greedy search and beam search of width 3 and 5.
func BenchmarkDescribe(b *testing.B) {
	for _, k := range []int{1, 3, 5} {
		b.Run(fmt.Sprintf("beam%d", k), func(b *testing.B) { benchDescribe(b, k) })
	}
}

func benchDescribe(b *testing.B, k int) {
	m := benchModel(b)
	c, err := captiondata.OpenCache(fixtureCache)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	feats, err := c.Features(0, nil)
	if err != nil {
		b.Fatal(err)
	}
	capt := &Captioner{Model: m, grid: captiondata.GridChoices[0], o: CaptionerOptions{Beam: k}}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := capt.Describe(feats); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeSet times greedy search over the six fixture images
// batched, as dev scoring runs it; ns/op is per image set.
func BenchmarkDecodeSet(b *testing.B) {
	m := benchModel(b)
	c, err := captiondata.OpenCache(fixtureCache)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	images, err := captiondata.Read(fixtureDir, "", "")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := decodeSet(context.Background(), m, c, images, 1, 1, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}
