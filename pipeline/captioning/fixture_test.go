package captioning

import (
	"context"
	"testing"

	"github.com/attend-go/attend/models/caption"
)

func tinyConfig() caption.Config {
	return caption.Config{Embed: 16, Hidden: 32, AttentionDim: 16, DoublyStochastic: 1}
}

// TestTinyFixture checks that testdata/caption/tiny.safetensors is what
// training on the fixture gives, and rewrites it with -update.
func TestTinyFixture(t *testing.T) {
	if !*update {
		m, err := LoadModel(fixtureModel)
		if err != nil {
			t.Fatalf("%v (regenerate it: go test -run TestTinyFixture -update ./pipeline/captioning)", err)
		}
		if got, want := m.Config.Hidden, tinyConfig().Hidden; got != want {
			t.Errorf("fixture model hidden = %d, want %d", got, want)
		}
		return
	}
	out := t.TempDir()
	sum, err := Train(context.Background(), tinyOptions(out))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Best.CIDErD < 3 {
		t.Fatalf("the fixture model did not fit the training captions: %v", sum.Best)
	}
	if _, err := ExportModel(sum.BestPath, fixtureModel, true); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %v at epoch %d", fixtureModel, sum.Best, sum.BestEpoch)
}
