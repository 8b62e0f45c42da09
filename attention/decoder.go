package attention

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
)

// DecoderConfig sizes a Decoder.
type DecoderConfig struct {
	Vocab  int // output classes, end-of-sequence included
	Embed  int // width of a token embedding
	Hidden int // LSTM state width; must equal the mechanism's Query width
}

// Decoder is an LSTM decoder with attention and input feeding, the speller
// of Listen, Attend and Spell (Chan et al. 2016, eqs. 6–8) and the decoder
// of Luong et al. (2015, §3.3). At output step i, with y₍ᵢ₋₁₎ the previous
// token and c₍ᵢ₋₁₎ the previous context:
//
//	s_i      = LSTM([E·y₍ᵢ₋₁₎ ; c₍ᵢ₋₁₎], s₍ᵢ₋₁₎)          (B, H)
//	α_i, c_i = Attend(s_i, memory, α₍ᵢ₋₁₎)               (B, T), (B, C)
//	logits_i = W_o·[s_i ; c_i] + b_o                     (B, V)
//
// Parameters under prefix: <prefix>.embed (V, E), <prefix>.lstm.* (E+C →
// H) and <prefix>.out.* (H+C → V); the mechanism keeps its own. The state
// before the first step and the first context are zero.
type Decoder struct {
	Config    DecoderConfig
	Embedding *models.Embedding
	Cell      *models.LSTM
	Attention Mechanism
	Output    *models.Linear
}

// NewDecoder creates a decoder's parameters under prefix around att, whose
// Query width must be cfg.Hidden.
func NewDecoder(ps *models.Params, prefix string, cfg DecoderConfig, att Mechanism) (*Decoder, error) {
	dims := att.Dims()
	if cfg.Vocab < 1 || cfg.Embed < 1 || cfg.Hidden < 1 {
		return nil, fmt.Errorf("attention: NewDecoder: sizes %+v must be positive: %w", cfg, ErrConfig)
	}
	if dims.Query != cfg.Hidden {
		return nil, fmt.Errorf("attention: NewDecoder: %s takes queries of width %d, the decoder's state is %d: %w", att.Name(), dims.Query, cfg.Hidden, ErrConfig)
	}
	return &Decoder{
		Config:    cfg,
		Embedding: models.NewEmbedding(ps, prefix+".embed", cfg.Vocab, cfg.Embed),
		Cell:      models.NewLSTM(ps, prefix+".lstm", cfg.Embed+dims.Context, cfg.Hidden),
		Attention: att,
		Output:    models.NewLinear(ps, prefix+".out", cfg.Hidden+dims.Context, cfg.Vocab, nil),
	}, nil
}

// Unrolled is a teacher-forced decoder in a graph.
type Unrolled struct {
	Logits  *gorgonia.Node   // (S·B, V), step-major: row i·B + b is step i of sequence b
	Weights []*gorgonia.Node // S × (B, T): each step's attention weights
}

// Unroll adds the decoder, teacher-forced over S steps, to a graph: inputs
// (S, B) holds the previous token of every step (a start token, then the
// targets shifted right; PadID past a sequence's end). The caller turns
// Logits into a loss, e.g. models.CrossEntropy with step-major targets.
func (d *Decoder) Unroll(b *models.Binding, keys KeysNodes, inputs *gorgonia.Node) (*Unrolled, error) {
	s := inputs.Shape()
	if s.Dims() != 2 || s[1] != keys.B {
		return nil, fmt.Errorf("attention: Decoder.Unroll: inputs %v, want (S, %d): %w", s, keys.B, ErrShape)
	}
	S, B := s[0], s[1]
	g := inputs.Graph()
	dt := inputs.Dtype()
	H, C := d.Config.Hidden, d.Attention.Dims().Context
	fail := func(step int, err error) (*Unrolled, error) {
		return nil, fmt.Errorf("attention: Decoder.Unroll step %d: %w", step, err)
	}
	emb, err := d.Embedding.Apply(b, inputs) // (S, B, E)
	if err != nil {
		return fail(0, err)
	}
	state := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(B, 2*H), gorgonia.WithName("decoder.state0"), gorgonia.WithInit(gorgonia.Zeroes()))
	ctx := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(B, C), gorgonia.WithName("decoder.context0"), gorgonia.WithInit(gorgonia.Zeroes()))
	var att StateNodes
	u := &Unrolled{}
	outs := make(gorgonia.Nodes, S)
	for i := 0; i < S; i++ {
		e, err := models.Select(emb, 0, i) // (B, E)
		if err != nil {
			return fail(i, err)
		}
		x, err := models.Concat(1, e, ctx) // (B, E+C)
		if err != nil {
			return fail(i, err)
		}
		if state, err = d.Cell.ApplyStep(b, x, state); err != nil { // (B, 2H)
			return fail(i, err)
		}
		h, _, err := d.Cell.SplitState(state) // (B, H)
		if err != nil {
			return fail(i, err)
		}
		if att, err = d.Attention.StepNode(b, keys, h, att); err != nil {
			return fail(i, err)
		}
		ctx = att.Context // (B, C)
		u.Weights = append(u.Weights, att.Weights)
		if outs[i], err = models.Concat(1, h, ctx); err != nil { // (B, H+C)
			return fail(i, err)
		}
	}
	all := outs[0]
	if S > 1 {
		if all, err = models.Concat(0, outs...); err != nil { // (S·B, H+C)
			return fail(S, err)
		}
	}
	if u.Logits, err = d.Output.Apply(b, all); err != nil { // (S·B, V)
		return fail(S, err)
	}
	return u, nil
}

// DecoderState is the eager decoder's state between steps.
type DecoderState struct {
	B         int
	LSTM      []float32 // (B, 2H): [s | cell]
	Attention State
}

// DecoderWorkspace is the eager decoder's working memory, reused between
// steps so that steady-state decoding does not allocate. One per goroutine.
type DecoderWorkspace struct {
	lstm   models.LSTMWorkspace
	embed  []float32 // (B, E)
	x      []float32 // (B, E+C)
	h      []float32 // (B, H)
	out    []float32 // (B, H+C)
	logits []float32 // (B, V)
}

// Start returns the state before the first step for B sequences.
func (d *Decoder) Start(B int) *DecoderState {
	return &DecoderState{B: B, LSTM: make([]float32, B*2*d.Config.Hidden)}
}

// Step runs one eager decoding step: from the previous tokens (B) and prev
// it writes the next state into dst (which must not be prev) and returns
// the logits (B, V), held in ws until its next use.
func (d *Decoder) Step(ws *DecoderWorkspace, dst, prev *DecoderState, keys *Keys, tokens []int) ([]float32, error) {
	B := prev.B
	if len(tokens) != B || keys.B != B {
		return nil, fmt.Errorf("attention: Decoder.Step: %d tokens, %d state rows, %d key rows: %w", len(tokens), B, keys.B, ErrShape)
	}
	if dst == prev {
		return nil, fmt.Errorf("attention: Decoder.Step: dst is prev: %w", ErrKeys)
	}
	E, H, C := d.Config.Embed, d.Config.Hidden, d.Attention.Dims().Context
	var err error
	if ws.embed, err = d.Embedding.Lookup(ws.embed, tokens); err != nil {
		return nil, fmt.Errorf("attention: Decoder.Step: %w", err)
	}
	ws.x = grow(ws.x, B*(E+C))
	for r := 0; r < B; r++ {
		copy(ws.x[r*(E+C):], ws.embed[r*E:(r+1)*E])
		if prev.Attention.Steps > 0 {
			copy(ws.x[r*(E+C)+E:(r+1)*(E+C)], prev.Attention.Context[r*C:(r+1)*C])
		} else {
			clear(ws.x[r*(E+C)+E : (r+1)*(E+C)])
		}
	}
	dst.B = B
	dst.LSTM = grow(dst.LSTM, B*2*H)
	d.Cell.Step(&ws.lstm, dst.LSTM, ws.x, prev.LSTM, B)
	ws.h = grow(ws.h, B*H)
	for r := 0; r < B; r++ {
		copy(ws.h[r*H:(r+1)*H], dst.LSTM[r*2*H:r*2*H+H])
	}
	if err := d.Attention.Step(&dst.Attention, keys, ws.h, &prev.Attention); err != nil {
		return nil, fmt.Errorf("attention: Decoder.Step: %w", err)
	}
	ws.out = grow(ws.out, B*(H+C))
	for r := 0; r < B; r++ {
		copy(ws.out[r*(H+C):], ws.h[r*H:(r+1)*H])
		copy(ws.out[r*(H+C)+H:(r+1)*(H+C)], dst.Attention.Context[r*C:(r+1)*C])
	}
	ws.logits = d.Output.Forward(ws.logits, ws.out, B)
	return ws.logits, nil
}

// Gather makes s hold rows of src (see State.Gather), for beam search.
func (s *DecoderState) Gather(src *DecoderState, rows []int) error {
	if src.Attention.Steps > 0 {
		if err := s.Attention.Gather(&src.Attention, rows); err != nil {
			return err
		}
	} else {
		s.Attention = State{}
	}
	w := len(src.LSTM) / src.B
	s.LSTM = gatherRows(s.LSTM, src.LSTM, rows, w)
	s.B = len(rows)
	return nil
}
