package attention

import (
	"testing"

	"gorgonia.org/tensor"
)

func TestWindowCenter(t *testing.T) {
	cases := []struct {
		name string
		mode WindowCenter
		w    []float64
		want int
	}{
		{"median", Median, []float64{0.1, 0.2, 0.4, 0.3}, 2},
		{"median at half exactly", Median, []float64{0.25, 0.25, 0.5}, 1},
		{"median ignores a distant second peak", Median, []float64{0, 0.6, 0, 0, 0.4}, 1},
		{"peak", Peak, []float64{0.3, 0.1, 0.35, 0.25}, 2},
		{"peak takes the first of equals", Peak, []float64{0.5, 0.5}, 0},
		{"no weight", Median, []float64{0, 0, 0}, 0},
		{"no weight peak", Peak, []float64{0, 0, 0}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := windowCenter(tc.mode, tc.w); got != tc.want {
				t.Errorf("windowCenter(%v, %v) = %d, want %d", tc.mode, tc.w, got, tc.want)
			}
		})
	}
}

// TestLocationWindow runs location-aware attention with a window over a
// long memory and checks that every step's weights stay inside the window
// around the previous weights' median or peak.
func TestLocationWindow(t *testing.T) {
	const T, steps = 40, 12
	for _, w := range []Window{{Left: 2, Right: 5}, {Left: 3, Right: 3, Center: Peak}, {Right: 4}} {
		t.Run(windowName(w), func(t *testing.T) {
			ps := newStore(tensor.Float32, 60)
			m, err := NewLocationAware(ps, "att", tH, tD, tA, &LocationOptions{Filters: 2, Width: 5, Window: w})
			if err != nil {
				t.Fatal(err)
			}
			lengths := []int{T, 27}
			p := newProblem(61, len(lengths), T, tD, tH, steps, lengths)
			states := eagerRun(t, m, p)
			for s, st := range states {
				for b, n := range lengths {
					c := 0
					if s > 0 {
						c = windowCenter(w.Center, states[s-1].Weights[b*T:(b+1)*T])
					}
					lo, hi := max(0, c-w.Left), min(n, c+w.Right+1)
					var sum float32
					for i, x := range st.Weights[b*T : (b+1)*T] {
						sum += x
						if x != 0 && (i < lo || i >= hi) {
							t.Errorf("step %d row %d: weight %v at %d outside the window [%d, %d)", s, b, x, i, lo, hi)
						}
					}
					if sum < 1-1e-5 || sum > 1+1e-5 {
						t.Errorf("step %d row %d: weights sum to %v", s, b, sum)
					}
				}
			}
		})
	}
}

func windowName(w Window) string {
	name := "median"
	if w.Center == Peak {
		name = "peak"
	}
	return name + "-" + string(rune('0'+w.Left)) + "-" + string(rune('0'+w.Right))
}
