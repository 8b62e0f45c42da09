package caption_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/models/safetensors"
)

// FuzzNewVocab feeds arbitrary token lists (one token a line) to NewVocab:
// it must return a vocabulary or an ErrVocab error, never panic, and a
// vocabulary must map its words to their ids and back.
func FuzzNewVocab(f *testing.F) {
	f.Add("<pad>\n<start>\n<end>\n<unk>\na\ndog")
	f.Add("<pad>\n<start>\n<end>\n<unk>\n\n")
	f.Add("<pad>\n<start>\n<end>\n<unk>\na b")
	f.Add("<pad>\n<start>\n<end>\n<unk>\nä\n\xff")
	f.Add("<start>\n<pad>")
	f.Fuzz(func(t *testing.T, list string) {
		tokens := strings.Split(list, "\n")
		v, err := caption.NewVocab(tokens)
		if err != nil {
			return
		}
		words := tokens[4:]
		ids := v.Encode(words)
		for i, id := range ids {
			if id != i+4 {
				t.Fatalf("word %q encodes to %d, want %d", words[i], id, i+4)
			}
		}
		if got := v.Words(ids); !slices.Equal(got, words) {
			t.Fatalf("words %q come back as %q", words, got)
		}
		again, err := caption.NewVocab(v.List())
		if err != nil || !slices.Equal(again.List(), v.List()) {
			t.Fatalf("the vocabulary's own list does not rebuild it: %v", err)
		}
	})
}

// FuzzLoad feeds mutated model files to Load: it must return a model or an
// error, never panic or allocate beyond the file, and a loaded model must
// caption.
func FuzzLoad(f *testing.F) {
	for _, cfg := range []caption.Config{
		{Regions: 2, FeatureDim: 3, Embed: 4, Hidden: 5, AttentionDim: 3},
		{Regions: 2, FeatureDim: 3, Embed: 4, Hidden: 5, AttentionDim: 3, Attention: caption.Hard, NoGate: true},
	} {
		m := mustNew(f, cfg, 1)
		file, err := m.File()
		if err != nil {
			f.Fatal(err)
		}
		for _, dtype := range []safetensors.DType{safetensors.F32, safetensors.F16} {
			var buf bytes.Buffer
			if err := safetensors.Write(&buf, file, dtype); err != nil {
				f.Fatal(err)
			}
			f.Add(buf.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := safetensors.Parse(data)
		if err != nil {
			return
		}
		m, err := caption.Load(file)
		if err != nil {
			return
		}
		if n := m.Params.Count(); n > len(data) {
			t.Fatalf("%d parameters from a file of %d bytes", n, len(data))
		}
		rng := rand.New(rand.NewPCG(1, 2))
		features := randomFeatures(rng, m.Config.Regions, m.Config.FeatureDim)
		if _, err := m.Beam(nil, features, 2, &caption.SearchOptions{LengthPenalty: 1, MaxLength: 3}); err != nil {
			t.Fatalf("a loaded model fails to caption: %v", err)
		}
	})
}
