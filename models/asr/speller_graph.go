package asr

import (
	"fmt"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
)

// Unrolled is a teacher-forced speller in a graph.
type Unrolled struct {
	Logits  *gorgonia.Node   // (S·B, V), step-major: row i·B + b is step i of sequence b
	Weights []*gorgonia.Node // S × (B, T'): each step's attention weights α_i
}

// Unroll adds the speller, teacher-forced over S steps, to a graph: inputs
// (S, B) holds the previous token of every step (EOS as the start token,
// then the targets shifted right; models.PadID past a sequence's end), keys
// the prepared listener output h (B, T', D). Step i computes
//
//	s_i      = LSTM([E·y_{i−1} ; c_{i−1}], s_{i−1})      (B, H)
//	α_i, c_i = Attend(s_i, h, α_{i−1})                   (B, T'), (B, C)
//
// and one output layer over all steps at once gives
//
//	logits = W_o·[s ; c] + b_o                           (S·B, V)
//
// The caller turns Logits into a loss, e.g. models.CrossEntropy with
// step-major targets.
func (d *Speller) Unroll(b *models.Binding, keys attention.KeysNodes, inputs *gorgonia.Node) (*Unrolled, error) {
	s := inputs.Shape()
	if s.Dims() != 2 || s[1] != keys.B {
		return nil, fmt.Errorf("asr: Speller.Unroll: inputs %v, want (S, %d): %w", s, keys.B, attention.ErrShape)
	}
	S, B := s[0], s[1]
	g := inputs.Graph()
	dt := inputs.Dtype()
	H, C := d.Config.Hidden, d.Attention.Dims().Context
	fail := func(step int, err error) (*Unrolled, error) {
		return nil, fmt.Errorf("asr: Speller.Unroll step %d: %w", step, err)
	}
	emb, err := d.Embedding.Apply(b, inputs) // E·y (S, B, E)
	if err != nil {
		return fail(0, err)
	}
	state := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(B, 2*H), gorgonia.WithName("speller.state0"), gorgonia.WithInit(gorgonia.Zeroes())) // [s_0 | cell_0] = 0 (B, 2H)
	ctx := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(B, C), gorgonia.WithName("speller.context0"), gorgonia.WithInit(gorgonia.Zeroes()))   // c_0 = 0 (B, C)
	var att attention.StateNodes
	u := &Unrolled{}
	outs := make(gorgonia.Nodes, S)
	for i := 0; i < S; i++ {
		e, err := models.Select(emb, 0, i) // E·y_{i−1} (B, E)
		if err != nil {
			return fail(i, err)
		}
		x, err := models.Concat(1, e, ctx) // [E·y_{i−1} ; c_{i−1}] (B, E+C)
		if err != nil {
			return fail(i, err)
		}
		if state, err = d.Cell.ApplyStep(b, x, state); err != nil { // [s_i | cell_i] (B, 2H)
			return fail(i, err)
		}
		h, _, err := d.Cell.SplitState(state) // s_i (B, H)
		if err != nil {
			return fail(i, err)
		}
		if att, err = d.Attention.StepNode(b, keys, h, att); err != nil { // α_i (B, T'), c_i (B, C)
			return fail(i, err)
		}
		ctx = att.Context // c_i (B, C)
		u.Weights = append(u.Weights, att.Weights)
		if outs[i], err = models.Concat(1, h, ctx); err != nil { // [s_i ; c_i] (B, H+C)
			return fail(i, err)
		}
	}
	all := outs[0]
	if S > 1 {
		if all, err = models.Concat(0, outs...); err != nil { // step-major (S·B, H+C)
			return fail(S, err)
		}
	}
	if u.Logits, err = d.Output.Apply(b, all); err != nil { // W_o·[s ; c] + b_o (S·B, V)
		return fail(S, err)
	}
	return u, nil
}
