package attention

import (
	"errors"
	"strings"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestConstructorErrors(t *testing.T) {
	cases := []struct {
		name    string
		build   func(ps *models.Params) error
		wantMsg string
	}{
		{"zero width", func(ps *models.Params) error { _, err := NewAdditive(ps, "a", 0, 4, 4); return err }, "query width = 0"},
		{"empty prefix", func(ps *models.Params) error { _, err := NewAdditive(ps, "", 4, 4, 4); return err }, "empty parameter prefix"},
		{"nil store", func(*models.Params) error { _, err := NewConcat(nil, "a", 4, 4, 4); return err }, "nil parameter store"},
		{"duplicate parameter", func(ps *models.Params) error {
			if _, err := NewAdditive(ps, "dup", 4, 4, 4); err != nil {
				return nil
			}
			_, err := NewLocationAware(ps, "dup", 4, 4, 4, nil)
			return err
		}, `"dup.w" already exists`},
		{"even filter width", func(ps *models.Params) error {
			_, err := NewLocationAware(ps, "a", 4, 4, 4, &LocationOptions{Width: 4})
			return err
		}, "odd width"},
		{"negative window", func(ps *models.Params) error {
			_, err := NewLocationAware(ps, "a", 4, 4, 4, &LocationOptions{Window: Window{Left: -1}})
			return err
		}, "Left, Right ≥ 0"},
		{"negative sharpening", func(ps *models.Params) error {
			_, err := NewLocationAware(ps, "a", 4, 4, 4, &LocationOptions{Sharpen: -2})
			return err
		}, "Sharpen = -2"},
		{"heads do not divide", func(ps *models.Params) error { _, err := NewMultiHead(ps, "a", 4, 4, 10, 3); return err }, "model width 10 is not divisible by 3 heads"},
		{"zero heads", func(ps *models.Params) error { _, err := NewMultiHead(ps, "a", 4, 4, 8, 0); return err }, "heads = 0"},
		{"local half-width", func(ps *models.Params) error { _, err := NewLocal(ps, "a", 4, 4, 4, 0); return err }, "half-width = 0"},
		{"dot width", func(*models.Params) error { _, err := NewDot(0); return err }, "width 0"},
		{"hard mode", func(ps *models.Params) error {
			_, err := NewHard(ps, "a", 4, 4, 4, &HardOptions{Inference: HardMode(9)})
			return err
		}, "unknown inference mode HardMode(9)"},
		{"gate width", func(ps *models.Params) error { _, err := NewGate(ps, "g", -1); return err }, "state width = -1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.build(newStore(tensor.Float32, 70))
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("error %v, want ErrConfig mentioning %q", err, tc.wantMsg)
			}
		})
	}
}

func TestEagerErrors(t *testing.T) {
	ps := newStore(tensor.Float32, 71)
	m, err := NewAdditive(ps, "a", tH, tD, tA)
	if err != nil {
		t.Fatal(err)
	}
	other, err := NewAdditive(ps, "b", tH, tD, tA)
	if err != nil {
		t.Fatal(err)
	}
	p := newProblem(72, tB, tT, tD, tH, 1, tLengths)
	mem := f32s(p.memory)
	keys, err := m.Prepare(mem, p.mask, tB, tT)
	if err != nil {
		t.Fatal(err)
	}
	q := f32s(p.queries[0])
	var s1, s2 State
	if err := m.Step(&s1, keys, q, nil); err != nil {
		t.Fatal(err)
	}
	ps64 := newStore(tensor.Float64, 73)
	m64, err := NewAdditive(ps64, "a", tH, tD, tA)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		err     error
		target  error
		wantMsg string
	}{
		{"short memory", func() error { _, err := m.Prepare(mem[1:], p.mask, tB, tT); return err }(), ErrShape, "want B·T·D"},
		{"short mask", func() error { _, err := m.Prepare(mem, p.mask[1:], tB, tT); return err }(), ErrShape, "mask has"},
		{"zero batch", func() error { _, err := m.Prepare(nil, nil, 0, tT); return err }(), ErrShape, "want both ≥ 1"},
		{"float64 parameters", func() error { _, err := m64.Prepare(mem, nil, tB, tT); return err }(), ErrDtype, "float32"},
		{"short query", m.Step(&s2, keys, q[1:], &s1), ErrShape, "query has"},
		{"foreign keys", other.Step(&s2, keys, q, &s1), ErrKeys, "another mechanism"},
		{"nil keys", m.Step(&s2, nil, q, &s1), ErrKeys, "nil keys"},
		{"dst is prev", m.Step(&s1, keys, q, &s1), ErrKeys, "alternate two States"},
		{"prev of another batch", m.Step(&s2, keys, q, &State{Steps: 1, Weights: []float32{1}, Cumulative: []float32{1}}), ErrShape, "previous state"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, tc.target) || !strings.Contains(tc.err.Error(), tc.wantMsg) {
				t.Errorf("error %v, want %v mentioning %q", tc.err, tc.target, tc.wantMsg)
			}
		})
	}
}

func TestGraphErrors(t *testing.T) {
	ps := newStore(tensor.Float32, 74)
	m, err := NewLocationAware(ps, "a", tH, tD, tA, &LocationOptions{Cumulative: true, Width: 3, Filters: 2})
	if err != nil {
		t.Fatal(err)
	}
	g := gorgonia.NewGraph()
	bind := ps.Bind(g)
	mem := gorgonia.NewTensor(g, tensor.Float32, 3, gorgonia.WithShape(tB, tT, tD), gorgonia.WithName("mem"))
	wrongMem := gorgonia.NewTensor(g, tensor.Float32, 3, gorgonia.WithShape(tB, tT, tD+1), gorgonia.WithName("wrong"))
	wrongMask := gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(tB, tT+1), gorgonia.WithName("mask"))
	q := gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(tB, tH), gorgonia.WithName("q"))
	wrongQ := gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(tB, tH+1), gorgonia.WithName("q2"))
	keys, err := m.PrepareNodes(bind, mem, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := m.StepNode(bind, keys, q, StateNodes{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		err     error
		target  error
		wantMsg string
	}{
		{"memory width", func() error { _, err := m.PrepareNodes(bind, wrongMem, nil); return err }(), ErrShape, "want (B, T, 4)"},
		{"mask shape", func() error { _, err := m.PrepareNodes(bind, mem, wrongMask); return err }(), ErrShape, "mask (3, 7)"},
		{"query shape", func() error { _, err := m.StepNode(bind, keys, wrongQ, first); return err }(), ErrShape, "query (3, 6)"},
		{"unprepared keys", func() error { _, err := m.StepNode(bind, KeysNodes{}, q, first); return err }(), ErrKeys, "not prepared"},
		{"memory dtype", func() error {
			mem64 := gorgonia.NewTensor(g, tensor.Float64, 3, gorgonia.WithShape(tB, tT, tD), gorgonia.WithName("mem64"))
			_, err := m.PrepareNodes(bind, mem64, nil)
			return err
		}(), ErrDtype, "memory is float64"},
		{"weights without cumulative", func() error {
			_, err := m.StepNode(bind, keys, q, StateNodes{Weights: first.Weights})
			return err
		}(), ErrKeys, "no cumulative"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, tc.target) || !strings.Contains(tc.err.Error(), tc.wantMsg) {
				t.Errorf("error %v, want %v mentioning %q", tc.err, tc.target, tc.wantMsg)
			}
		})
	}
}

func TestMaskFromLengths(t *testing.T) {
	got, err := MaskFromLengths([]int{3, 0, 1}, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{1, 1, 1, 0, 0, 0, 1, 0, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("mask %v, want %v", got, want)
		}
	}
	for _, bad := range [][]int{{4}, {-1}} {
		if _, err := MaskFromLengths(bad, 3); !errors.Is(err, ErrShape) {
			t.Errorf("lengths %v: error %v, want ErrShape", bad, err)
		}
	}
	m64, err := MaskTensor(tensor.Float64, []int{1, 2}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if d := m64.Data().([]float64); d[0] != 1 || d[1] != 0 || d[2] != 1 || d[3] != 1 {
		t.Errorf("MaskTensor float64 = %v", d)
	}
	if _, err := MaskTensor(tensor.Int, []int{1}, 1); !errors.Is(err, ErrDtype) {
		t.Errorf("MaskTensor(Int): %v, want ErrDtype", err)
	}
}
