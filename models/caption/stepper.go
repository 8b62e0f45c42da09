package caption

// stepper decodes the k rows of one image a step at a time, for beam
// search: a model (modelStepper) or an ensemble of models
// (ensembleStepper) behind one interface.
type stepper interface {
	// step feeds each row its previous token (k) and returns
	// log p(y_t | y_<t, a) (k, V), valid until the next call.
	step(tokens []int) ([]float32, error)
	// looked returns the last step's attention weights (k, L), gates β
	// (k) and adaptive attention's sentinel weights (k; nil for other
	// attention), valid until the next step.
	looked() (weights, beta, sentinel []float32)
	// gather makes row i continue row rows[i] of the last step.
	gather(rows []int) error
}

// modelStepper is one model's stepper: the state before the step (cur)
// and after it (next), swapped by gather.
type modelStepper struct {
	m         *Model
	ws        *Workspace
	e         *Encoded
	cur, next *State
}

// stepper returns a stepper decoding features (L, D) on k rows with m.
func (m *Model) stepper(ws *Workspace, features []float32, k int) (*modelStepper, error) {
	e, err := m.Encode([][]float32{features}, k)
	if err != nil {
		return nil, err
	}
	return &modelStepper{m: m, ws: ws, e: e, cur: m.Start(e), next: &State{}}, nil
}

func (s *modelStepper) step(tokens []int) ([]float32, error) {
	return s.m.Step(s.ws, s.next, s.cur, s.e, tokens)
}

func (s *modelStepper) looked() (weights, beta, sentinel []float32) {
	return s.next.Attention.Weights, s.next.Beta, s.next.Attention.Sentinel
}

func (s *modelStepper) gather(rows []int) error { return s.cur.Gather(s.next, rows) }
