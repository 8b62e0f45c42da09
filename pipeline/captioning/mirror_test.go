package captioning

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/pipeline/captiondata"
)

func TestMirrorWords(t *testing.T) {
	const left, right = 7, 9
	tests := []struct {
		name              string
		tokens, want      []int
		leftID, rightID   int
		sameSliceReturned bool
	}{
		{"no side", []int{4, 5, 6}, []int{4, 5, 6}, left, right, true},
		{"left becomes right", []int{4, left, 6}, []int{4, right, 6}, left, right, false},
		{"both swap", []int{right, 5, left}, []int{left, 5, right}, left, right, false},
		{"a side word unknown", []int{4, left}, []int{4, left}, left, 3, true}, // 3 is Unk
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.tokens)
			got := mirrorWords(in, tc.leftID, tc.rightID)
			if !slices.Equal(got, tc.want) {
				t.Errorf("mirrorWords(%v) = %v, want %v", tc.tokens, got, tc.want)
			}
			if !slices.Equal(in, tc.tokens) {
				t.Errorf("mirrorWords changed its input to %v", in)
			}
			if same := len(got) > 0 && &got[0] == &in[0]; same != tc.sameSliceReturned {
				t.Errorf("returned its input: %v, want %v", same, tc.sameSliceReturned)
			}
		})
	}
}

// TestChooseViews checks that about half the captions are read mirrored,
// the same ones for the same seed and epoch, others in another epoch.
func TestChooseViews(t *testing.T) {
	plan := func(seed uint64, epoch int) []bool {
		batches := make([][]example, 50)
		for i := range batches {
			batches[i] = make([]example, 8)
		}
		chooseViews(batches, seed, epoch)
		var views []bool
		for _, b := range batches {
			for _, e := range b {
				views = append(views, e.mirrored)
			}
		}
		return views
	}
	a := plan(1, 1)
	n := 0
	for _, m := range a {
		if m {
			n++
		}
	}
	if n < 160 || n > 240 {
		t.Errorf("%d of 400 captions mirrored, want about 200", n)
	}
	if !slices.Equal(a, plan(1, 1)) {
		t.Error("the same seed and epoch chose other views")
	}
	if slices.Equal(a, plan(1, 2)) || slices.Equal(a, plan(2, 1)) {
		t.Error("another epoch or seed chose the same views")
	}
}

// fakeMirror is an Extractor that gives each image the fixture cache's
// features times scale, as if they were its mirror image's.
type fakeMirror struct {
	cache *captiondata.Cache
	ids   map[string]string // image path → ID
	scale float32
}

func (f *fakeMirror) Spec() captiondata.Spec {
	s := f.cache.Spec()
	s.Preprocess += captiondata.MirroredSuffix
	return s
}

func (f *fakeMirror) Extract(dst []float32, path string) ([]float32, error) {
	rec, ok := f.cache.Lookup(f.ids[path])
	if !ok {
		return nil, errors.New("no such image " + path)
	}
	out, err := f.cache.Features(rec, dst)
	for i := range out {
		out[i] *= f.scale
	}
	return out, err
}

func (f *fakeMirror) Clone() captiondata.Extractor { return f }

// mirrorCache builds a mirror cache of the fixture's training images
// whose features are the fixture's times scale.
func mirrorCache(t *testing.T, scale float32) string {
	t.Helper()
	images, c := fixtureTrain(t)
	f := &fakeMirror{cache: c, ids: map[string]string{}, scale: scale}
	for _, im := range images {
		f.ids[im.Path] = im.ID
	}
	path := filepath.Join(t.TempDir(), "mirror.safetensors")
	if _, err := captiondata.BuildCache(context.Background(), path, images, f, &captiondata.BuildOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTrainMirror trains the tiny model with mirror caches. A mirror
// cache holding the very features of the training cache (and captions
// without "left" or "right") must train exactly as no mirror cache does,
// which shows the mirror records are the right images' and the tokens
// unchanged; one holding other features must train otherwise, which shows
// they are read.
func TestTrainMirror(t *testing.T) {
	train := func(mirror string) map[string][]float32 {
		o := tinyOptions(t.TempDir())
		o.Epochs, o.MirrorCache = 3, mirror
		if _, err := Train(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		f, err := safetensors.ReadFile(filepath.Join(o.OutDir, lastName))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]float32{}
		for _, x := range f.Tensors {
			out[x.Name] = x.Data
		}
		return out
	}
	equal := func(a, b map[string][]float32) bool {
		for k, v := range a {
			if !slices.Equal(v, b[k]) {
				return false
			}
		}
		return len(a) == len(b)
	}
	plain := train("")
	if !equal(train(mirrorCache(t, 1)), plain) {
		t.Error("a mirror cache of the same features trained other weights")
	}
	if equal(train(mirrorCache(t, 0.5)), plain) {
		t.Error("a mirror cache of other features trained the same weights: it was not read")
	}
}

func TestTrainMirrorErrors(t *testing.T) {
	tests := []struct {
		name   string
		mirror string
		scst   bool
		want   string
	}{
		{"missing", filepath.Join(t.TempDir(), "none.safetensors"), false, "caption features -mirror"},
		{"not mirrored", fixtureCache, false, "unmirrored images"},
		{"with scst", fixtureCache, true, "cross-entropy training"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := tinyOptions(t.TempDir())
			o.MirrorCache, o.SCST = tc.mirror, tc.scst
			if tc.scst {
				o.Init = fixtureModel
			}
			_, err := Train(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}
