package models

import (
	"fmt"

	"gorgonia.org/gorgonia"
)

// PyramidalBiLSTM is the listener of Listen, Attend and Spell (Chan et al.
// 2016, §3.1): a BiLSTM over the input frames followed by pyramidal BiLSTM
// layers, each of which first halves the time resolution (Pyramid) and then
// runs a BiLSTM over the concatenated frame pairs, optionally topped by
// Flat residual layers that keep the time resolution (the residual
// connections of stacked LSTMs in GNMT, Wu et al. 2016, §3.1). With n
// layers, f = Flat of them flat and p = n − f:
//
//	layer 0:          h⁰ = BiLSTM(x)                      (B, T, 2H)
//	layer 1 ≤ j < p:  hʲ = BiLSTM(Pyramid(hʲ⁻¹))          (B, T/2ʲ, 2H)
//	layer p ≤ j < n:  hʲ = hʲ⁻¹ + BiLSTM(hʲ⁻¹)            (B, T/2ᵖ⁻¹, 2H)
//
// so n layers reduce time by 2ᵖ⁻¹ (LAS uses 1 + 3 layers: 8×). A flat
// layer adds depth without coarsening the frames a character CTC head
// needs, and its identity path lets it be stacked onto a trained listener
// that it then leaves almost unchanged (see the output-gate bias in
// package asr's Model.AddListenerLayers). Layer j's parameters live under
// <prefix>.l<j> (see NewBiLSTM); its input size is In for j = 0, 4·Hidden
// for a pyramidal layer and 2·Hidden for a flat one. Padded frames stay
// zero through the residual sum, since both of its terms are zero there.
// Lengths are tracked with PyramidLength.
type PyramidalBiLSTM struct {
	Layers     []*BiLSTM
	In, Hidden int
	Flat       int // the top Flat layers are flat and residual; Flat < len(Layers)
}

// NewPyramidalBiLSTM creates an n-layer listener under prefix, every layer
// after the first pyramidal.
func NewPyramidalBiLSTM(ps *Params, prefix string, in, hidden, layers int) *PyramidalBiLSTM {
	return NewPyramidalBiLSTMFlat(ps, prefix, in, hidden, layers, 0)
}

// NewPyramidalBiLSTMFlat creates an n-layer listener under prefix whose
// top flat layers are flat and residual. flat outside [0, layers) is a
// programmer error and panics: layer 0 reads the input frames, whose width
// is not 2·hidden.
func NewPyramidalBiLSTMFlat(ps *Params, prefix string, in, hidden, layers, flat int) *PyramidalBiLSTM {
	if layers < 1 || flat < 0 || flat >= layers {
		panic(fmt.Sprintf("models: NewPyramidalBiLSTM(%q): %d layers, %d flat; want ≥ 1 layers and flat in [0, layers)", prefix, layers, flat))
	}
	p := &PyramidalBiLSTM{In: in, Hidden: hidden}
	for j := range layers - flat {
		size := in
		if j > 0 {
			size = 4 * hidden
		}
		p.Layers = append(p.Layers, NewBiLSTM(ps, fmt.Sprintf("%s.l%d", prefix, j), size, hidden))
	}
	p.AddFlat(ps, prefix, flat)
	return p
}

// AddFlat appends n flat residual layers (2H → 2H) under
// <prefix>.l<len(Layers)>…, their parameters drawn by ps.
func (p *PyramidalBiLSTM) AddFlat(ps *Params, prefix string, n int) {
	for range n {
		p.Layers = append(p.Layers, NewBiLSTM(ps, fmt.Sprintf("%s.l%d", prefix, len(p.Layers)), 2*p.Hidden, p.Hidden))
		p.Flat++
	}
}

// IsFlat reports whether layer j is flat (residual, keeping time).
func (p *PyramidalBiLSTM) IsFlat(j int) bool { return j >= len(p.Layers)-p.Flat }

// Lower returns a listener of the first n layers, sharing their
// parameters: what an auxiliary head on layer n−1 reads.
func (p *PyramidalBiLSTM) Lower(n int) *PyramidalBiLSTM {
	return &PyramidalBiLSTM{Layers: p.Layers[:n], In: p.In, Hidden: p.Hidden, Flat: max(0, p.Flat-(len(p.Layers)-n))}
}

// OutputLength returns the encoder length of an n-frame input.
func (p *PyramidalBiLSTM) OutputLength(n int) int {
	for range len(p.Layers) - 1 - p.Flat {
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
// hʲ (B, Tʲ, 2H) and lens[j] its lengths (B), for an auxiliary loss on
// a lower layer.
func (p *PyramidalBiLSTM) ApplyLayers(b *Binding, x, lengths *gorgonia.Node) (ys, lens []*gorgonia.Node, err error) {
	y, yLengths := x, lengths
	for j, l := range p.Layers {
		flat := p.IsFlat(j)
		if j > 0 && !flat {
			if y, yLengths, err = Pyramid(y, yLengths); err != nil { // (B, T/2, 4H)
				return nil, nil, err
			}
		}
		var h *gorgonia.Node
		if h, err = l.Apply(b, y, yLengths); err != nil { // BiLSTM (B, T, 2H)
			return nil, nil, err
		}
		if flat {
			if h, err = gorgonia.Add(y, h); err != nil { // hʲ⁻¹ + BiLSTM(hʲ⁻¹) (B, T, 2H)
				return nil, nil, fmt.Errorf("models: residual listener layer %d: %w", j, err)
			}
		}
		y = h
		ys, lens = append(ys, y), append(lens, yLengths)
	}
	return ys, lens, nil
}

// Forward is the eager face: x (batch, steps, In) gives dst (batch,
// outSteps, 2H), grown when short and returned, with outSteps =
// OutputLength(steps) and the encoded lengths. The parameters must be
// float32.
func (p *PyramidalBiLSTM) Forward(ws *LSTMWorkspace, dst, x []float32, batch, steps int, lengths []int) (y []float32, outSteps int, outLengths []int, err error) {
	return p.forward(ws, dst, x, batch, steps, lengths, -1, nil)
}

// ForwardTap is Forward that also copies layer j's output hʲ (batch, Tʲ,
// 2H) into tap, grown when short and returned with Tʲ: what an auxiliary
// head on layer j reads, without running the lower layers twice.
func (p *PyramidalBiLSTM) ForwardTap(ws *LSTMWorkspace, dst, x []float32, batch, steps int, lengths []int, j int, tap []float32) (y []float32, outSteps int, outLengths []int, tapped []float32, tapSteps int, err error) {
	if j < 0 || j >= len(p.Layers) {
		return dst, 0, nil, tap, 0, fmt.Errorf("models: tap layer %d of a %d-layer listener", j, len(p.Layers))
	}
	t := &layerTap{layer: j, dst: tap}
	y, outSteps, outLengths, err = p.forward(ws, dst, x, batch, steps, lengths, j, t)
	return y, outSteps, outLengths, t.dst, t.steps, err
}

// layerTap receives a copy of one layer's output in forward.
type layerTap struct {
	layer int
	dst   []float32
	steps int
}

func (p *PyramidalBiLSTM) forward(ws *LSTMWorkspace, dst, x []float32, batch, steps int, lengths []int, tapLayer int, tap *layerTap) (y []float32, outSteps int, outLengths []int, err error) {
	// cur is the current layer's input: x, or ws.inner[in]. Each step
	// writes to the inner buffer that cur is not in.
	cur, T, in := x, steps, -1
	spare := func() int {
		if in == 0 {
			return 1
		}
		return 0
	}
	outLengths = append([]int(nil), lengths...)
	for j, l := range p.Layers {
		flat := p.IsFlat(j)
		if j > 0 && !flat {
			k := spare()
			if ws.inner[k], err = PyramidForward(ws.inner[k], cur, batch, T, 2*p.Hidden, outLengths); err != nil {
				return dst, 0, nil, err
			}
			cur, T, in = ws.inner[k], PyramidLength(T), k
			for i, n := range outLengths {
				outLengths[i] = PyramidLength(n)
			}
		}
		var h []float32
		if j == len(p.Layers)-1 {
			dst, err = l.Forward(ws, dst, cur, batch, T, outLengths)
			h = dst
		} else {
			k := spare()
			ws.inner[k], err = l.Forward(ws, ws.inner[k], cur, batch, T, outLengths)
			h, in = ws.inner[k], k
		}
		if err != nil {
			return dst, 0, nil, err
		}
		if flat {
			n := batch * T * 2 * p.Hidden
			Axpy(1, cur[:n], h[:n]) // hʲ⁻¹ + BiLSTM(hʲ⁻¹)
		}
		if j == tapLayer {
			n := batch * T * 2 * p.Hidden
			tap.dst = append(tap.dst[:0], h[:n]...)
			tap.steps = T
		}
		cur = h
	}
	return dst, T, outLengths, nil
}
