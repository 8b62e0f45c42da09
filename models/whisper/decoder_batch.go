package whisper

import (
	"fmt"

	"github.com/attend-go/attend/attention"
)

// forwardEach appends tokens[k] to decs[k] for every k and returns each
// decoder's logits for it (NVocab), as decs[k].Forward(tokens[k:k+1])
// would. Beam search's and best-of sampling's sequences are clones of one
// decoder: their step runs as one batch (forwardBatch), which reads every
// weight once for all of them instead of once per sequence. Other
// decoders step one by one. The rows are valid until the next call.
func forwardEach(decs []TextDecoder, tokens []int) ([][]float32, error) {
	if batch := batchOf(decs); batch != nil {
		return batch[0].forwardBatch(batch, tokens)
	}
	out := make([][]float32, len(decs))
	for k, d := range decs {
		rows, err := d.Forward(tokens[k : k+1])
		if err != nil {
			return nil, err
		}
		if len(rows) != 1 {
			return nil, fmt.Errorf("whisper: decoder returned %d logit rows for 1 token", len(rows))
		}
		out[k] = rows[0]
	}
	return out, nil
}

// batchOf returns decs as textDecoders that can step together: two or
// more distinct decoders of one Model over the same audio, none recording
// its cross-attention; otherwise nil.
func batchOf(decs []TextDecoder) []*textDecoder {
	if len(decs) < 2 {
		return nil
	}
	batch := make([]*textDecoder, len(decs))
	seen := make(map[*textDecoder]bool, len(decs))
	for k, d := range decs {
		td, ok := d.(*textDecoder)
		if !ok || td.record || seen[td] || (k > 0 && (td.m != batch[0].m || td.kv != batch[0].kv)) {
			return nil
		}
		seen[td], batch[k] = true, td
	}
	return batch
}

// forwardBatch appends tokens[k] to decs[k] (d is decs[0]) and returns
// their logits, one row each, in d's buffer. The t = len(decs) rows go
// through every product together (matrix.mulFew reads each weight from
// memory once for all of them, crossAttend each layer's keys and values);
// each row's self-attention reads its own decoder's cache at its own
// position. Every row's logits are bit for bit what its decoder's own
// Forward would give.
func (d *textDecoder) forwardBatch(decs []*textDecoder, tokens []int) ([][]float32, error) {
	if len(tokens) != len(decs) {
		return nil, fmt.Errorf("whisper: %d tokens for %d decoders", len(tokens), len(decs))
	}
	d.takeBuffers(decs)
	n, heads := d.m.dims.NTextState, d.m.dims.NTextHead
	rows, err := d.run(tokens, allRows(len(tokens)), func(k int) int { return decs[k].len }, true, func(l int, s *scratch) {
		for k, e := range decs {
			off := e.len
			ck := append(e.self.k[l][:off*n], s.k[k*n:(k+1)*n]...)
			cv := append(e.self.v[l][:off*n], s.v[k*n:(k+1)*n]...)
			e.self.k[l], e.self.v[l] = ck, cv
			attention.SDPA{Heads: heads, Causal: true, Offset: off}.Attend(s.o[k*n:(k+1)*n], s.q[k*n:(k+1)*n], ck, cv, 1, off+1, n)
		}
	})
	if err == nil {
		for _, e := range decs {
			e.len++
		}
	}
	return rows, err
}

// takeBuffers gives d (decs[0]) the batch's buffers (logits, residual
// stream, activations, cross-attention scores) of the decoder in decs
// that holds the largest, in exchange for d's own. Beam search reorders
// its decoders every step, and each that led a step would otherwise keep
// a set of its own (1.5 MB for base's five sequences).
func (d *textDecoder) takeBuffers(decs []*textDecoder) {
	best := d
	for _, e := range decs[1:] {
		if e.st > best.st {
			best = e
		}
	}
	if best != d {
		d.logits, best.logits = best.logits, d.logits
		d.x, best.x = best.x, d.x
		d.s, best.s = best.s, d.s
		d.st, best.st = best.st, d.st
		d.cs, best.cs = best.cs, d.cs
	}
}
