package attention

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
)

// LocationAware is additive attention that also sees where it attended on
// the previous step (Chorowski et al. 2015, eq. 5–9):
//
//	f_t = (F ∗ α_{i−1})_t                           (nf)    eq. 8
//	e_t = vᵀ·tanh(W·q + U·k_t + Uf·f_t + b)                  eq. 9
//	α   = softmax(β·e)                                        §2.3
//
// F holds nf filters of odd width K, zero-padded to length T. With
// Cumulative set, F has a second input channel reading Σ_{j<i} α_j (the
// coverage, as in Shen et al. 2018), which discourages attending twice to
// the same frames. It is the attention of choice for speech, where the
// alignment is monotonic and similar frames repeat. The first step sees
// no previous weights: its location term is 0.
type LocationAware struct {
	name string
	core *additiveCore
}

// LocationOptions configures LocationAware; the zero value means the
// defaults.
type LocationOptions struct {
	// Filters is the number of location filters nf; 0 means 10
	// (Chorowski et al. 2015; ESPnet).
	Filters int
	// Width is the odd filter width K; 0 means 31 frames, enough for the
	// 8×-subsampled frames of a pyramidal listener.
	Width int
	// Cumulative adds the cumulative weights as a second input channel.
	Cumulative bool
	// Sharpen is the inverse temperature β > 0 of the softmax; 0 means 1.
	// β > 1 sharpens the weights (Chorowski et al. 2015, §2.3).
	Sharpen float64
	// Window restricts the scores to a window around the previous
	// weights' median or peak; the zero Window does not restrict.
	Window Window
}

// NewLocationAware creates location-aware attention with the parameters
// of Additive plus prefix.conv (nf, C, K) and prefix.loc (nf, A); opts nil
// means the defaults.
func NewLocationAware(ps *models.Params, prefix string, H, D, A int, opts *LocationOptions) (*LocationAware, error) {
	var o LocationOptions
	if opts != nil {
		o = *opts
	}
	if o.Filters == 0 {
		o.Filters = 10
	}
	if o.Width == 0 {
		o.Width = 31
	}
	switch {
	case o.Filters < 0:
		return nil, fmt.Errorf("attention: LocationAware: Filters = %d, want ≥ 1: %w", o.Filters, ErrConfig)
	case o.Width < 0 || o.Width%2 == 0:
		return nil, fmt.Errorf("attention: LocationAware: Width = %d, want an odd width ≥ 1: %w", o.Width, ErrConfig)
	case o.Sharpen < 0:
		return nil, fmt.Errorf("attention: LocationAware: Sharpen = %g, want > 0: %w", o.Sharpen, ErrConfig)
	case o.Window.Left < 0 || o.Window.Right < 0:
		return nil, fmt.Errorf("attention: LocationAware: Window %+v, want Left, Right ≥ 0: %w", o.Window, ErrConfig)
	case o.Window.Center != Median && o.Window.Center != Peak:
		return nil, fmt.Errorf("attention: LocationAware: Window.Center = %d, want Median or Peak: %w", o.Window.Center, ErrConfig)
	}
	spec := additiveSpec{filters: o.Filters, width: o.Width, channels: 1, sharpen: o.Sharpen, window: o.Window}
	if o.Cumulative {
		spec.channels = 2
	}
	c, err := newAdditiveCore("LocationAware", ps, prefix, H, D, A, true, spec)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("LocationAware(%s: H=%d,D=%d,A=%d,nf=%d,K=%d,C=%d)", prefix, H, D, A, spec.filters, spec.width, spec.channels)
	return &LocationAware{name: name, core: c}, nil
}

// Name implements Mechanism.
func (m *LocationAware) Name() string { return m.name }

// Dims implements Mechanism; the context has the memory's width D.
func (m *LocationAware) Dims() Dims { return Dims{Query: m.core.H, Key: m.core.D, Context: m.core.D} }

// Prepare implements Mechanism: it computes U·k + b for every entry.
func (m *LocationAware) Prepare(memory, mask []float32, B, T int) (*Keys, error) {
	return m.core.prepare(m, memory, mask, B, T)
}

// Step implements Mechanism. It reads prev.Weights (and prev.Cumulative
// with Cumulative features).
func (m *LocationAware) Step(dst *State, keys *Keys, query []float32, prev *State) error {
	return softStep(m, m.core, dst, keys, query, prev)
}

// PrepareNodes implements Mechanism: Proj is U·k + b (B, T, A).
func (m *LocationAware) PrepareNodes(b *models.Binding, memory, mask *gorgonia.Node) (KeysNodes, error) {
	return m.core.prepareNodes(m, b, memory, mask)
}

// StepNode implements Mechanism. The weights are differentiable with
// respect to prev.Weights (and prev.Cumulative), so gradients flow back
// through the location features to earlier steps; the window's position is
// piecewise constant and passes no gradient. With Cumulative features the
// returned Cumulative is prev.Cumulative + Weights.
func (m *LocationAware) StepNode(b *models.Binding, keys KeysNodes, query *gorgonia.Node, prev StateNodes) (StateNodes, error) {
	return softStepNode(m, m.core, b, keys, query, prev)
}
