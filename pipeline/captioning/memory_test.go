package captioning

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/pipeline/captiondata"
)

// fixtureTrain returns the fixture's training images and its feature
// cache, open until the test ends.
func fixtureTrain(t *testing.T) ([]captiondata.Image, *captiondata.Cache) {
	t.Helper()
	images, err := captiondata.Read(fixtureDir, "train", "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := captiondata.OpenCache(fixtureCache)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return images, c
}

// fixtureMemory builds the memory of the fixture's training images with
// keys of dims values.
func fixtureMemory(t *testing.T, dims int) (*Memory, []captiondata.Image, *captiondata.Cache) {
	t.Helper()
	images, c := fixtureTrain(t)
	m, err := BuildMemory(images, c, dims)
	if err != nil {
		t.Fatal(err)
	}
	return m, images, c
}

func features(t *testing.T, c *captiondata.Cache, id string) []float32 {
	t.Helper()
	rec, ok := c.Lookup(id)
	if !ok {
		t.Fatalf("no image %s", id)
	}
	f, err := c.Features(rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestMemoryNeighbours checks that every training image is its own
// nearest neighbour, with projected keys and without, and that a memory
// written and read back finds the same neighbours.
func TestMemoryNeighbours(t *testing.T) {
	for _, dims := range []int{3, 1280} {
		m, images, c := fixtureMemory(t, dims)
		if m.Config.KeyDim != dims || m.Config.Images != len(images) || (m.proj == nil) != (dims == 1280) {
			t.Errorf("dims %d: config %+v, projection %v", dims, m.Config, m.proj != nil)
		}
		path := filepath.Join(t.TempDir(), "memory.safetensors")
		if err := m.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		back, err := ReadMemory(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, im := range images {
			f := features(t, c, im.ID)
			got := m.Neighbours(f, len(images))
			if got[0] != i || len(got) != len(images) {
				t.Errorf("dims %d: neighbours of %s: %v, want %d first", dims, im.ID, got, i)
			}
			if again := back.Neighbours(f, len(images)); !slices.Equal(again, got) {
				t.Errorf("dims %d: %s: read back, neighbours %v; built, %v", dims, im.ID, again, got)
			}
		}
		if !slices.EqualFunc(back.refs, m.refs, func(a, b [][]string) bool { return slices.EqualFunc(a, b, slices.Equal) }) {
			t.Errorf("dims %d: captions read back %v, built %v", dims, back.refs, m.refs)
		}
	}
}

// TestMemoryRerank checks that the consensus prefers the caption the
// nearest images were given, and that the score's weight can overrule it.
func TestMemoryRerank(t *testing.T) {
	m, images, c := fixtureMemory(t, 3)
	f := features(t, c, images[0].ID) // red-square.png
	hyps := []caption.Hypothesis{
		{Words: strings.Fields("a blue circle"), Score: -0.1},
		{Words: strings.Fields("a red square on a white background"), Score: -2},
		{Words: nil, Score: -0.5}, // an empty caption scores no consensus
	}
	order, err := m.Rerank(f, hyps, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if order[0].Index != 1 || order[0].Consensus <= order[1].Consensus || order[2].Index != 2 && order[1].Index != 2 {
		t.Errorf("consensus alone: %+v, want the red square first", order)
	}
	heavy, err := m.Rerank(f, hyps, 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	if heavy[0].Index != 0 {
		t.Errorf("score weight 100: %+v, want the likeliest caption first", heavy)
	}
	for _, r := range heavy {
		if want := r.Consensus + 100*hyps[r.Index].Score; math.Abs(r.Total-want) > 1e-9 {
			t.Errorf("total %v, want consensus + 100 × score = %v", r.Total, want)
		}
	}
	if _, err := m.Rerank(f[1:], hyps, 1, 0); err == nil || !strings.Contains(err.Error(), "want 49 regions × 1280") {
		t.Errorf("short features: error %v", err)
	}
	if _, err := m.Rerank(f, hyps, 0, 0); err == nil || !strings.Contains(err.Error(), "0 neighbours") {
		t.Errorf("no neighbours: error %v", err)
	}
	if got := m.Neighbours(f, 0); got != nil {
		t.Errorf("Neighbours(f, 0) = %v, want none", got)
	}
}

// TestPrincipalComponents checks the components of points spread along
// known orthogonal directions: the first is the widest, the second the
// next, both of unit length; from the covariance (more points than
// dimensions) and from the Gram matrix (fewer).
func TestPrincipalComponents(t *testing.T) {
	for _, N := range []int{400, 5} {
		principalComponentsOf(t, N)
	}
}

func principalComponentsOf(t *testing.T, N int) {
	const D = 6
	rng := rand.New(rand.NewPCG(1, 2))
	u := []float64{1, 1, 0, 0, 0, 0} // widest
	v := []float64{0, 0, 1, -1, 0, 0}
	x := make([]float64, N*D)
	centre := make([]float32, D)
	for i := range N {
		a, b := 3*rng.NormFloat64(), rng.NormFloat64()
		for d := range D {
			x[i*D+d] = 5 + a*u[d] + b*v[d] + 0.01*rng.NormFloat64()
		}
	}
	for d := range D {
		centre[d] = 5
	}
	p, err := principalComponents(x, centre, N, D, 2)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range [][]float64{u, v} {
		dot, norm := 0.0, 0.0
		for d := range D {
			dot += float64(p[d*2+k]) * want[d] / math.Sqrt2
			norm += float64(p[d*2+k]) * float64(p[d*2+k])
		}
		if math.Abs(math.Abs(dot)-1) > 1e-2 || math.Abs(norm-1) > 1e-2 {
			t.Errorf("%d points: component %d: |cos| with the direction %v, length² %v", N, k, dot, norm)
		}
	}
}

func TestMemoryFileErrors(t *testing.T) {
	m, _, _ := fixtureMemory(t, 3)
	good := filepath.Join(t.TempDir(), "m.safetensors")
	if err := m.WriteFile(good); err != nil {
		t.Fatal(err)
	}
	f, err := safetensors.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(f *safetensors.File)
		want string
	}{
		{"a model file", func(f *safetensors.File) { f.Kind = "caption" }, "not a caption memory"},
		{"no keys", func(f *safetensors.File) {
			f.Tensors = slices.DeleteFunc(f.Tensors, func(x safetensors.Tensor) bool { return x.Name == "keys" })
		}, "want a keys tensor"},
		{"no centre", func(f *safetensors.File) {
			f.Tensors = slices.DeleteFunc(f.Tensors, func(x safetensors.Tensor) bool { return x.Name == "centre" })
		}, "want a centre tensor"},
		{"captions of too few images", func(f *safetensors.File) { f.Extra[captionsKey] = `[["a b"]]` }, "captions of 1 images, keys of 4"},
		{"captions not JSON", func(f *safetensors.File) { f.Extra[captionsKey] = `[` }, "captions"},
		{"bad config", func(f *safetensors.File) { f.Config = []byte(`{"images":0}`) }, "want at least one image"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := *f
			g.Tensors = slices.Clone(f.Tensors)
			g.Extra = map[string]string{captionsKey: f.Extra[captionsKey]}
			g.Config = slices.Clone(f.Config)
			tc.edit(&g)
			path := filepath.Join(t.TempDir(), "bad.safetensors")
			if err := safetensors.WriteFile(path, &g, safetensors.F16); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadMemory(path); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestEvaluateRerank checks that an evaluation with a memory scores the
// reranked captions, and refuses a memory of another grid.
func TestEvaluateRerank(t *testing.T) {
	m, _, _ := fixtureMemory(t, 3)
	model, err := OpenModel(fixtureModel)
	if err != nil {
		t.Fatal(err)
	}
	o := EvalOptions{Dataset: fixtureDir, Cache: fixtureCache, Split: "train", Beams: []int{1, 3},
		Rerank: &Reranking{Memory: m, Neighbours: 1, Weight: -1}}
	rep, err := Evaluate(t.Context(), model, o)
	if err != nil {
		t.Fatal(err)
	}
	// The memory holds these very images: consensus with an image's own
	// captions picks a caption of it, which the tiny model knows by heart.
	for _, row := range rep.Rows {
		if row.Scores.BLEU[0] < 0.99 {
			t.Errorf("beam %d: BLEU-1 %v with the images' own captions as consensus", row.Beam, row.Scores.BLEU[0])
		}
	}
	other := *m
	other.Config.Dim = 576
	o.Rerank.Memory = &other
	if _, err := Evaluate(t.Context(), model, o); err == nil || !strings.Contains(err.Error(), "memory of 49 regions × 576 features") {
		t.Errorf("a memory of another grid: error %v", err)
	}
}
