package modeltest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/attend-go/attend/models"
)

// CheckParamGradients compares the graph gradients of the named
// parameters of ps, from one run of the graph (run returns the loss, as
// models.Graph.Run does), with central finite differences
// (L(θ+h) − L(θ−h)) / 2h at perParam entries of each, drawn with seed:
// it checks how a model wires its kernels, each of which CheckGradients
// checks alone. within decides whether a finite difference fd and a graph
// gradient g agree (the tolerance depends on F's precision). Each run
// accumulates into the gradients, so they are copied before the probes.
func CheckParamGradients[F float32 | float64](t testing.TB, ps *models.Params, run func() (float64, error), names []string, h float64, perParam int, seed uint64, within func(fd, g float64) bool) {
	t.Helper()
	ps.ZeroGrads()
	if _, err := run(); err != nil {
		t.Fatal(err)
	}
	grads := map[string][]F{}
	for _, name := range names {
		p, ok := ps.Get(name)
		if !ok {
			t.Fatalf("no parameter %q", name)
		}
		grads[name] = slices.Clone(p.Grad.Data().([]F))
	}
	for _, name := range names {
		p, _ := ps.Get(name)
		v := p.Value.Data().([]F)
		pr := rand.New(rand.NewPCG(uint64(len(name)), seed))
		for range perParam {
			i := pr.IntN(len(v))
			old := v[i]
			v[i] = old + F(h)
			lp, err := run()
			if err != nil {
				t.Fatal(err)
			}
			v[i] = old - F(h)
			lm, err := run()
			if err != nil {
				t.Fatal(err)
			}
			v[i] = old
			if fd, g := (lp-lm)/(2*h), float64(grads[name][i]); !within(fd, g) {
				t.Errorf("%s[%d]: graph gradient %.6g, finite difference %.6g", name, i, g, fd)
			}
		}
	}
}
