package caption

import "github.com/attend-go/attend/models"

// The soft decoder reads the context z_t = β_t·Σ_i α_ti·a_i (D values)
// through two products per row and step: the LSTM's z_t·W_z (W_z the last
// D rows of its input weights Wx, D × 4H) and the deep output's
// L_z·z_t (D × E). Both are linear in z_t, so
//
//	z_t·W_z = β_t·Σ_i α_ti·(a_i·W_z),
//
// and the products a_i·W_z and a_i·L_z can be formed once per image for
// its L regions (L × D × (4H + E) multiply-adds), leaving each row and
// step an L-term weighted sum (L × (4H + E)) in place of a D-term
// product (D × (4H + E)): 49 in place of 1,280 terms for the default
// model. Beam search's k rows over ~12 steps make that worth it once
// k·12 exceeds L (contextProductRows).

// contextProducts are one Encoded's per-region products: for each image,
// a_i·W_z (L, 4H) and a_i·L_z (L, E).
type contextProducts struct {
	gates []float32 // (Images, L, 4H)
	out   []float32 // (Images, L, E)
}

// expectedSteps is about how many steps a caption takes (Flickr8k's
// captions have 11 words on average, and End), for the choice of
// contextProductRows.
const expectedSteps = 12

// usesContextProducts reports whether Encode forms the per-region
// products for images decoded on rows rows each: only for a packed soft
// decoder (PackForInference), and when the rows' steps would multiply
// more contexts than the image has regions.
func (m *Model) usesContextProducts(rows int) bool {
	return m.pack != nil && m.Config.Attention == Soft &&
		rows*expectedSteps > m.Config.Regions
}

// formContextProducts returns the per-region products of images, each
// (L, D).
func (m *Model) formContextProducts(images [][]float32) *contextProducts {
	L, D, E, H := m.Config.Regions, m.Config.FeatureDim, m.Config.Embed, m.Config.Hidden
	wx := m.LSTM.Wx.Value.Data().([]float32)[E*4*H:] // W_z: Wx's last D rows (D, 4H)
	lz := m.OutZ.W.Value.Data().([]float32)          // (D, E)
	p := &contextProducts{gates: make([]float32, len(images)*L*4*H), out: make([]float32, len(images)*L*E)}
	for i, a := range images {
		models.Gemm(false, false, L, 4*H, D, 1, a, D, wx, 4*H, 0, p.gates[i*L*4*H:], 4*H)
		models.Gemm(false, false, L, E, D, 1, a, D, lz, E, 0, p.out[i*L*E:], E)
	}
	return p
}

// contextTerms writes each row's z_t·W_z into tail (B, 4H) and L_z·z_t
// into lz (B, E) from the step's attention weights α (B, L) and gates β
// (B): image i's rows r weigh its products by β_r·α_r.
func (p *contextProducts) contextTerms(tail, lz, alpha, beta []float32, images, rows, L, H, E int) {
	for i := range images {
		r0 := i * rows
		a := alpha[r0*L : (r0+rows)*L]
		models.Gemm(false, false, rows, 4*H, L, 1, a, L, p.gates[i*L*4*H:(i+1)*L*4*H], 4*H, 0, tail[r0*4*H:], 4*H)
		models.Gemm(false, false, rows, E, L, 1, a, L, p.out[i*L*E:(i+1)*L*E], E, 0, lz[r0*E:], E)
	}
	for r, b := range beta {
		if b == 1 {
			continue
		}
		for j := r * 4 * H; j < (r+1)*4*H; j++ {
			tail[j] *= b
		}
		for j := r * E; j < (r+1)*E; j++ {
			lz[j] *= b
		}
	}
}
