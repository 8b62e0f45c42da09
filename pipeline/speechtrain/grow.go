package speechtrain

import (
	"errors"
	"fmt"

	"github.com/attend-go/attend/models/asr"
)

// Errors of growing an Init model's listener (TrainOptions.InitListenerLayers
// and InitListenerFlat); the command line says which flag to fix.
var (
	ErrListenerDepth = errors.New("the listener cannot be grown to that depth")
	ErrListenerFlat  = errors.New("the grown listener would have another number of flat layers")
)

// growListener grows the Init model m to o.InitListenerLayers listener
// layers, adding flat residual ones (asr.Model.AddListenerLayers, seeded
// by o.Seed), and checks o.InitListenerFlat against the result. It
// returns the number of layers added.
func growListener(m *asr.Model, o *TrainOptions) (int, error) {
	c := m.Config
	target := o.InitListenerLayers
	if target == 0 {
		target = c.ListenerLayers
	}
	if target < c.ListenerLayers {
		return 0, fmt.Errorf("speechtrain: %s: %w: it has %d listener layers, more than the %d asked for, and layers are only added", o.Init, ErrListenerDepth, c.ListenerLayers, target)
	}
	n := target - c.ListenerLayers
	if f := o.InitListenerFlat; f != 0 && f != c.ListenerFlat+n {
		return 0, fmt.Errorf("speechtrain: %s: %w: it has %d listener layers, %d of them flat, and growing it to %d adds %d flat ones: %d, not %d",
			o.Init, ErrListenerFlat, c.ListenerLayers, c.ListenerFlat, target, n, c.ListenerFlat+n, f)
	}
	if n == 0 {
		return 0, nil
	}
	if err := m.AddListenerLayers(n, o.Seed); err != nil {
		return 0, fmt.Errorf("speechtrain: %s: %w: %w", o.Init, ErrListenerDepth, err)
	}
	return n, nil
}
