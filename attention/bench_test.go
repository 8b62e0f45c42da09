package attention

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Benchmark shapes (DESIGN.md "Compute strategy"): memory length T, widths
// D = H = A.
const benchT, benchDim = 100, 256

// BenchmarkAttentionStepEager times the attention part of one eager decoder step.
func BenchmarkAttentionStepEager(b *testing.B) {
	builds := []struct {
		name  string
		build func(ps *models.Params) (Mechanism, error)
	}{
		{"Additive", func(ps *models.Params) (Mechanism, error) {
			return NewAdditive(ps, "att", benchDim, benchDim, benchDim)
		}},
		{"LocationAware", func(ps *models.Params) (Mechanism, error) {
			return NewLocationAware(ps, "att", benchDim, benchDim, benchDim, nil)
		}},
	}
	for _, bc := range builds {
		for _, batch := range []int{1, 8} {
			b.Run(fmt.Sprintf("%s/B=%d", bc.name, batch), func(b *testing.B) {
				benchEagerStep(b, bc.build, batch)
			})
		}
	}
}

// benchEagerStep times one eager attention step over a prepared memory,
// alternating two States as a decoder does.
func benchEagerStep(b *testing.B, build func(ps *models.Params) (Mechanism, error), batch int) {
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(1, 2)))
	m, err := build(ps)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	keys, err := m.Prepare(f32s(uniform(r, batch*benchT*benchDim, 1)), nil, batch, benchT)
	if err != nil {
		b.Fatal(err)
	}
	query := f32s(uniform(r, batch*benchDim, 1))
	var s0, s1 State
	prev, next := &s0, &s1
	for range 2 { // grow the States
		if err := m.Step(next, keys, query, prev); err != nil {
			b.Fatal(err)
		}
		prev, next = next, prev
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := m.Step(next, keys, query, prev); err != nil {
			b.Fatal(err)
		}
		prev, next = next, prev
	}
}

// BenchmarkAttentionStepTrain times forward and backward of one training
// step of attention at B = 32 through a gorgonia graph: the fused score
// kernel and the context kernel ("fused"), their location-aware version,
// and, for comparison, the same additive step built from stock gorgonia
// ops ("stock"). The memory projection (once per batch) is not included.
func BenchmarkAttentionStepTrain(b *testing.B) {
	for _, variant := range []string{"fused", "fused-location", "stock"} {
		b.Run(variant, func(b *testing.B) { benchTrainStep(b, variant, 32) })
	}
}

func benchTrainStep(b *testing.B, variant string, batch int) {
	const T, D, A = benchT, benchDim, benchDim
	r := rand.New(rand.NewPCG(5, 6))
	g := gorgonia.NewGraph()
	node := func(name string, scale float64, shape ...int) *gorgonia.Node {
		n := 1
		for _, d := range shape {
			n *= d
		}
		return gorgonia.NodeFromAny(g, dense(tensor.Float32, uniform(r, n, scale), shape...), gorgonia.WithName(name))
	}
	proj := node("proj", 1, batch, T, A)
	mem := node("memory", 1, batch, T, D)
	query := node("query", 1, batch, D)
	w := node("w", 0.1, D, A)
	v := node("v", 0.1, A)
	mask, err := MaskTensor(tensor.Float32, fullLengths(batch, T), T)
	if err != nil {
		b.Fatal(err)
	}
	maskNode := gorgonia.NodeFromAny(g, mask, gorgonia.WithName("mask"))
	wrt := gorgonia.Nodes{proj, mem, query, w, v}
	var ctx *gorgonia.Node
	switch variant {
	case "fused", "fused-location":
		k := &additiveKernel{spec: &additiveSpec{sharpen: 1}}
		in := []*gorgonia.Node{proj, query, w, v, maskNode}
		if variant == "fused-location" {
			const nf, K = 10, 31
			k = &additiveKernel{spec: &additiveSpec{filters: nf, width: K, channels: 1, sharpen: 1}, prev: true}
			prevW := node("prev", 0.02, batch, T)
			filters, uf := node("filters", 0.1, nf, 1, K), node("uf", 0.1, nf, A)
			in = append(in, prevW, filters, uf)
			wrt = append(wrt, prevW, filters, uf)
		}
		alpha, err := models.Apply(k, in...)
		if err != nil {
			b.Fatal(err)
		}
		if ctx, err = models.Apply(contextKernel{heads: 1}, alpha, mem); err != nil {
			b.Fatal(err)
		}
	case "stock":
		ctx = stockAdditiveStep(b, proj, mem, query, w, v, batch, T, D, A)
	}
	loss := gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(ctx, node("R", 1, batch, D)))))
	if _, err := gorgonia.Grad(loss, wrt...); err != nil {
		b.Fatal(err)
	}
	vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(wrt...))
	defer vm.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := vm.RunAll(); err != nil {
			b.Fatal(err)
		}
		vm.Reset()
	}
}

// stockAdditiveStep is the additive step in stock gorgonia ops, as the
// probe in ../shared/reference/gorgonia-probe builds it (unmasked).
func stockAdditiveStep(b *testing.B, proj, mem, query, w, v *gorgonia.Node, B, T, D, A int) *gorgonia.Node {
	must := func(n *gorgonia.Node, err error) *gorgonia.Node {
		if err != nil {
			b.Fatal(err)
		}
		return n
	}
	q := must(gorgonia.Mul(query, w))                                                 // (B, A)
	pre := must(gorgonia.Tanh(must(gorgonia.BroadcastAdd(proj, q, nil, []byte{1}))))  // (B, T, A)
	e := must(gorgonia.Mul(must(gorgonia.Reshape(pre, tensor.Shape{B * T, A})), v))   // (B·T)
	alpha := must(gorgonia.SoftMax(must(gorgonia.Reshape(e, tensor.Shape{B, T})), 1)) // (B, T)
	ctx := must(gorgonia.BatchedMatMul(must(gorgonia.Reshape(alpha, tensor.Shape{B, 1, T})), mem))
	return must(gorgonia.Reshape(ctx, tensor.Shape{B, D}))
}

func fullLengths(batch, T int) []int {
	l := make([]int, batch)
	for i := range l {
		l[i] = T
	}
	return l
}

// BenchmarkTanh compares models.TanhAdd, the inlined float32 loop of the additive
// score with models.Tanh per element, over one (T, A) = (100, 256) row.
func BenchmarkTanh(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	a, c := f32s(uniform(r, benchT*benchDim, 3)), f32s(uniform(r, benchT*benchDim, 1))
	dst := make([]float32, len(a))
	b.Run("models.TanhAdd", func(b *testing.B) {
		b.SetBytes(int64(4 * len(a)))
		for range b.N {
			models.TanhAdd(dst, a, c)
		}
	})
	b.Run("models.Tanh", func(b *testing.B) {
		b.SetBytes(int64(4 * len(a)))
		for range b.N {
			for i := range dst {
				dst[i] = models.Tanh(a[i] + c[i])
			}
		}
	})
}
