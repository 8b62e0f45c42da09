package captioning

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/attend-go/attend/internal/float16"
	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/pipeline/metrics"
	"gonum.org/v1/gonum/mat"
)

// A Memory is a caption model's training set as consensus reranking reads
// it (Devlin et al. 2015, "Exploring nearest neighbor approaches for
// image captioning"; Mao et al. 2015): a key per training image, the
// photo's mean annotation projected to a few dimensions, and the image's
// reference captions. To caption a photo, beam search proposes k
// captions; the memory finds the training images nearest the photo and
// each candidate c is scored by its agreement with their captions,
//
//	CIDEr-D(c, captions of the m nearest images) + λ · Score(c),
//
// Score being the search's length-normalized log-probability. The best
// candidate is the caption. The consensus favours what photos like this
// one were said to show, over what the decoder finds likeliest on its
// own.
//
// A key is the mean of the L annotation vectors, normalized, less the
// training set's mean of those, projected on their K principal
// components and normalized again: cosine similarity of centred vectors
// (the features are ReLU outputs, all positive, so uncentred vectors share
// a large common part), and keys of 256 values in place of 1,280 keep the
// file small while ranking neighbours as the full vectors do.
type Memory struct {
	// Config says what the keys were made from.
	Config MemoryConfig
	keys   []float32 // (N, K), each row of unit length
	centre []float32 // (D): the mean of the normalized means
	proj   []float32 // (D, K): their principal components; nil: all D
	refs   [][][]string
	// scorer is built at the first Rerank or by Warm (about 0.3 s for
	// Flickr8k's 30,000 captions), so a captioner's start need not wait.
	scorer func() (*metrics.CIDErDScorer, error)
}

// MemoryConfig records what a memory's keys were made from, so that a
// captioner can check that its model's features are of the same kind.
type MemoryConfig struct {
	Images  int    `json:"images"`
	Regions int    `json:"regions"`     // L of the features the keys came from
	Dim     int    `json:"feature_dim"` // D
	KeyDim  int    `json:"key_dim"`     // K
	Encoder string `json:"encoder_sha256"`
	Source  string `json:"source"` // the images and captions, for people
}

// Rerank defaults: DefaultNeighbours nearest training images, weight
// DefaultScoreWeight on the search's score. Chosen on the Flickr8k dev
// split, whose two halves docs/caption.md shows apart to show how far
// the choice carries.
const (
	DefaultNeighbours  = 10
	DefaultScoreWeight = 1.0
	defaultKeyDim      = 256
)

// memoryKind is the Kind of a memory file.
const memoryKind = "caption-memory"

// captionsKey holds a memory file's captions: a JSON array with, per
// image, the array of its reference captions, tokenized, their tokens
// joined by spaces.
const captionsKey = "memory.captions"

// BuildMemory makes the memory of images, whose features cache holds:
// their keys (keyDim values each; 0 means 256, and the feature depth or
// more keeps every dimension) and their captions.
func BuildMemory(images []captiondata.Image, cache *captiondata.Cache, keyDim int) (*Memory, error) {
	if len(images) == 0 {
		return nil, errors.New("captioning: memory: no images")
	}
	if err := cache.CheckImages(images); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCache, err)
	}
	s := cache.Spec()
	if keyDim <= 0 {
		keyDim = defaultKeyDim
	}
	m := &Memory{Config: MemoryConfig{Images: len(images), Regions: s.Regions(), Dim: s.D, KeyDim: min(keyDim, s.D),
		Encoder: s.Encoder, Source: cache.Source()}}
	N, D := len(images), s.D
	means := make([]float64, N*D) // each image's normalized mean annotation
	m.refs = make([][][]string, N)
	var buf []float32
	for i, im := range images {
		rec, _ := cache.Lookup(im.ID) // CheckImages found every one
		f, err := cache.Features(rec, buf)
		if err != nil {
			return nil, err
		}
		buf = f
		meanAnnotation(means[i*D:(i+1)*D], f, s.Regions())
		if m.refs[i] = tokenizedRefs(im.Captions); len(m.refs[i]) == 0 {
			return nil, fmt.Errorf("captioning: memory: image %s has no caption with a word", im.ID)
		}
	}
	m.centre = make([]float32, D)
	for i := range N {
		for d, x := range means[i*D : (i+1)*D] {
			m.centre[d] += float32(x / float64(N))
		}
	}
	roundHalf(m.centre) // as the file stores it
	if m.Config.KeyDim < D {
		var err error
		if m.proj, err = principalComponents(means, m.centre, N, D, m.Config.KeyDim); err != nil {
			return nil, err
		}
	}
	m.keys = make([]float32, 0, N*m.Config.KeyDim)
	for i := range N {
		m.keys = append(m.keys, m.keyOf(means[i*D:(i+1)*D])...)
	}
	roundHalf(m.keys)
	return m, m.prepare()
}

// principalComponents returns the K leading principal components of the
// N rows of x (N, D) about centre, as the columns of a (D, K) matrix
// rounded to float16 as the file stores it: eigenvectors of the
// covariance XᵀX/N (D×D) of the centred rows X, or, with fewer rows than
// dimensions, Xᵀw/‖Xᵀw‖ for the eigenvectors w of the Gram matrix XXᵀ
// (N×N), the same vectors from the smaller problem.
func principalComponents(x []float64, centre []float32, N, D, K int) ([]float32, error) {
	c := make([]float64, N*D)
	for i := range N {
		for d := range D {
			c[i*D+d] = x[i*D+d] - float64(centre[d])
		}
	}
	X := mat.NewDense(N, D, c)
	n, rows := D, mat.Matrix(X.T()) // the covariance: XᵀX = (Xᵀ)(Xᵀ)ᵀ
	if N < D {
		n, rows = N, X // the Gram matrix XXᵀ
	}
	sym := mat.NewSymDense(n, nil)
	sym.SymRankK(sym, 1/float64(N), rows)
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		return nil, errors.New("captioning: memory: the principal components of the keys did not converge")
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs) // columns by ascending eigenvalue
	comps := make([][]float64, K)
	for k := range K {
		comps[k] = make([]float64, D)
		if k >= n { // beyond the Gram matrix's rank: no direction left
			continue
		}
		col := mat.Col(nil, n-1-k, &vecs)
		if N < D {
			var v mat.VecDense
			v.MulVec(X.T(), mat.NewVecDense(N, col))
			col = v.RawVector().Data
			normalize(col)
		}
		copy(comps[k], col)
	}
	p := make([]float32, D*K)
	for d := range D {
		for k := range K {
			p[d*K+k] = float32(comps[k][d])
		}
	}
	roundHalf(p)
	return p, nil
}

// roundHalf rounds every value of x to float16.
func roundHalf(x []float32) {
	for i, v := range x {
		x[i] = float16.Frombits(float16.Bits(v))
	}
}

// meanAnnotation writes to dst (D) the mean of the L annotation vectors
// of features (L, D), normalized.
func meanAnnotation(dst []float64, features []float32, L int) {
	D := len(dst)
	clear(dst)
	for l := 0; l < L; l++ {
		for d, x := range features[l*D : (l+1)*D] {
			dst[d] += float64(x)
		}
	}
	normalize(dst)
}

// key returns the key of an image's features (L, D).
func (m *Memory) key(features []float32) []float32 {
	mean := make([]float64, m.Config.Dim)
	meanAnnotation(mean, features, m.Config.Regions)
	return m.keyOf(mean)
}

// keyOf returns the key of a normalized mean annotation (D): less the
// centre, projected, normalized.
func (m *Memory) keyOf(mean []float64) []float32 {
	K := m.Config.KeyDim
	c := make([]float64, len(mean))
	for d, x := range mean {
		c[d] = x - float64(m.centre[d])
	}
	out := make([]float64, K)
	if m.proj == nil {
		copy(out, c)
	} else {
		for d, x := range c {
			for j, p := range m.proj[d*K : (d+1)*K] {
				out[j] += x * float64(p)
			}
		}
	}
	normalize(out)
	key := make([]float32, K)
	for j, x := range out {
		key[j] = float32(x)
	}
	return key
}

// normalize scales v to unit length; a zero vector stays zero.
func normalize(v []float64) {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	if s == 0 {
		return
	}
	s = 1 / math.Sqrt(s)
	for i := range v {
		v[i] *= s
	}
}

// tokenizedRefs returns captions tokenized as the caption metrics
// tokenize them, leaving out any that have no token.
func tokenizedRefs(captions []string) [][]string {
	var out [][]string
	for _, c := range captions {
		if t := metrics.Tokenize(c); len(t) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// prepare checks the captions and readies the CIDEr-D scorer, whose
// document frequencies are the memory's captions', to be built once when
// first needed.
func (m *Memory) prepare() error {
	for i, r := range m.refs {
		if len(r) == 0 {
			return fmt.Errorf("captioning: memory: image %d has no caption with a word", i)
		}
	}
	m.scorer = sync.OnceValues(func() (*metrics.CIDErDScorer, error) {
		s, err := metrics.NewCIDErD(m.refs)
		if err != nil {
			return nil, fmt.Errorf("captioning: memory: %w", err)
		}
		return s, nil
	})
	return nil
}

// Warm builds the memory's scorer in the background, so that the first
// Rerank need not.
func (m *Memory) Warm() { go m.scorer() }

// Neighbours returns the indices of the n training images whose keys are
// nearest (by cosine) the key of features (L, D), nearest first.
func (m *Memory) Neighbours(features []float32, n int) []int {
	if n < 1 {
		return nil
	}
	idx, _ := m.nearest(features, n)
	return idx
}

// Nearness returns the cosine between the key of features (L, D) and
// the nearest training image's key: how like the training photos the
// photo is, in [−1, 1].
func (m *Memory) Nearness(features []float32) float64 {
	_, sims := m.nearest(features, 1)
	return float64(sims[0])
}

// nearest returns the n nearest training images and their cosines.
func (m *Memory) nearest(features []float32, n int) ([]int, []float32) {
	K := m.Config.KeyDim
	q := m.key(features)
	type near struct {
		i   int
		sim float32
	}
	best := make([]near, 0, n+1)
	for i := range m.Config.Images {
		var sim float32
		for j, x := range m.keys[i*K : (i+1)*K] {
			sim += x * q[j]
		}
		if len(best) == n && sim <= best[n-1].sim {
			continue
		}
		at, _ := slices.BinarySearchFunc(best, sim, func(b near, s float32) int { return cmp.Compare(s, b.sim) })
		best = slices.Insert(best, at, near{i, sim})
		if len(best) > n {
			best = best[:n]
		}
	}
	idx, sims := make([]int, len(best)), make([]float32, len(best))
	for i, b := range best {
		idx[i], sims[i] = b.i, b.sim
	}
	return idx, sims
}

// Reranking is how a captioner or an evaluation reranks beam search's
// candidates with a memory.
type Reranking struct {
	Memory *Memory
	// Neighbours is how many nearest training images' captions the
	// candidates are scored against (0 means DefaultNeighbours).
	Neighbours int
	// Weight is λ, the weight of the search's Score (0 means
	// DefaultScoreWeight; negative means 0).
	Weight float64
}

// best returns the best of hyps for the image of features by the
// memory's consensus.
func (r *Reranking) best(features []float32, hyps []caption.Hypothesis) (caption.Hypothesis, error) {
	order, _, err := r.order(features, hyps)
	if err != nil {
		return caption.Hypothesis{}, err
	}
	return hyps[order[0].Index], nil
}

// order is Memory.Rerank with r's settings; it also returns the photo's
// nearness (Memory.Nearness), from the same neighbour search.
func (r *Reranking) order(features []float32, hyps []caption.Hypothesis) ([]Reranked, float64, error) {
	n, w := r.settings()
	return r.Memory.rerank(features, hyps, n, w)
}

// settings returns the neighbours and the weight λ r reranks with, its
// zero values replaced by the defaults.
func (r *Reranking) settings() (neighbours int, weight float64) {
	n, w := r.Neighbours, r.Weight
	if n <= 0 {
		n = DefaultNeighbours
	}
	switch {
	case w == 0:
		w = DefaultScoreWeight
	case w < 0:
		w = 0
	}
	return n, w
}

// String says how r reranks, for people: "consensus with the captions of
// the 10 nearest of 6000 training images (flickr8k, split train) + 1 ×
// the search's score".
func (r *Reranking) String() string {
	n, w := r.settings()
	src := ""
	if r.Memory.Config.Source != "" {
		src = " (" + r.Memory.Config.Source + ")"
	}
	nearest := fmt.Sprintf("the %d nearest", n)
	if n == 1 {
		nearest = "the nearest"
	}
	return fmt.Sprintf("consensus with the captions of %s of %d training images%s + %g × the search's score", nearest, r.Memory.Config.Images, src, w)
}

// Reranked is a candidate caption's place after reranking.
type Reranked struct {
	Index int // in the hypotheses given to Rerank
	// Consensus is the candidate's CIDEr-D against the captions of the
	// nearest training images; Total adds weight × its Score.
	Consensus, Total float64
}

// Rerank orders hypotheses (beam search's candidates for the image whose
// features (L, D) are given) by consensus with the captions of the
// neighbours nearest training images plus weight × their Score, best
// first; ties keep the search's order.
func (m *Memory) Rerank(features []float32, hyps []caption.Hypothesis, neighbours int, weight float64) ([]Reranked, error) {
	order, _, err := m.rerank(features, hyps, neighbours, weight)
	return order, err
}

// rerank is Rerank; it also returns the photo's nearness (Nearness),
// from the same neighbour search.
func (m *Memory) rerank(features []float32, hyps []caption.Hypothesis, neighbours int, weight float64) ([]Reranked, float64, error) {
	if err := m.checkFeatures(features); err != nil {
		return nil, 0, err
	}
	if neighbours < 1 {
		return nil, 0, fmt.Errorf("captioning: memory: %d neighbours, want at least 1", neighbours)
	}
	scorer, err := m.scorer()
	if err != nil {
		return nil, 0, err
	}
	near, sims := m.nearest(features, neighbours)
	var refs [][]string
	for _, i := range near {
		refs = append(refs, m.refs[i]...)
	}
	out := make([]Reranked, len(hyps))
	for i, h := range hyps {
		out[i].Index = i
		if len(h.Words) > 0 {
			c, err := scorer.Score(h.Words, refs)
			if err != nil {
				return nil, 0, fmt.Errorf("captioning: memory: %w", err)
			}
			out[i].Consensus = c
		}
		out[i].Total = out[i].Consensus + weight*h.Score
	}
	slices.SortStableFunc(out, func(a, b Reranked) int { return cmp.Compare(b.Total, a.Total) })
	return out, float64(sims[0]), nil
}

// checkFeatures reports features that are not (L, D) of the memory's
// grid.
func (m *Memory) checkFeatures(features []float32) error {
	if want := m.Config.Regions * m.Config.Dim; len(features) != want {
		return fmt.Errorf("captioning: memory: %d feature values, want %d regions × %d = %d", len(features), m.Config.Regions, m.Config.Dim, want)
	}
	return nil
}

// CheckModel reports a model whose features are not the memory's: another
// grid, or (when both name one) another encoder.
func (m *Memory) CheckModel(s caption.Searcher, encoderSHA string) error {
	if L, D := s.Grid(); L != m.Config.Regions || D != m.Config.Dim {
		return fmt.Errorf("captioning: memory of %d regions × %d features, the model reads %d × %d", m.Config.Regions, m.Config.Dim, L, D)
	}
	if encoderSHA != "" && m.Config.Encoder != "" && encoderSHA != m.Config.Encoder {
		return wrongEncoder("the memory holds features of", m.Config.Encoder, encoderSHA)
	}
	return nil
}

// WriteFile stores the memory at path as a safetensors file: the keys
// (and projection) in float16, the config and the captions in the
// header.
func (m *Memory) WriteFile(path string) error {
	cfg, err := json.Marshal(m.Config)
	if err != nil {
		return err
	}
	joined := make([][]string, len(m.refs))
	for i, refs := range m.refs {
		for _, r := range refs {
			joined[i] = append(joined[i], strings.Join(r, " "))
		}
	}
	captions, err := json.Marshal(joined)
	if err != nil {
		return err
	}
	f := &safetensors.File{Kind: memoryKind, Config: cfg, Extra: map[string]string{captionsKey: string(captions)},
		Tensors: []safetensors.Tensor{
			{Name: "keys", Shape: []int{m.Config.Images, m.Config.KeyDim}, Data: m.keys},
			{Name: "centre", Shape: []int{m.Config.Dim}, Data: m.centre},
		}}
	if m.proj != nil {
		f.Tensors = append(f.Tensors, safetensors.Tensor{Name: "projection", Shape: []int{m.Config.Dim, m.Config.KeyDim}, Data: m.proj})
	}
	if err := safetensors.WriteFile(path, f, safetensors.F16); err != nil {
		return fmt.Errorf("captioning: memory: %w", err)
	}
	return nil
}

// DefaultMemory returns the embedded memory of the default model's
// training images, read once and shared (a Memory is read-only).
var DefaultMemory = sync.OnceValues(func() (*Memory, error) {
	f, err := caption.DefaultMemoryFile()
	if err != nil {
		return nil, fmt.Errorf("captioning: %w", err)
	}
	return memoryFromFile(f)
})

// ReadMemory reads a memory file written by Memory.WriteFile.
func ReadMemory(path string) (*Memory, error) {
	f, err := safetensors.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("captioning: memory: %w", err)
	}
	return memoryFromFile(f)
}

// memoryFromFile checks a parsed memory file and makes its Memory.
func memoryFromFile(f *safetensors.File) (*Memory, error) {
	if f.Kind != memoryKind {
		return nil, fmt.Errorf("captioning: %s is a %q file, not a caption memory (made by caption memory)", f.Source, f.Kind)
	}
	m := &Memory{}
	if err := json.Unmarshal(f.Config, &m.Config); err != nil {
		return nil, fmt.Errorf("captioning: memory %s: config: %w", f.Source, err)
	}
	c := m.Config
	if c.Images < 1 || c.Regions < 1 || c.Dim < 1 || c.KeyDim < 1 || c.KeyDim > c.Dim {
		return nil, fmt.Errorf("captioning: memory %s: config %+v: want at least one image, region, feature and key value, and no more key values than features", f.Source, c)
	}
	keys, ok := f.Tensor("keys")
	if !ok || !slices.Equal(keys.Shape, []int{c.Images, c.KeyDim}) {
		return nil, fmt.Errorf("captioning: memory %s: want a keys tensor of shape [%d %d]", f.Source, c.Images, c.KeyDim)
	}
	m.keys = keys.Data
	centre, ok := f.Tensor("centre")
	if !ok || !slices.Equal(centre.Shape, []int{c.Dim}) {
		return nil, fmt.Errorf("captioning: memory %s: want a centre tensor of shape [%d]", f.Source, c.Dim)
	}
	m.centre = centre.Data
	if c.KeyDim < c.Dim {
		p, ok := f.Tensor("projection")
		if !ok || !slices.Equal(p.Shape, []int{c.Dim, c.KeyDim}) {
			return nil, fmt.Errorf("captioning: memory %s: want a projection tensor of shape [%d %d]", f.Source, c.Dim, c.KeyDim)
		}
		m.proj = p.Data
	}
	var joined [][]string
	if err := json.Unmarshal([]byte(f.Extra[captionsKey]), &joined); err != nil {
		return nil, fmt.Errorf("captioning: memory %s: captions: %w", f.Source, err)
	}
	if len(joined) != c.Images {
		return nil, fmt.Errorf("captioning: memory %s: captions of %d images, keys of %d", f.Source, len(joined), c.Images)
	}
	m.refs = make([][][]string, len(joined))
	for i, caps := range joined {
		for _, c := range caps { // tokenized when written: words and spaces
			if t := strings.Fields(c); len(t) > 0 {
				m.refs[i] = append(m.refs[i], t)
			}
		}
	}
	if err := m.prepare(); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Source, err)
	}
	return m, nil
}
