package attention

import (
	"errors"
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
)

// Sentinel errors; every error the package returns wraps one of them.
var (
	// ErrShape reports an input whose size or shape does not match the
	// mechanism's dimensions or the other inputs.
	ErrShape = errors.New("shape mismatch")
	// ErrConfig reports invalid constructor arguments, such as a model width
	// that the number of heads does not divide.
	ErrConfig = errors.New("invalid configuration")
	// ErrDtype reports parameters or tensors of an unsupported element type
	// (the eager face computes in float32).
	ErrDtype = errors.New("unsupported dtype")
	// ErrKeys reports keys prepared by another mechanism, or a State used as
	// both the previous and the next state of one step.
	ErrKeys = errors.New("keys or state misused")
)

// Dims are a mechanism's widths.
type Dims struct {
	Query   int // H: width of a query (the decoder state)
	Key     int // D: width of a memory entry (an encoder frame or image region)
	Context int // width of the context vector a step returns (D, or the model width of MultiHead)
}

// A Mechanism scores a memory of T entries against a query and returns the
// weights α (B, T) and the context Σ_t α_t·value_t. Every mechanism has two
// faces over the same parameters: eager Go for inference (Prepare, Step)
// and gorgonia nodes for training (PrepareNodes, StepNode). Their forward
// passes agree within 1e-5 in float32.
//
// State is explicit: a step reads the previous State and writes the next
// one; nothing is cached in the mechanism, which is safe for concurrent use
// by steps writing to distinct States. The exception is Hard with Sample
// inference (and its training graphs): its steps draw from the one
// *rand.Rand of HardOptions, so they must not run concurrently.
type Mechanism interface {
	// Name names the mechanism, e.g. "Additive(H=256,D=512,A=256)".
	Name() string
	// Dims returns the query, key and context widths.
	Dims() Dims

	// Prepare precomputes what a mechanism needs from the memory once per
	// batch (for example U·k for every entry: one GEMM). memory is (B, T, D)
	// row-major and mask (B, T) holds 1 for real entries and 0 for padding
	// (nil: no padding). The Keys refer to memory and mask without copying.
	Prepare(memory, mask []float32, B, T int) (*Keys, error)
	// Step attends once: it reads query (B, H) and prev (nil or the zero
	// State before the first step) and writes dst.Context (B, Context),
	// dst.Weights (B, T), dst.Cumulative (B, T) and the mechanism's own
	// fields, reusing dst's buffers: in steady state a step allocates
	// nothing. dst must not be prev; alternate two States.
	Step(dst *State, keys *Keys, query []float32, prev *State) error

	// PrepareNodes is Prepare in a graph: memory is a (B, T, D) node and
	// mask a (B, T) node of 1s and 0s, or nil for no padding.
	PrepareNodes(b *models.Binding, memory, mask *gorgonia.Node) (KeysNodes, error)
	// StepNode is Step in a graph: query is a (B, H) node and prev the
	// previous step's StateNodes (the zero StateNodes before the first
	// step). It returns the step's context and weights nodes and whatever
	// state the next step needs.
	StepNode(b *models.Binding, keys KeysNodes, query *gorgonia.Node, prev StateNodes) (StateNodes, error)
}

// Keys is a batch of memory prepared by one mechanism's Prepare.
type Keys struct {
	B, T, D int
	Memory  []float32 // (B, T, D): the values a context averages; not copied
	Mask    []float32 // (B, T): 1 real, 0 padding; nil when nothing is padded
	Lengths []int     // (B): real positions per row (the count of mask 1s)

	proj   []float32 // mechanism-specific projection of the memory, e.g. (B, T, A)
	values []float32 // MultiHead's value projection (B, T, d)
	owner  Mechanism // the mechanism that prepared these keys

	// shared says that every row reads row 0: Memory, Mask, proj and
	// values hold one row (Broadcast).
	shared bool
}

// KeysNodes is a batch of memory prepared by one mechanism's PrepareNodes.
type KeysNodes struct {
	B, T   int
	Memory *gorgonia.Node // (B, T, D)
	Mask   *gorgonia.Node // (B, T): 1 real, 0 padding (all ones when none was given)
	Proj   *gorgonia.Node // mechanism-specific projection of the memory, or nil
	Values *gorgonia.Node // MultiHead's value projection (B, T, d), or nil

	// The additive family's steps send their gradients of Memory and Proj
	// to sink, through its token (see keySink); nil for other mechanisms.
	sink  *keySink
	token *gorgonia.Node
}

// State is the attention state after a step. The zero State is the state
// before the first step. A step overwrites every field of its dst State,
// reusing the slices' storage when they are large enough.
type State struct {
	Steps      int       // steps taken: 0 before the first
	B          int       // batch rows of the last step
	Context    []float32 // (B, Context): Σ_t α_t·value_t
	Weights    []float32 // (B, T): α of the last step; 0 on padding; rows of all padding are all 0
	Cumulative []float32 // (B, T): Σ of the weights of all steps so far (coverage)
	Center     []float32 // (B): Local's predicted window centers p_t; nil for other mechanisms
	Heads      []float32 // (B, h, T): MultiHead's per-head weights (Weights is their mean); nil otherwise
	Sample     []int     // (B): Hard's attended position (−1 for an all-padding row, or in Expectation mode); nil otherwise
	Sentinel   []float32 // (B): Adaptive's sentinel weight β (the share not read from the memory); nil otherwise
}

// StateNodes is the graph face of State: the nodes one step produces.
// Fields a mechanism does not use are nil.
type StateNodes struct {
	Context    *gorgonia.Node // (B, Context)
	Weights    *gorgonia.Node // (B, T)
	Cumulative *gorgonia.Node // (B, T): only LocationAware with Cumulative features tracks it in a graph
	Center     *gorgonia.Node // (B): Local
	Heads      *gorgonia.Node // (B, h, T): MultiHead
	Sample     *gorgonia.Node // (B, T) one-hot: Hard
	Sentinel   *gorgonia.Node // (B): Adaptive's sentinel weight β
}

// first reports whether prev is the state before the first step.
func (s *State) first() bool { return s == nil || s.Steps == 0 }

// resize sizes dst's slices for a batch, keeping their storage.
func (s *State) resize(B, T, ctxDim int) {
	s.B = B
	s.Context = grow(s.Context, B*ctxDim)
	s.Weights = grow(s.Weights, B*T)
	s.Cumulative = grow(s.Cumulative, B*T)
}

// advance sets Steps and Cumulative from prev and the new Weights.
func (s *State) advance(prev *State) {
	if prev.first() {
		s.Steps = 1
		copy(s.Cumulative, s.Weights)
		return
	}
	s.Steps = prev.Steps + 1
	for i, w := range s.Weights {
		s.Cumulative[i] = prev.Cumulative[i] + w
	}
}

// grow returns a slice of length n, reusing buf's storage when it can.
func grow[T any](buf []T, n int) []T {
	if cap(buf) >= n {
		return buf[:n]
	}
	return make([]T, n)
}

// Gather makes s hold the rows of src listed in rows: row i of s is row
// rows[i] of src, in every field. Beam search uses it to follow the
// hypotheses it keeps, which reorders and duplicates rows between steps;
// the Keys of a beam are the same memory repeated, so they need no
// reordering. s must not be src; it reuses its own storage.
func (s *State) Gather(src *State, rows []int) error {
	if s == src {
		return fmt.Errorf("attention: State.Gather: destination is the source: %w", ErrKeys)
	}
	B := src.B
	if src.first() || B < 1 {
		return fmt.Errorf("attention: State.Gather: source state holds no step: %w", ErrKeys)
	}
	for i, r := range rows {
		if r < 0 || r >= B {
			return fmt.Errorf("attention: State.Gather: rows[%d] = %d, want 0..%d: %w", i, r, B-1, ErrShape)
		}
	}
	n := len(rows)
	s.Steps, s.B = src.Steps, n
	s.Context = gatherRows(s.Context, src.Context, rows, len(src.Context)/B)
	s.Weights = gatherRows(s.Weights, src.Weights, rows, len(src.Weights)/B)
	s.Cumulative = gatherRows(s.Cumulative, src.Cumulative, rows, len(src.Cumulative)/B)
	s.Center = gatherRows(s.Center, src.Center, rows, len(src.Center)/B)
	s.Heads = gatherRows(s.Heads, src.Heads, rows, len(src.Heads)/B)
	s.Sample = gatherRows(s.Sample, src.Sample, rows, len(src.Sample)/B)
	s.Sentinel = gatherRows(s.Sentinel, src.Sentinel, rows, len(src.Sentinel)/B)
	return nil
}

// gatherRows copies rows of width w from src into dst (nil when src is).
func gatherRows[T any](dst, src []T, rows []int, w int) []T {
	if src == nil {
		return dst[:0]
	}
	dst = grow(dst, len(rows)*w)
	for i, r := range rows {
		copy(dst[i*w:(i+1)*w], src[r*w:(r+1)*w])
	}
	return dst
}
