package asr

import (
	"fmt"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models"
)

// SpellerConfig sizes a Speller.
type SpellerConfig struct {
	Vocab  int // output classes V, EOS included
	Embed  int // width E of a token embedding
	Hidden int // LSTM state width H; must equal the mechanism's Query width
}

// Speller is the speller of Listen, Attend and Spell (Chan et al. 2016,
// eqs. 6–8): an LSTM decoder with attention and input feeding, as in Luong
// et al. (2015, §3.3). At output step i, with y_{i−1} the previous token
// and c_{i−1} the previous context (both zero before the first step):
//
//	s_i      = LSTM([E·y_{i−1} ; c_{i−1}], s_{i−1})      (B, H)
//	α_i, c_i = Attend(s_i, h, α_{i−1})                   (B, T'), (B, C)
//	logits_i = W_o·[s_i ; c_i] + b_o                     (B, V)
//
// with h (B, T', D) the listener's output and C the mechanism's context
// width (D for LocationAware). Its parameters, under a prefix ("speller"
// in a Model):
//
//	<prefix>.embed.table       (V, E)                          E
//	<prefix>.lstm.wx, .wh, .b  (E+C, 4H), (H, 4H), (4H)       gates [i f o g]
//	<prefix>.out.w, .b         (H+C, V), (V)                   W_o, b_o
//
// The mechanism keeps its own (<prefix>.att.* in a Model). The speller
// works with any attention.Mechanism; a Model uses LocationAware, the
// benchmarks Additive.
//
// Like the mechanisms, the speller has two faces over the same
// parameters: Unroll adds the teacher-forced speller to a training graph
// (speller_graph.go) and Step runs one eager inference step (this file).
type Speller struct {
	Config    SpellerConfig
	Embedding *models.Embedding
	Cell      *models.LSTM
	Attention attention.Mechanism
	Output    *models.Linear

	// pack, set by PackForInference, holds Cell's weights packed for the
	// eager step's products.
	pack *models.LSTMPack
}

// PackForInference packs the LSTM's weights for the eager Step, whose
// products for a beam's rows then read them in the kernel's order once
// (models.LSTM.Pack). It is for a speller that only decodes: the weights
// must not change afterwards (training never calls it; call it again
// after they do). The graph's steps do not read the pack.
func (d *Speller) PackForInference() { d.pack = d.Cell.Pack() }

// NewSpeller creates a speller's parameters under prefix around att, whose
// Query width must be cfg.Hidden. A bad size wraps attention.ErrConfig.
func NewSpeller(ps *models.Params, prefix string, cfg SpellerConfig, att attention.Mechanism) (*Speller, error) {
	dims := att.Dims()
	if cfg.Vocab < 1 || cfg.Embed < 1 || cfg.Hidden < 1 {
		return nil, fmt.Errorf("asr: NewSpeller: sizes %+v must be positive: %w", cfg, attention.ErrConfig)
	}
	if dims.Query != cfg.Hidden {
		return nil, fmt.Errorf("asr: NewSpeller: %s takes queries of width %d, the speller's state is %d: %w", att.Name(), dims.Query, cfg.Hidden, attention.ErrConfig)
	}
	return &Speller{
		Config:    cfg,
		Embedding: models.NewEmbedding(ps, prefix+".embed", cfg.Vocab, cfg.Embed),
		Cell:      models.NewLSTM(ps, prefix+".lstm", cfg.Embed+dims.Context, cfg.Hidden),
		Attention: att,
		Output:    models.NewLinear(ps, prefix+".out", cfg.Hidden+dims.Context, cfg.Vocab, nil),
	}, nil
}

// SpellerState is the eager speller's state between steps.
type SpellerState struct {
	B         int
	LSTM      []float32       // (B, 2H): [s | cell]
	Attention attention.State // α_i (B, T'), c_i (B, C), …
}

// SpellerWorkspace is the eager speller's working memory, reused between
// steps so that steady-state decoding does not allocate. One per goroutine.
type SpellerWorkspace struct {
	lstm   models.LSTMWorkspace
	embed  []float32 // (B, E)
	x      []float32 // (B, E+C)
	h      []float32 // (B, H)
	out    []float32 // (B, H+C)
	logits []float32 // (B, V)
}

// Start returns the state before the first step for B sequences.
func (d *Speller) Start(B int) *SpellerState {
	return &SpellerState{B: B, LSTM: make([]float32, B*2*d.Config.Hidden)}
}

// Step runs one eager decoding step: from the previous tokens (B) and prev
// it writes the next state into dst (which must not be prev) and returns
// the logits (B, V), held in ws until its next use. Mismatched sizes wrap
// attention.ErrShape, dst == prev attention.ErrKeys.
func (d *Speller) Step(ws *SpellerWorkspace, dst, prev *SpellerState, keys *attention.Keys, tokens []int) ([]float32, error) {
	B := prev.B
	if len(tokens) != B || keys.B != B {
		return nil, fmt.Errorf("asr: Speller.Step: %d tokens, %d state rows, %d key rows: %w", len(tokens), B, keys.B, attention.ErrShape)
	}
	if dst == prev {
		return nil, fmt.Errorf("asr: Speller.Step: dst is prev: %w", attention.ErrKeys)
	}
	E, H, C := d.Config.Embed, d.Config.Hidden, d.Attention.Dims().Context
	var err error
	if ws.embed, err = d.Embedding.Lookup(ws.embed, tokens); err != nil { // E·y_{i−1} (B, E)
		return nil, fmt.Errorf("asr: Speller.Step: %w", err)
	}
	ws.x = grow(ws.x, B*(E+C)) // [E·y_{i−1} ; c_{i−1}] (B, E+C)
	for r := 0; r < B; r++ {
		copy(ws.x[r*(E+C):], ws.embed[r*E:(r+1)*E])
		if prev.Attention.Steps > 0 {
			copy(ws.x[r*(E+C)+E:(r+1)*(E+C)], prev.Attention.Context[r*C:(r+1)*C])
		} else {
			clear(ws.x[r*(E+C)+E : (r+1)*(E+C)]) // c_0 = 0
		}
	}
	dst.B = B
	dst.LSTM = grow(dst.LSTM, B*2*H)
	d.Cell.StepPacked(&ws.lstm, dst.LSTM, ws.x, prev.LSTM, B, d.pack) // [s_i | cell_i] (B, 2H); Step without a pack
	ws.h = grow(ws.h, B*H)                                            // s_i (B, H)
	for r := 0; r < B; r++ {
		copy(ws.h[r*H:(r+1)*H], dst.LSTM[r*2*H:r*2*H+H])
	}
	if err := d.Attention.Step(&dst.Attention, keys, ws.h, &prev.Attention); err != nil { // α_i (B, T'), c_i (B, C)
		return nil, fmt.Errorf("asr: Speller.Step: %w", err)
	}
	ws.out = grow(ws.out, B*(H+C)) // [s_i ; c_i] (B, H+C)
	for r := 0; r < B; r++ {
		copy(ws.out[r*(H+C):], ws.h[r*H:(r+1)*H])
		copy(ws.out[r*(H+C)+H:(r+1)*(H+C)], dst.Attention.Context[r*C:(r+1)*C])
	}
	ws.logits = d.Output.Forward(ws.logits, ws.out, B) // (B, V)
	return ws.logits, nil
}

// Gather makes s hold rows of src (see attention.State.Gather), for beam
// search.
func (s *SpellerState) Gather(src *SpellerState, rows []int) error {
	if src.Attention.Steps > 0 {
		if err := s.Attention.Gather(&src.Attention, rows); err != nil {
			return err
		}
	} else {
		s.Attention = attention.State{}
	}
	w := len(src.LSTM) / src.B
	s.LSTM = grow(s.LSTM, len(rows)*w)
	for i, r := range rows {
		copy(s.LSTM[i*w:(i+1)*w], src.LSTM[r*w:(r+1)*w])
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
