package caption_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/caption"
)

// A vocabulary from tokenized training captions: the special tokens, then
// the words that occur at least twice, most frequent first.
func ExampleBuildVocab() {
	captions := [][]string{
		strings.Fields("a dog runs on the grass"),
		strings.Fields("a dog plays"),
		strings.Fields("the cat sleeps on a bed"),
	}
	v, err := caption.BuildVocab(captions, 2)
	if err != nil {
		panic(err)
	}
	fmt.Println(v.List())
	ids := v.Encode(strings.Fields("a dog sleeps"))
	fmt.Println(ids, v.Decode(append(ids, caption.End)))
	// Output:
	// [<pad> <start> <end> <unk> a dog on the]
	// [4 5 3] a dog <unk>
}

// Train a tiny decoder on three "images" of random annotations until it
// says their captions, then caption them with beam search.
func Example() {
	texts := []string{"a dog runs on grass", "a cat sits", "the man rides a bike"}
	var words [][]string
	for _, t := range texts {
		words = append(words, strings.Fields(t))
	}
	vocab, err := caption.BuildVocab(words, 1)
	if err != nil {
		panic(err)
	}
	cfg := caption.DefaultConfig()
	cfg.Regions, cfg.FeatureDim, cfg.Embed, cfg.Hidden, cfg.AttentionDim = 4, 8, 16, 32, 16
	cfg.Dropout = 0 // a true zero: no dropout
	m, err := caption.New(cfg, vocab, 1)
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	exs := make([]caption.Example, len(texts))
	for i := range exs {
		exs[i].Tokens = vocab.Encode(words[i])
		exs[i].Features = make([]float32, cfg.Regions*cfg.FeatureDim) // (L, D) from an image encoder
		for j := range exs[i].Features {
			exs[i].Features[j] = rng.Float32()
		}
	}

	tr := caption.NewTrainer(m, 1)
	buckets := models.NewBuckets(m.Params, tr.BuildLoss)
	defer buckets.Close()
	opt := models.NewAdam(m.Params, &models.AdamOptions{LR: 0.01})
	key := caption.KeyFor(exs, 4)
	batch, err := m.MakeBatch(key, exs)
	if err != nil {
		panic(err)
	}
	graph, err := buckets.Get(key)
	if err != nil {
		panic(err)
	}
	for range 300 {
		loss, err := tr.Run(graph, batch)
		if err != nil {
			panic(err)
		}
		if _, err := opt.Step(); err != nil {
			panic(err)
		}
		if loss.CrossEntropy < 0.01 {
			break
		}
	}

	var ws caption.Workspace
	for _, ex := range exs {
		hyps, err := m.Beam(&ws, ex.Features, 3, nil)
		if err != nil {
			panic(err)
		}
		best := hyps[0]
		fmt.Printf("%s (%d attention maps of %d regions)\n", strings.Join(best.Words, " "), len(best.Attention), len(best.Attention[0]))
	}
	// Output:
	// a dog runs on grass (5 attention maps of 4 regions)
	// a cat sits (3 attention maps of 4 regions)
	// the man rides a bike (5 attention maps of 4 regions)
}
