package attention_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func ExampleMaskFromLengths() {
	mask, err := attention.MaskFromLengths([]int{3, 1}, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(mask)
	// Output: [1 1 1 0 1 0 0 0]
}

// An eager decoder loop: prepare the memory once, then step, alternating
// two States.
func ExampleAdditive() {
	const B, T, D, H, A = 1, 4, 3, 2, 5
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(1, 2)))
	att, err := attention.NewAdditive(ps, "speller.att", H, D, A)
	if err != nil {
		fmt.Println(err)
		return
	}
	memory := []float32{ // (B, T, D); the last frame is padding
		1, 0, 0,
		0, 1, 0,
		0, 0, 1,
		9, 9, 9,
	}
	mask, _ := attention.MaskFromLengths([]int{3}, T)
	keys, err := att.Prepare(memory, mask, B, T)
	if err != nil {
		fmt.Println(err)
		return
	}
	var s0, s1 attention.State
	prev, next := &s0, &s1
	for _, query := range [][]float32{{1, 0}, {0, 1}} { // (B, H) per step
		if err := att.Step(next, keys, query, prev); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("step %d: weights %.3f context %.3f\n", next.Steps, next.Weights, next.Context)
		prev, next = next, prev
	}
	// Output:
	// step 1: weights [0.336 0.261 0.404 0.000] context [0.336 0.261 0.404]
	// step 2: weights [0.333 0.292 0.376 0.000] context [0.333 0.292 0.376]
}

// A training graph: the steps' weights feed the doubly stochastic penalty.
func ExampleLocationAware_StepNode() {
	const B, T, D, H, A, S = 2, 5, 3, 4, 6, 3
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(3, 4)))
	att, err := attention.NewLocationAware(ps, "att", H, D, A, &attention.LocationOptions{Filters: 2, Width: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	g := gorgonia.NewGraph()
	b := ps.Bind(g)
	memory := gorgonia.NewTensor(g, tensor.Float32, 3, gorgonia.WithShape(B, T, D), gorgonia.WithName("memory"), gorgonia.WithInit(gorgonia.Ones()))
	maskT, _ := attention.MaskTensor(tensor.Float32, []int{5, 2}, T)
	mask := gorgonia.NodeFromAny(g, maskT, gorgonia.WithName("mask"))
	keys, err := att.PrepareNodes(b, memory, mask)
	if err != nil {
		fmt.Println(err)
		return
	}
	var prev attention.StateNodes
	var weights []*gorgonia.Node
	for i := 0; i < S; i++ {
		query := gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(B, H), gorgonia.WithName(fmt.Sprint("query", i)), gorgonia.WithInit(gorgonia.Ones()))
		next, err := att.StepNode(b, keys, query, prev)
		if err != nil {
			fmt.Println(err)
			return
		}
		weights = append(weights, next.Weights)
		prev = next
	}
	stacked, _ := attention.StackWeights(weights)
	steps := gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(B, S), gorgonia.WithName("steps"), gorgonia.WithInit(gorgonia.Ones()))
	penalty, err := attention.DoublyStochastic(stacked, steps, mask, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("context", prev.Context.Shape(), "weights", prev.Weights.Shape(), "stacked", stacked.Shape(), "penalty", penalty.Shape())
	// Output: context (2, 3) weights (2, 5) stacked (2, 3, 5) penalty ()
}

func ExampleNewMultiHead() {
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(1, 1)))
	_, err := attention.NewMultiHead(ps, "att", 256, 512, 256, 3)
	fmt.Println(err)
	// Output: attention: MultiHead "att": model width 256 is not divisible by 3 heads: invalid configuration
}

// Adaptive attention: the query is the decoder state and a sentinel side
// by side; the sentinel weight says how much of the context came from the
// sentinel rather than the memory.
func ExampleAdaptive() {
	const B, T, D, H, S, A = 1, 3, 2, 2, 2, 4
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(1, 2)))
	att, err := attention.NewAdaptive(ps, "att", H, S, D, A)
	if err != nil {
		fmt.Println(err)
		return
	}
	memory := []float32{1, 0, 0, 1, 1, 1} // (B, T, D)
	keys, err := att.Prepare(memory, nil, B, T)
	if err != nil {
		fmt.Println(err)
		return
	}
	var s0, s1 attention.State
	query := []float32{0.5, -0.5, 2, 2} // [h | s] (B, H+S)
	if err := att.Step(&s1, keys, query, &s0); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("weights %.3f (sum 1), sentinel %.3f, context %.3f\n", s1.Weights, s1.Sentinel, s1.Context)
	// Output: weights [0.336 0.292 0.372] (sum 1), sentinel [0.367], context [-1.134 1.323]
}
