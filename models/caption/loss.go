package caption

import (
	"fmt"

	"github.com/attend-go/attend/models"
)

// Loss computes a batch's loss eagerly, teacher-forced, without a graph:
// the cross-entropy and the doubly stochastic penalty of BuildLoss, with
// no dropout and with hard attention reading as at inference
// (HardConfig.Inference; with Expectation this is the graph's loss when
// every caption reads the expectation, whose REINFORCE part is 0). Use it
// for validation loss; it agrees with the training graph within 1e-5.
func (m *Model) Loss(ws *Workspace, bt *Batch) (Loss, error) {
	cfg := m.Config
	B, S, L, V := bt.Key.B, bt.Key.S, cfg.Regions, cfg.Vocab
	if len(bt.Features) != B*L*cfg.FeatureDim || len(bt.Prev) != S*B || len(bt.Targets) != S*B ||
		len(bt.Weights) != S*B || len(bt.Steps) != B*S {
		return Loss{}, fmt.Errorf("%w: Loss: batch slices do not fit key %+v", ErrInput, bt.Key)
	}
	images := make([][]float32, B)
	for b := range images {
		images[b] = bt.Features[b*L*cfg.FeatureDim : (b+1)*L*cfg.FeatureDim]
	}
	e, err := m.Encode(images, 1)
	if err != nil {
		return Loss{}, err
	}
	cur, next := m.Start(e), &State{}
	alphas := make([]float32, B*S*L) // (B, S, L)
	var ce float64
	eps := cfg.LabelSmoothing
	for t := 0; t < S; t++ {
		logp, err := m.Step(ws, next, cur, e, bt.Prev[t*B:(t+1)*B])
		if err != nil {
			return Loss{}, err
		}
		for b := 0; b < B; b++ {
			copy(alphas[(b*S+t)*L:(b*S+t+1)*L], next.Attention.Weights[b*L:(b+1)*L])
			y := bt.Targets[t*B+b]
			if y == models.PadID {
				continue
			}
			if y < 0 || y >= V {
				return Loss{}, fmt.Errorf("%w: Loss: target %d of step %d is %d, want 0 … %d or PadID", ErrInput, b, t, y, V-1)
			}
			row := logp[b*V : (b+1)*V]
			l := -(1 - eps) * float64(row[y])
			if eps > 0 {
				var sum float64
				for _, x := range row {
					sum -= float64(x)
				}
				l += eps / float64(V) * sum
			}
			ce += float64(bt.Weights[t*B+b]) * l
		}
		cur, next = next, cur
	}
	out := Loss{CrossEntropy: ce}
	if lam := cfg.DoublyStochastic; lam > 0 && bt.Tokens > 0 {
		var p float64
		for b := 0; b < B; b++ {
			for i := 0; i < L; i++ {
				var sum float64
				for t := 0; t < S; t++ {
					sum += float64(bt.Steps[b*S+t]) * float64(alphas[(b*S+t)*L+i])
				}
				p += (1 - sum) * (1 - sum)
			}
		}
		out.Penalty = lam * p / float64(bt.Tokens)
	}
	out.Total = out.CrossEntropy + out.Penalty
	return out, nil
}
