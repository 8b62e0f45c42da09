package models

import (
	"fmt"

	"gorgonia.org/gorgonia"
)

// PyramidalBiLSTM is the listener of Listen, Attend and Spell (Chan et al.
// 2016, §3.1): a BiLSTM over the input frames followed by pyramidal BiLSTM
// layers, each of which first halves the time resolution (Pyramid) and then
// runs a BiLSTM over the concatenated frame pairs:
//
//	layer 0:      h⁰ = BiLSTM(x)                        (B, T, 2H)
//	layer j ≥ 1:  hʲ = BiLSTM(Pyramid(hʲ⁻¹))            (B, T/2ʲ, 2H)
//
// so n layers reduce time by 2ⁿ⁻¹ (LAS uses 1 + 3 layers: 8×). Layer j's
// parameters live under <prefix>.l<j> (see NewBiLSTM); its input size is In
// for j = 0 and 4·Hidden above. Lengths are tracked with PyramidLength.
type PyramidalBiLSTM struct {
	Layers     []*BiLSTM
	In, Hidden int
}

// NewPyramidalBiLSTM creates an n-layer listener under prefix.
func NewPyramidalBiLSTM(ps *Params, prefix string, in, hidden, layers int) *PyramidalBiLSTM {
	if layers < 1 {
		panic(fmt.Sprintf("models: NewPyramidalBiLSTM(%q): %d layers, want ≥ 1", prefix, layers))
	}
	p := &PyramidalBiLSTM{In: in, Hidden: hidden}
	for j := range layers {
		size := in
		if j > 0 {
			size = 4 * hidden
		}
		p.Layers = append(p.Layers, NewBiLSTM(ps, fmt.Sprintf("%s.l%d", prefix, j), size, hidden))
	}
	return p
}

// OutputLength returns the encoder length of an n-frame input.
func (p *PyramidalBiLSTM) OutputLength(n int) int {
	for range len(p.Layers) - 1 {
		n = PyramidLength(n)
	}
	return n
}

// Apply is the graph face: x (B, T, In) and lengths (B) give the encoding
// (B, T', 2H) and its lengths (B), T' = OutputLength(T).
func (p *PyramidalBiLSTM) Apply(b *Binding, x, lengths *gorgonia.Node) (y, yLengths *gorgonia.Node, err error) {
	ys, lens, err := p.ApplyLayers(b, x, lengths)
	if err != nil {
		return nil, nil, err
	}
	return ys[len(ys)-1], lens[len(lens)-1], nil
}

// ApplyLayers is Apply that also returns every layer's output: ys[j] is
// hʲ (B, T/2ʲ, 2H) and lens[j] its lengths (B), for an auxiliary loss on
// a lower layer.
func (p *PyramidalBiLSTM) ApplyLayers(b *Binding, x, lengths *gorgonia.Node) (ys, lens []*gorgonia.Node, err error) {
	y, yLengths := x, lengths
	for j, l := range p.Layers {
		if j > 0 {
			if y, yLengths, err = Pyramid(y, yLengths); err != nil {
				return nil, nil, err
			}
		}
		if y, err = l.Apply(b, y, yLengths); err != nil {
			return nil, nil, err
		}
		ys, lens = append(ys, y), append(lens, yLengths)
	}
	return ys, lens, nil
}

// Forward is the eager face: x (batch, steps, In) gives dst (batch,
// outSteps, 2H), grown when short and returned, with outSteps =
// OutputLength(steps) and the encoded lengths. The parameters must be
// float32.
func (p *PyramidalBiLSTM) Forward(ws *LSTMWorkspace, dst, x []float32, batch, steps int, lengths []int) (y []float32, outSteps int, outLengths []int, err error) {
	cur, T := x, steps
	outLengths = append([]int(nil), lengths...)
	for j, l := range p.Layers {
		if j > 0 {
			ws.reduced, err = PyramidForward(ws.reduced, cur, batch, T, 2*p.Hidden, outLengths)
			if err != nil {
				return dst, 0, nil, err
			}
			cur, T = ws.reduced, PyramidLength(T)
			for i, n := range outLengths {
				outLengths[i] = PyramidLength(n)
			}
		}
		if j == len(p.Layers)-1 {
			dst, err = l.Forward(ws, dst, cur, batch, T, outLengths)
			return dst, T, outLengths, err
		}
		if ws.layerOut, err = l.Forward(ws, ws.layerOut, cur, batch, T, outLengths); err != nil {
			return dst, 0, nil, err
		}
		cur = ws.layerOut
	}
	panic("unreachable")
}
