// Command parity writes the reference values that prove bench/pytorch's
// twins compute our functions, not merely functions of the same size.
//
// Usage:
//
//	go run ./bench/parity -o FILE
//	/usr/bin/python3 bench/pytorch/parity.py FILE
//
// It builds the benchmarked models with their benchmark sizes (the decoder
// of BenchmarkDecoderTrainStep: V=30, E=64, H=D=A=256; the listener of
// BenchmarkBiLSTMTrainStep: 80 inputs, 256 units per direction, 2 layers),
// runs them on small random batches with padding, and writes one
// safetensors file (safetensors.WriteFile) holding:
//
//	<param name>           every parameter, as ours stores it
//	grad.<param name>      its gradient from one run of the training graph
//	dec.*                  teacher-forced decoder inputs (B=3, T=9, S=5,
//	                       memory lengths 9, 4, 7; target lengths 5, 2, 4)
//	                       and loss, the benchmark's graph: PrepareNodes,
//	                       Unroll, CrossEntropy
//	step.*                 eager decoder: masked memory (B=2, T=9, lengths
//	                       9, 5), tokens and logits of 3 Speller.Step calls
//	lis.*                  listener input (B=2, T=9, lengths 9, 6), the
//	                       fixed R of the loss Σ y⊙R, the loss, and the
//	                       eager output y (B, 5, 512)
//
// parity.py loads the parameters into the PyTorch twins (converting weight
// layout and gate order), recomputes every output and gradient and reports
// the largest relative difference.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/safetensors"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

var errUsage = errors.New("parity: usage")

// Sizes of the benchmarked models.
const (
	decV, decE, decH, decD, decA = 30, 64, 256, 256, 256
	lisI, lisH, lisLayers        = 80, 256, 2
)

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("parity", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "output safetensors file (required)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: parity -o FILE")
		return errUsage
	}
	f := &safetensors.File{Kind: "attend-bench-parity"}
	for _, part := range []func(*safetensors.File) error{decoderParity, listenerParity} {
		if err := part(f); err != nil {
			return fmt.Errorf("parity: %w", err)
		}
	}
	if err := safetensors.WriteFile(*out, f, safetensors.F32); err != nil {
		return fmt.Errorf("parity: %w", err)
	}
	fmt.Fprintf(stdout, "parity: wrote %d tensors to %s\n", len(f.Tensors), *out)
	return nil
}

// add appends a tensor to f.
func add(f *safetensors.File, name string, data []float32, shape ...int) {
	f.Tensors = append(f.Tensors, safetensors.Tensor{Name: name, Shape: shape, Data: data})
}

// addParams appends every parameter and, with grads, its gradient.
func addParams(f *safetensors.File, ps *models.Params, grads bool) {
	for _, p := range ps.All() {
		add(f, p.Name, append([]float32(nil), p.F32()...), p.Shape()...)
		if grads {
			add(f, "grad."+p.Name, append([]float32(nil), p.Grad.Data().([]float32)...), p.Shape()...)
		}
	}
}

func normals(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return x
}

// maskOf is the (B, T) mask of 1 for t < lengths[b], else 0.
func maskOf(lengths []int, T int) []float32 {
	m := make([]float32, len(lengths)*T)
	for b, n := range lengths {
		for t := range n {
			m[b*T+t] = 1
		}
	}
	return m
}

func ints2floats(x []int) []float32 {
	f := make([]float32, len(x))
	for i, v := range x {
		f[i] = float32(v)
	}
	return f
}

func newDecoder(ps *models.Params) (*asr.Speller, error) {
	att, err := attention.NewAdditive(ps, "dec.att", decH, decD, decA)
	if err != nil {
		return nil, err
	}
	return asr.NewSpeller(ps, "dec", asr.SpellerConfig{Vocab: decV, Embed: decE, Hidden: decH}, att)
}

// decoderParity adds the decoder's parameters, one training run's loss and
// gradients, and three eager steps.
func decoderParity(f *safetensors.File) error {
	r := rand.New(rand.NewPCG(7, 7))
	ps := models.NewParams(tensor.Float32, r)
	dec, err := newDecoder(ps)
	if err != nil {
		return err
	}

	// Teacher-forced training graph, built as BenchmarkDecoderTrainStep does.
	const B, T, S = 3, 9, 5
	memLens, tgtLens := []int{9, 4, 7}, []int{5, 2, 4}
	memory, mask := normals(r, B*T*decD), maskOf(memLens, T)
	decIn, targets := make([]int, S*B), make([]int, S*B)
	weights := make([]float32, S*B)
	tokens := 0
	for _, n := range tgtLens {
		tokens += n
	}
	for b, n := range tgtLens {
		prev := 0
		for i := range S {
			decIn[i*B+b], targets[i*B+b] = models.PadID, models.PadID
			if i < n {
				c := r.IntN(decV)
				decIn[i*B+b], targets[i*B+b], weights[i*B+b] = prev, c, 1/float32(tokens)
				prev = c
			}
		}
	}
	type inputs struct{ memory, mask, decIn, targets, weights *gorgonia.Node }
	bs := models.NewBuckets(ps, func(g *gorgonia.ExprGraph, bd *models.Binding, _ struct{}) (*gorgonia.Node, inputs, error) {
		dt := tensor.Float32
		in := inputs{
			memory:  gorgonia.NewTensor(g, dt, 3, gorgonia.WithShape(B, T, decD), gorgonia.WithName("memory")),
			mask:    gorgonia.NewMatrix(g, dt, gorgonia.WithShape(B, T), gorgonia.WithName("mask")),
			decIn:   gorgonia.NewMatrix(g, dt, gorgonia.WithShape(S, B), gorgonia.WithName("dec_in")),
			targets: gorgonia.NewVector(g, dt, gorgonia.WithShape(S*B), gorgonia.WithName("targets")),
			weights: gorgonia.NewVector(g, dt, gorgonia.WithShape(S*B), gorgonia.WithName("weights")),
		}
		keys, err := dec.Attention.PrepareNodes(bd, in.memory, in.mask)
		if err != nil {
			return nil, in, err
		}
		u, err := dec.Unroll(bd, keys, in.decIn)
		if err != nil {
			return nil, in, err
		}
		loss, err := models.CrossEntropy(u.Logits, in.targets, in.weights, 0)
		return loss, in, err
	})
	defer bs.Close()
	gr, err := bs.Get(struct{}{})
	if err != nil {
		return err
	}
	for _, l := range []struct {
		n *gorgonia.Node
		v *tensor.Dense
	}{
		{gr.Inputs.memory, models.FloatTensor(tensor.Float32, memory, B, T, decD)},
		{gr.Inputs.mask, models.FloatTensor(tensor.Float32, mask, B, T)},
		{gr.Inputs.decIn, models.IntTensor(tensor.Float32, decIn, S, B)},
		{gr.Inputs.targets, models.IntTensor(tensor.Float32, targets, S*B)},
		{gr.Inputs.weights, models.FloatTensor(tensor.Float32, weights, S*B)},
	} {
		if err := gorgonia.Let(l.n, l.v); err != nil {
			return err
		}
	}
	ps.ZeroGrads()
	loss, err := gr.Run()
	if err != nil {
		return err
	}
	addParams(f, ps, true)
	add(f, "dec.memory", memory, B, T, decD)
	add(f, "dec.mem_lengths", ints2floats(memLens), B)
	add(f, "dec.dec_in", ints2floats(decIn), S, B)
	add(f, "dec.targets", ints2floats(targets), S*B)
	add(f, "dec.loss", []float32{float32(loss)}, 1)

	// Eager steps over a masked memory.
	const sB, steps = 2, 3
	stepLens := []int{9, 5}
	stepMem := normals(r, sB*T*decD)
	keys, err := dec.Attention.Prepare(stepMem, maskOf(stepLens, T), sB, T)
	if err != nil {
		return err
	}
	var ws asr.SpellerWorkspace
	cur, next := dec.Start(sB), dec.Start(sB)
	stepTokens := make([]int, steps*sB)
	var logits []float32
	for i := range steps {
		toks := stepTokens[i*sB : (i+1)*sB]
		for b := range toks {
			toks[b] = r.IntN(decV)
		}
		l, err := dec.Step(&ws, next, cur, keys, toks)
		if err != nil {
			return err
		}
		logits = append(logits, l...)
		cur, next = next, cur
	}
	add(f, "step.memory", stepMem, sB, T, decD)
	add(f, "step.mem_lengths", ints2floats(stepLens), sB)
	add(f, "step.tokens", ints2floats(stepTokens), steps, sB)
	add(f, "step.logits", logits, steps, sB, decV)
	return nil
}

// listenerParity adds the listener's parameters, its eager output and one
// training run's loss Σ y⊙R and gradients, built as
// BenchmarkBiLSTMTrainStep does.
func listenerParity(f *safetensors.File) error {
	const B, T = 2, 9
	lengths := []int{9, 6}
	r := rand.New(rand.NewPCG(8, 8))
	ps := models.NewParams(tensor.Float32, r)
	lis := models.NewPyramidalBiLSTM(ps, "listener", lisI, lisH, lisLayers)
	T2 := lis.OutputLength(T)
	x, R := normals(r, B*T*lisI), normals(r, B*T2*2*lisH)

	var ws models.LSTMWorkspace
	y, _, _, err := lis.Forward(&ws, nil, x, B, T, lengths)
	if err != nil {
		return err
	}

	type inputs struct{ x, lengths *gorgonia.Node }
	bs := models.NewBuckets(ps, func(g *gorgonia.ExprGraph, bd *models.Binding, _ struct{}) (*gorgonia.Node, inputs, error) {
		in := inputs{
			x:       gorgonia.NewTensor(g, tensor.Float32, 3, gorgonia.WithShape(B, T, lisI), gorgonia.WithName("x")),
			lengths: gorgonia.NewVector(g, tensor.Float32, gorgonia.WithShape(B), gorgonia.WithName("lengths")),
		}
		out, _, err := lis.Apply(bd, in.x, in.lengths)
		if err != nil {
			return nil, in, err
		}
		p := gorgonia.NodeFromAny(g, models.FloatTensor(tensor.Float32, R, B, T2, 2*lisH), gorgonia.WithName("R"))
		prod, err := gorgonia.HadamardProd(out, p)
		if err != nil {
			return nil, in, err
		}
		loss, err := gorgonia.Sum(prod)
		return loss, in, err
	})
	defer bs.Close()
	gr, err := bs.Get(struct{}{})
	if err != nil {
		return err
	}
	if err := gorgonia.Let(gr.Inputs.x, models.FloatTensor(tensor.Float32, x, B, T, lisI)); err != nil {
		return err
	}
	if err := gorgonia.Let(gr.Inputs.lengths, models.IntTensor(tensor.Float32, lengths, B)); err != nil {
		return err
	}
	ps.ZeroGrads()
	loss, err := gr.Run()
	if err != nil {
		return err
	}
	addParams(f, ps, true)
	add(f, "lis.x", x, B, T, lisI)
	add(f, "lis.lengths", ints2floats(lengths), B)
	add(f, "lis.r", R, B, T2, 2*lisH)
	add(f, "lis.loss", []float32{float32(loss)}, 1)
	add(f, "lis.y", y, B, T2, 2*lisH)
	return nil
}
