package metrics_test

import (
	"fmt"
	"log"

	"github.com/attend-go/attend/pipeline/metrics"
)

func ExampleScoreCaptions() {
	refs := map[string][]string{
		"dog.jpg": {
			"A black dog runs through the grass.",
			"A dog is running on a lawn.",
			"The black dog is playing outside.",
		},
		"kids.jpg": {
			"Two children play in the snow.",
			"Kids playing in snow.",
			"Two kids are sledding down a snowy hill.",
		},
	}
	cands := map[string]string{
		"dog.jpg":  "A black dog is running on the grass.",
		"kids.jpg": "Two kids play in the snow.",
	}
	s, err := metrics.ScoreCaptions(cands, refs)
	if err != nil {
		log.Fatal(err)
	}
	// CIDEr-D's document frequencies come from the scored corpus: on two
	// images they make it far larger than on a real test set.
	fmt.Printf("BLEU-4 %.3f  METEOR %.3f  ROUGE-L %.3f  CIDEr-D %.3f\n", s.BLEU[3], s.METEOR, s.ROUGEL, s.CIDErD)
	// Output:
	// BLEU-4 0.595  METEOR 0.393  ROUGE-L 0.754  CIDEr-D 3.113
}

func ExampleTokenize() {
	fmt.Printf("%q\n", metrics.Tokenize(`The dog's "favorite" toy, a T-shirt... isn't it?`))
	// Output:
	// ["the" "dog" "'s" "favorite" "toy" "a" "t-shirt" "is" "n't" "it"]
}

// ExampleNewCIDErD scores sampled captions against their image's
// references with document frequencies from a fixed reference corpus, as
// self-critical training uses CIDEr-D as a reward.
func ExampleNewCIDErD() {
	train := [][][]string{
		{metrics.Tokenize("a dog runs on the grass"), metrics.Tokenize("a brown dog running")},
		{metrics.Tokenize("two kids play in the snow"), metrics.Tokenize("children in snow")},
		{metrics.Tokenize("a man rides a bike"), metrics.Tokenize("a cyclist on the road")},
	}
	scorer, err := metrics.NewCIDErD(train)
	if err != nil {
		log.Fatal(err)
	}
	for _, sample := range []string{"a brown dog runs on the grass", "a dog in the snow"} {
		r, err := scorer.Score(metrics.Tokenize(sample), train[0])
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-30s %.3f\n", sample, r)
	}
	// Output:
	// a brown dog runs on the grass  5.011
	// a dog in the snow              1.187
}
