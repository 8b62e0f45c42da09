package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli/clitest"
	"github.com/attend-go/attend/pipeline/captioning"
)

func TestMain(m *testing.M) {
	clitest.ToolMain("caption", run) // the recipe test's caption command
	os.Exit(m.Run())
}

// TestRecipe runs the default model's recipe, docs/recipes/caption/run.sh,
// at its tiny scale: every stage, with every flag of its conf/ files
// parsed and used by the real commands, on the test images (with the test
// features where no encoder file is at hand). The model it ships and the
// hard-attention one must load.
func TestRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("the recipe's tiny run takes a few seconds")
	}
	out := t.TempDir()
	clitest.RunRecipe(t, filepath.Join("..", "..", "docs", "recipes", "caption", "run.sh"), "caption", 3, "--out", out)
	for _, path := range []string{"default.safetensors", "runs/caption-hard/best.safetensors"} {
		m, err := captioning.LoadModel(filepath.Join(out, path))
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Contains(path, "hard"); (m.Config.Attention == "hard") != want {
			t.Errorf("%s: %s attention", path, m.Config.Attention)
		}
	}
	mem, err := captioning.ReadMemory(filepath.Join(out, "default-memory.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if mem.Config.Images != 4 || mem.Config.KeyDim != 256 {
		t.Errorf("the memory: %+v, want the 4 training images, keys of 256", mem.Config)
	}
}
