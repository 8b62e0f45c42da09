package caption

import (
	"fmt"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models"
)

// Encoded is a batch of images ready for eager decoding: Images images of
// Rows decoder rows each, image i on rows i·Rows … (i+1)·Rows − 1. Beam
// search decodes one image on k rows; greedy search many images on one
// row each. An Encoded is read-only: goroutines may share it.
type Encoded struct {
	Images, Rows int
	// Keys are the annotations, each image's repeated on its rows
	// (Images·Rows, L, D), with the attention's key projection U·a_i + b
	// computed once. One image's keys are its rows' shared view of the
	// caller's values (not a copy): leave them unchanged while decoding.
	Keys *attention.Keys
	// Init is each row's initial LSTM state [h₀ | c₀] (Images·Rows, 2H).
	Init []float32
	// products are the images' context products, or nil when the steps
	// multiply each context (usesContextProducts).
	products *contextProducts
}

// Encode prepares images, each L·D finite annotation values (L, D)
// row-major, for decoding on rows rows each: it computes the initial
// states h₀, c₀ from the mean annotation and the attention keys.
func (m *Model) Encode(images [][]float32, rows int) (*Encoded, error) {
	L, D, H := m.Config.Regions, m.Config.FeatureDim, m.Config.Hidden
	if len(images) == 0 || rows < 1 {
		return nil, fmt.Errorf("%w: Encode: %d images on %d rows each, want at least one of each", ErrInput, len(images), rows)
	}
	n := len(images) * rows
	init := make([]float32, n*2*H)
	mean := make([]float32, D)
	var pre []float32
	for i, f := range images {
		if err := m.checkFeatures(f); err != nil {
			return nil, fmt.Errorf("Encode: image %d: %w", i, err)
		}
		meanRegions(mean, f, 1, L, D)
		row := init[i*rows*2*H : (i*rows+1)*2*H]
		for j, l := range []*models.Linear{m.InitH, m.InitC} {
			pre = l.Forward(pre, mean, 1)
			tanhSum(row[j*H:(j+1)*H], [][]float32{pre})
		}
		for r := 0; r < rows; r++ {
			copy(init[(i*rows+r)*2*H:], row)
		}
	}
	keys, err := m.prepareKeys(images, rows)
	if err != nil {
		return nil, fmt.Errorf("caption: Encode: %w", err)
	}
	e := &Encoded{Images: len(images), Rows: rows, Keys: keys, Init: init}
	if m.usesContextProducts(rows) {
		e.products = m.formContextProducts(images)
	}
	return e, nil
}

// prepareKeys returns the attention keys of images on rows rows each.
// One image's rows (a beam's) share its keys, prepared once
// (attention.Keys.Broadcast: soft attention reads them without copies);
// several images' are prepared from rows copies of each.
func (m *Model) prepareKeys(images [][]float32, rows int) (*attention.Keys, error) {
	L, D := m.Config.Regions, m.Config.FeatureDim
	if len(images) == 1 {
		keys, err := m.Attention.Prepare(images[0], nil, 1, L)
		if err == nil && rows > 1 {
			keys, err = keys.Broadcast(rows)
		}
		return keys, err
	}
	memory := make([]float32, 0, len(images)*rows*L*D)
	for _, f := range images {
		for range rows {
			memory = append(memory, f...)
		}
	}
	return m.Attention.Prepare(memory, nil, len(images)*rows, L)
}

// State is the eager decoder's state after a step, for B rows.
type State struct {
	B         int
	LSTM      []float32       // (B, 2H): [h_t | c_t]
	Attention attention.State // α_t in Attention.Weights (B, L)
	Beta      []float32       // (B): the gate β_t (1 without the gate)
}

// Start returns the state before the first step of the rows of e.
func (m *Model) Start(e *Encoded) *State {
	return &State{B: e.Keys.B, LSTM: append([]float32(nil), e.Init...)}
}

// Gather makes s hold rows of src, row i of s being row rows[i] of src,
// for beam search. s must not be src; src must hold at least one step.
func (s *State) Gather(src *State, rows []int) error {
	if err := s.Attention.Gather(&src.Attention, rows); err != nil {
		return fmt.Errorf("caption: State.Gather: %w", err)
	}
	w := len(src.LSTM) / src.B
	s.LSTM = grow(s.LSTM, len(rows)*w)
	s.Beta = grow(s.Beta, len(rows))
	for i, r := range rows {
		copy(s.LSTM[i*w:(i+1)*w], src.LSTM[r*w:(r+1)*w])
		s.Beta[i] = src.Beta[r]
	}
	s.B = len(rows)
	return nil
}

// grow returns a slice of length n, reusing buf's storage when it can.
func grow[T any](buf []T, n int) []T {
	if cap(buf) >= n {
		return buf[:n]
	}
	return make([]T, n)
}

// Workspace is the eager decoder's working memory, reused from step to
// step so that a steady-state Step allocates nothing. One per goroutine;
// the zero value is ready.
type Workspace struct {
	lstm        models.LSTMWorkspace
	h, z, embed []float32
	x           []float32 // [E·y ; z] (B, E+D)
	lh, lz      []float32 // L_h·h + b, L_z·z (B, E)
	tail        []float32 // z·W_z (B, 4H), from context products
	logp        []float32 // (B, V)
	// Adaptive attention: [E·y ; h] (B, E+H), the sentinel gate's
	// pre-activation and the sentinel (B, H), the query [h | s] (B, 2H).
	eh, pre, s, q []float32
	// members are an Ensemble's models' workspaces.
	members []Workspace
}

// Step runs one decoder step (Xu et al. §3.1.2, see BuildLoss) on every
// row: from the previous tokens (B) and prev it writes the next state into
// dst, which must not be prev, and returns log p(y_t | y_<t, a) (B, V),
// held in ws until its next use. Tokens may be PadID (an idle row).
func (m *Model) Step(ws *Workspace, dst, prev *State, e *Encoded, tokens []int) ([]float32, error) {
	B := prev.B
	cfg := m.Config
	E, H, D, V := cfg.Embed, cfg.Hidden, cfg.FeatureDim, cfg.Vocab
	switch {
	case dst == prev:
		return nil, fmt.Errorf("%w: Step: dst is prev; alternate two States", ErrInput)
	case len(tokens) != B || e.Keys.B != B || len(prev.LSTM) != B*2*H:
		return nil, fmt.Errorf("%w: Step: %d tokens, %d state rows (%d values), %d encoded rows", ErrInput, len(tokens), B, len(prev.LSTM), e.Keys.B)
	}
	ws.h = grow(ws.h, B*H)
	for r := 0; r < B; r++ {
		copy(ws.h[r*H:(r+1)*H], prev.LSTM[r*2*H:r*2*H+H]) // h_{t−1}
	}
	var err error
	if ws.embed, err = m.Embedding.Lookup(ws.embed, tokens); err != nil {
		return nil, fmt.Errorf("%w: Step: %w", ErrInput, err)
	}
	query := ws.h
	if m.Sentinel != nil {
		query = m.sentinelQuery(ws, prev.LSTM, B)
	}
	if err := m.Attention.Step(&dst.Attention, e.Keys, query, &prev.Attention); err != nil {
		return nil, fmt.Errorf("caption: Step: %w", err)
	}
	if cfg.Attention == Hard && cfg.Hard.Inference == Argmax {
		readArgmax(&dst.Attention, e.Keys)
	}
	ws.z = grow(ws.z, B*D)
	dst.Beta = grow(dst.Beta, B)
	if m.Gate != nil {
		if err := m.Gate.Apply(ws.z, dst.Beta, dst.Attention.Context, ws.h); err != nil {
			return nil, fmt.Errorf("caption: Step: %w", err)
		}
	} else {
		copy(ws.z, dst.Attention.Context)
		for r := range dst.Beta {
			dst.Beta[r] = 1
		}
	}
	dst.B = B
	dst.LSTM = grow(dst.LSTM, B*2*H)
	p := m.pack
	if p == nil { // the ...Packed methods without a pack are the plain ones
		p = &noPack
	}
	if e.products != nil { // z_t·W_z and L_z·z_t from the image's products
		ws.tail, ws.lz = grow(ws.tail, B*4*H), grow(ws.lz, B*E)
		e.products.contextTerms(ws.tail, ws.lz, dst.Attention.Weights, dst.Beta, e.Images, e.Rows, cfg.Regions, H, E)
		m.LSTM.StepHead(&ws.lstm, dst.LSTM, ws.embed, ws.tail, prev.LSTM, B, p.lstmHead)
	} else {
		ws.x = grow(ws.x, B*(E+D))
		for r := 0; r < B; r++ {
			copy(ws.x[r*(E+D):], ws.embed[r*E:(r+1)*E])
			copy(ws.x[r*(E+D)+E:(r+1)*(E+D)], ws.z[r*D:(r+1)*D])
		}
		m.LSTM.StepPacked(&ws.lstm, dst.LSTM, ws.x, prev.LSTM, B, p.lstm)
		ws.lz = m.OutZ.ForwardPacked(ws.lz, ws.z, B, p.outZ)
	}
	for r := 0; r < B; r++ {
		copy(ws.h[r*H:(r+1)*H], dst.LSTM[r*2*H:r*2*H+H]) // h_t
	}
	ws.lh = m.OutH.ForwardPacked(ws.lh, ws.h, B, p.outH)
	tanhSum(ws.lh, [][]float32{ws.lh, ws.embed, ws.lz}) // deep output (B, E)
	ws.logp = m.Output.ForwardPacked(ws.logp, ws.lh, B, p.outp)
	logSoftmaxRows(ws.logp, V)
	return ws.logp, nil
}

// noPack is the inferencePack of a model without one.
var noPack inferencePack

// sentinelQuery returns adaptive attention's query [h_{t−1} | s_t]
// (B, 2H) in ws, from ws.h (h_{t−1}), ws.embed (E·y_{t−1}) and the LSTM
// state before the step (see Model.sentinelQueryNode).
func (m *Model) sentinelQuery(ws *Workspace, state []float32, B int) []float32 {
	E, H := m.Config.Embed, m.Config.Hidden
	ws.eh = grow(ws.eh, B*(E+H))
	for r := 0; r < B; r++ {
		copy(ws.eh[r*(E+H):], ws.embed[r*E:(r+1)*E])
		copy(ws.eh[r*(E+H)+E:(r+1)*(E+H)], ws.h[r*H:(r+1)*H])
	}
	ws.pre = m.Sentinel.Forward(ws.pre, ws.eh, B)
	ws.s = grow(ws.s, B*H)
	sentinel(ws.s, ws.pre, state, B, H)
	ws.q = grow(ws.q, B*2*H)
	for r := 0; r < B; r++ {
		copy(ws.q[r*2*H:], ws.h[r*H:(r+1)*H])
		copy(ws.q[r*2*H+H:(r+1)*2*H], ws.s[r*H:(r+1)*H])
	}
	return ws.q
}

// readArgmax replaces each row's expected context with the annotation of
// its most likely region (the first of equals).
func readArgmax(s *attention.State, keys *attention.Keys) {
	T, D := keys.T, keys.D
	for b := 0; b < keys.B; b++ {
		w := s.Weights[b*T : (b+1)*T]
		best := 0
		for i, x := range w {
			if x > w[best] {
				best = i
			}
		}
		copy(s.Context[b*D:(b+1)*D], keys.Memory[(b*T+best)*D:(b*T+best+1)*D])
	}
}
