package models

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// PadID is the token id of padding: it embeds to the zero vector and
// receives no gradient, so padded target positions need no special id.
const PadID = -1

// Embedding maps token ids to rows of a table: ids (…) → vectors (…, Dim).
// Its parameter is <prefix>.table (Vocab, Dim), drawn from U(−0.1, 0.1)
// (as in Show, Attend and Tell). The lookup is a gather, not a one-hot
// product; its gradient scatters (adds) the output gradient into the rows
// of the ids used, so a repeated id accumulates.
type Embedding struct {
	Table      *Param // (Vocab, Dim)
	Vocab, Dim int
}

// NewEmbedding creates a vocab×dim table under prefix.
func NewEmbedding(ps *Params, prefix string, vocab, dim int) *Embedding {
	return &Embedding{Table: ps.New(prefix+".table", Uniform(0.1), vocab, dim), Vocab: vocab, Dim: dim}
}

// Apply is the graph face: ids is a float tensor of any shape holding whole
// token ids in [0, Vocab) or PadID; the result has shape ids.Shape()+(Dim).
// An id out of range fails the forward pass with ErrBadIndex.
func (e *Embedding) Apply(b *Binding, ids *gorgonia.Node) (*gorgonia.Node, error) {
	return Apply(&embeddingKernel{}, ids, b.Node(e.Table.Name))
}

// Lookup is the eager face: it writes the embeddings of ids into dst
// (len(ids), Dim), growing dst when short, and returns it. The table must
// be float32.
func (e *Embedding) Lookup(dst []float32, ids []int) ([]float32, error) {
	if err := checkInts(ids, "embedding ids", PadID, e.Vocab-1); err != nil {
		return dst, err
	}
	dst = growFloats(dst, len(ids)*e.Dim)
	gatherRows(dst, floatsOf[float32](e.Table.Value), ids, e.Dim)
	return dst, nil
}

// gatherRows sets row i of dst (width d) to row ids[i] of table, or to
// zeros for PadID.
func gatherRows[F Float](dst, table []F, ids []int, d int) {
	for i, id := range ids {
		row := dst[i*d : (i+1)*d]
		if id == PadID {
			clear(row)
			continue
		}
		copy(row, table[id*d:(id+1)*d])
	}
}

// embeddingKernel gathers rows: inputs ids (…) and table (V, D).
type embeddingKernel struct {
	ids []int // the forward pass's ids, for Backward
}

func (*embeddingKernel) Name() string { return "Embedding" }

func (*embeddingKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2 || in[1].Dims() != 2 {
		return nil, fmt.Errorf("want inputs ids (…) and table (V, D); got %v", in)
	}
	return append(in[0].Clone(), in[1][1]), nil
}

func (*embeddingKernel) Differentiable(int) []bool { return []bool{false, true} }

func (k *embeddingKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	ts := in[1].Shape()
	ids, err := readInts(in[0], "embedding ids", PadID, ts[0]-1, k.ids)
	k.ids = ids
	if err != nil {
		return err
	}
	if out.Dtype() == tensor.Float32 {
		gatherRows(floatsOf[float32](out), floatsOf[float32](in[1]), ids, ts[1])
	} else {
		gatherRows(floatsOf[float64](out), floatsOf[float64](in[1]), ids, ts[1])
	}
	return nil
}

func (k *embeddingKernel) Backward(dIn []*tensor.Dense, dOut, _ *tensor.Dense, in []*tensor.Dense) error {
	d := in[1].Shape()[1]
	if dOut.Dtype() == tensor.Float32 {
		scatterRows(floatsOf[float32](dIn[1]), floatsOf[float32](dOut), k.ids, d)
	} else {
		scatterRows(floatsOf[float64](dIn[1]), floatsOf[float64](dOut), k.ids, d)
	}
	return nil
}

// scatterRows sets dTable to the sum, per id, of the rows of dy that
// gathered it.
func scatterRows[F Float](dTable, dy []F, ids []int, d int) {
	clear(dTable)
	for i, id := range ids {
		if id == PadID {
			continue
		}
		dst, src := dTable[id*d:(id+1)*d], dy[i*d:(i+1)*d]
		for j, v := range src {
			dst[j] += v
		}
	}
}
