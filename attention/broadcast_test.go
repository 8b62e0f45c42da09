package attention

import (
	"math"
	"testing"

	"gorgonia.org/tensor"
)

// TestBroadcastKeys steps every deterministic mechanism on one memory
// row broadcast to four rows (Keys.Broadcast) and on keys prepared from
// four copies of it, with and without padding, and on three-row views of
// both (Keys.Rows): every weight and context is the same float32, whether
// the mechanism shares the row (the additive family) or copies it.
func TestBroadcastKeys(t *testing.T) {
	const n, steps = 4, 4
	for _, tc := range mechanismCases {
		if tc.stochastic {
			continue
		}
		for _, length := range []int{tT, tT - 2} {
			for _, view := range []int{n, n - 1} {
				ps := newStore(tensor.Float32, 31)
				m, err := tc.build(ps)
				if err != nil {
					t.Fatal(err)
				}
				perturbZeros(ps, 32)
				p := newProblem(33, n, tT, tD, m.Dims().Query, steps, []int{length, length, length, length})
				one := f32s(p.memory[:tT*tD])
				copies, masks := make([]float32, 0, n*tT*tD), make([]float32, 0, n*tT)
				for range n {
					copies, masks = append(copies, one...), append(masks, p.mask[:tT]...)
				}
				single, err := m.Prepare(one, p.mask[:tT], 1, tT)
				if err != nil {
					t.Fatal(err)
				}
				shared, err := single.Broadcast(n)
				if err != nil {
					t.Fatal(err)
				}
				copied, err := m.Prepare(copies, masks, n, tT)
				if err != nil {
					t.Fatal(err)
				}
				if shared, err = shared.Rows(view); err != nil {
					t.Fatal(err)
				}
				if copied, err = copied.Rows(view); err != nil {
					t.Fatal(err)
				}
				var a, b [2]State
				for s := range steps {
					q := f32s(p.queries[s][:view*m.Dims().Query])
					if err := m.Step(&a[s%2], shared, q, &a[(s+1)%2]); err != nil {
						t.Fatalf("%s: step %d on broadcast keys: %v", tc.name, s, err)
					}
					if err := m.Step(&b[s%2], copied, q, &b[(s+1)%2]); err != nil {
						t.Fatal(err)
					}
					got, want := &a[s%2], &b[s%2]
					for _, c := range []struct {
						name      string
						got, want []float32
					}{{"weights", got.Weights, want.Weights}, {"context", got.Context, want.Context}} {
						if len(c.got) != len(c.want) {
							t.Fatalf("%s (length %d, %d rows) step %d: %d %s, want %d", tc.name, length, view, s, len(c.got), c.name, len(c.want))
						}
						for i := range c.got {
							if math.Float32bits(c.got[i]) != math.Float32bits(c.want[i]) {
								t.Fatalf("%s (length %d, %d rows) step %d: %s[%d] = %v, want %v", tc.name, length, view, s, c.name, i, c.got[i], c.want[i])
							}
						}
					}
				}
			}
		}
	}
	single, err := NewDot(tD)
	if err != nil {
		t.Fatal(err)
	}
	k, err := single.Prepare(make([]float32, 2*tT*tD), nil, 2, tT)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Broadcast(3); err == nil {
		t.Error("Broadcast of keys of two rows: no error")
	}
}
