package main

import (
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli/clitest"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// TestRecipe runs the default model's recipe, docs/recipes/asr/run.sh, at
// its tiny scale: every stage, with every flag of its conf/ files parsed
// and used by the real commands, on the test clips. The model it ends
// with must load and have what the stages build (five listener layers,
// the phone head on the third), and its language model must load.
func TestRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("the recipe's tiny run takes 15-60 s")
	}
	out := t.TempDir()
	clitest.RunRecipe(t, filepath.Join("..", "..", "docs", "recipes", "asr", "run.sh"), "asr", 11, "--out", out)
	m, err := speechmodel.LoadModel(filepath.Join(out, "default.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Config; c.ListenerLayers != 5 || c.PhoneCTCWeight == 0 || c.PhoneCTCLayer != 2 {
		t.Errorf("the recipe's model has %d listener layers, phone CTC weight %g on layer %d; want 5, 0.2 on layer 2", c.ListenerLayers, c.PhoneCTCWeight, c.PhoneCTCLayer)
	}
	if _, err := speechmodel.LoadWordLM(filepath.Join(out, "default-lm.arpa.gz")); err != nil {
		t.Error(err)
	}
}
