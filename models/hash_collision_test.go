package models

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// scaleKernel is y = f·x under a chosen name, so that a test can pick
// names whose nodes collide in gorgonia's hash.
type scaleKernel struct {
	name string
	f    float64
}

func (k *scaleKernel) Name() string { return k.name }
func (*scaleKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	return in[0].Clone(), nil
}
func (*scaleKernel) Differentiable(int) []bool { return []bool{true} }
func (k *scaleKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	for i, v := range in[0].Data().([]float64) {
		out.Data().([]float64)[i] = k.f * v
	}
	return nil
}
func (k *scaleKernel) Backward(dIn []*tensor.Dense, dOut, _ *tensor.Dense, _ []*tensor.Dense) error {
	for i, v := range dOut.Data().([]float64) {
		dIn[0].Data().([]float64)[i] = k.f * v
	}
	return nil
}

// scaleHash is gorgonia's Node.Hashcode (node.go, WriteHash) of a
// scaleKernel node named name with op id id on the input x, computed
// without adding the node: FNV-32a of its type and shape, its op's hash
// input ("name#id") and its children's hashes.
func scaleHash(x *gorgonia.Node, name string, id uint64) uint32 {
	h := fnv.New32a()
	fmt.Fprintf(h, "%v%v", x.Type(), x.Shape())
	fmt.Fprintf(h, "%s#%d", name, id)
	binary.Write(h, binary.LittleEndian, byte(1))
	binary.Write(h, binary.LittleEndian, x.Hashcode())
	return h.Sum32()
}

// collidingNames finds two names whose scale nodes on x, with op ids idA
// and idB, share a hash: a birthday search over seeded random names.
func collidingNames(t *testing.T, x *gorgonia.Node, idA, idB uint64) (string, string) {
	t.Helper()
	r := rand.New(rand.NewPCG(4, 2))
	const n = 1 << 18 // about 16 pairs expected among n² / 2³²
	byHash := make(map[uint32]string, n)
	for range n {
		name := fmt.Sprintf("Scale-%08x", r.Uint32())
		byHash[scaleHash(x, name, idA)] = name
	}
	for range n {
		name := fmt.Sprintf("Scale-%08x", r.Uint32())
		if a, ok := byHash[scaleHash(x, name, idB)]; ok && a != name {
			return a, name
		}
	}
	t.Fatal("no colliding names found")
	return "", ""
}

// TestBucketsRebuildOnHashCollision: a graph with two distinct nodes of
// one 32-bit hash, which gorgonia's compiler would treat as one value, is
// detected and built again with fresh op ids, and the loss and gradient
// come out right: L = Σ 2w + Σ 3w, ∂L/∂w = 5.
func TestBucketsRebuildOnHashCollision(t *testing.T) {
	ps := NewParams(tensor.Float64, rand.New(rand.NewPCG(1, 1)))
	w := ps.New("w", Uniform(1), 2, 3)
	var sum float64
	for _, v := range w.Value.Data().([]float64) {
		sum += v
	}

	probe := gorgonia.NewGraph()
	wp := ps.Bind(probe).Node("w")
	idA := kernelIDs.Load() + 1000
	idB := idA + 1
	nameA, nameB := collidingNames(t, wp, idA, idB)

	builds := 0
	build := func(g *gorgonia.ExprGraph, b *Binding, _ int) (*gorgonia.Node, struct{}, error) {
		builds++
		if builds == 1 { // force the colliding ids the first time only
			kernelIDs.Store(idA - 1)
		}
		y1, err := Apply(&scaleKernel{nameA, 2}, b.Node("w"))
		if err != nil {
			return nil, struct{}{}, err
		}
		if builds == 1 {
			kernelIDs.Store(idB - 1)
		}
		y2, err := Apply(&scaleKernel{nameB, 3}, b.Node("w"))
		if err != nil {
			return nil, struct{}{}, err
		}
		if builds == 1 && y1.Hashcode() != y2.Hashcode() {
			t.Fatalf("scaleHash does not reproduce gorgonia's hash: %08x, %08x", y1.Hashcode(), y2.Hashcode())
		}
		s1, err := gorgonia.Sum(y1)
		if err != nil {
			return nil, struct{}{}, err
		}
		s2, err := gorgonia.Sum(y2)
		if err != nil {
			return nil, struct{}{}, err
		}
		loss, err := gorgonia.Add(s1, s2)
		return loss, struct{}{}, err
	}

	bs := NewBuckets(ps, build)
	defer bs.Close()
	gr, err := bs.Get(0)
	if err != nil {
		t.Fatal(err)
	}
	if bs.HashRebuilds() != 1 || bs.Builds() != 2 || builds != 2 {
		t.Errorf("hash rebuilds %d, builds %d (BuildFunc called %d times); want 1, 2, 2", bs.HashRebuilds(), bs.Builds(), builds)
	}
	ps.ZeroGrads()
	loss, err := gr.Run()
	if err != nil {
		t.Fatal(err)
	}
	if want := 5 * sum; math.Abs(loss-want) > 1e-12 {
		t.Errorf("loss %v, want 5·Σw = %v", loss, want)
	}
	for i, g := range w.Grad.Data().([]float64) {
		if g != 5 {
			t.Errorf("∂L/∂w[%d] = %v, want 5", i, g)
		}
	}
}

// TestHashCollisionScan: hashCollision finds the colliding pair in a
// graph and nothing in one without.
func TestHashCollisionScan(t *testing.T) {
	ps := NewParams(tensor.Float64, rand.New(rand.NewPCG(1, 1)))
	ps.New("w", Uniform(1), 2, 3)
	g := gorgonia.NewGraph()
	w := ps.Bind(g).Node("w")
	idA := kernelIDs.Load() + 1000
	nameA, nameB := collidingNames(t, w, idA, idA+1)
	for _, tc := range []struct {
		name    string
		b       string
		collide bool
	}{
		{"distinct hashes", nameA + "x", false},
		{"colliding hashes", nameB, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gorgonia.NewGraph()
			w := ps.Bind(g).Node("w")
			kernelIDs.Store(idA - 1)
			y1, err := Apply(&scaleKernel{nameA, 2}, w)
			if err != nil {
				t.Fatal(err)
			}
			y2, err := Apply(&scaleKernel{tc.b, 3}, w)
			if err != nil {
				t.Fatal(err)
			}
			a, b := hashCollision(g)
			if got := a != nil; got != tc.collide {
				t.Fatalf("collision found %v (%v, %v), want %v", got, a, b, tc.collide)
			}
			if tc.collide && !(a == y1 && b == y2 || a == y2 && b == y1) {
				t.Errorf("collision between %v and %v, want %v and %v", a, b, y1, y2)
			}
		})
	}
}
