package asr

import (
	"fmt"

	"github.com/attend-go/attend/models"
)

// grownOutputBias is the output-gate bias of the layers AddListenerLayers
// adds: σ(−3) ≈ 0.047 scales their branch down at the start.
const grownOutputBias = -3

// AddListenerLayers grows a (trained) model's listener by n flat residual
// BiLSTM layers on top, hʲ = hʲ⁻¹ + BiLSTM(hʲ⁻¹) (Config.ListenerFlat;
// the residual stacking of GNMT, Wu et al. 2016): how a deeper listener
// starts from a trained shallower one instead of from scratch. The new
// layers' weights are drawn from seed as New draws them, except the
// output-gate bias b_o, set to −3: a new layer's output o⊙tanh(c) is then
// at most about σ(−3) ≈ 0.05 in size where its inputs are small, so the
// grown model computes nearly what it did (hʲ ≈ hʲ⁻¹) and training grows
// the branch from there. Every other parameter keeps its value.
//
// The model is rebuilt with its parameters in New's order (the new
// layers after the old listener's, not after the heads), so its file,
// the optimizer state of its checkpoints and Load agree on one layout.
// m's Params, Listener, CTC, Speller and PhoneCTC are then new values:
// ones taken before the call no longer belong to the model. n < 1, or a
// listener deeper than Config.Validate allows, is ErrConfig.
func (m *Model) AddListenerLayers(n int, seed uint64) error {
	if n < 1 {
		return fmt.Errorf("%w: adding %d listener layers, want at least 1", ErrConfig, n)
	}
	cfg := m.Config
	cfg.ListenerLayers += n
	cfg.ListenerFlat += n
	if err := cfg.Validate(); err != nil {
		return err
	}
	grown, err := New(cfg, m.Vocab, seed)
	if err != nil {
		return err
	}
	for _, p := range m.Params.All() {
		q, ok := grown.Params.Get(p.Name)
		if !ok || !q.Shape().Eq(p.Shape()) {
			panic(fmt.Sprintf("asr: AddListenerLayers: parameter %q %v has no place in the grown model", p.Name, p.Shape()))
		}
		copy(q.F32(), p.F32())
	}
	for _, l := range grown.Listener.Layers[m.Config.ListenerLayers:] {
		for _, d := range []*models.LSTM{l.Fwd, l.Bwd} {
			H := d.Hidden
			b := d.B.F32() // [i f o g] (4H)
			for i := 2 * H; i < 3*H; i++ {
				b[i] = grownOutputBias
			}
		}
	}
	*m = *grown
	return nil
}
