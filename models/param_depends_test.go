package models

import (
	"math/rand/v2"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestDependsOnParams checks the test that lets a kernel skip the gradient
// of an input: features and what is computed from them alone do not
// depend on a parameter; anything downstream of one does.
func TestDependsOnParams(t *testing.T) {
	ps := NewParams(tensor.Float64, rand.New(rand.NewPCG(1, 1)))
	w := ps.New("w", GlorotUniform, 3, 3)
	g := gorgonia.NewGraph()
	b := ps.Bind(g)
	x := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(2, 3), gorgonia.WithName("x"))
	scaled := gorgonia.Must(gorgonia.Mul(x, gorgonia.NewConstant(2.0)))
	projected := gorgonia.Must(gorgonia.Mul(scaled, b.Node(w.Name)))
	squared := gorgonia.Must(gorgonia.Square(projected))
	for _, c := range []struct {
		name string
		n    *gorgonia.Node
		want bool
	}{
		{"input", x, false},
		{"input scaled", scaled, false},
		{"parameter", b.Node(w.Name), true},
		{"input times parameter", projected, true},
		{"downstream", squared, true},
	} {
		if got := b.dependsOnParams(c.n); got != c.want {
			t.Errorf("%s: dependsOnParams = %v, want %v", c.name, got, c.want)
		}
	}
}
