package captioning

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/pipeline/trainloop"
)

var update = flag.Bool("update", false, "rewrite testdata/caption/tiny.safetensors")

// The fixture of testdata/caption: six shapes, two captions each, their
// MobileNetV2 features and a tiny model trained on them.
var (
	fixtureDir   = filepath.Join("..", "..", "testdata", "caption")
	fixtureCache = filepath.Join(fixtureDir, "features-7x7.safetensors")
	fixtureModel = filepath.Join(fixtureDir, "tiny.safetensors")
)

// tinyOptions trains the fixture model: small enough to fit the four
// training images' captions exactly in a few seconds.
func tinyOptions(out string) TrainOptions {
	return TrainOptions{
		Setup: trainloop.Setup{OutDir: out, BatchSize: 4, Epochs: 40, Patience: 1000, DecayPatience: 1000,
			LR: 5e-3, Warmup: 1, Seed: 1, LogEvery: 1000},
		Dataset: fixtureDir, Cache: fixtureCache, DevSplit: "train",
		MinCount: 1, Select: SelectCIDErD,
		Config: tinyConfig(),
	}
}

// defaultEncoder returns the shared data's file of the encoder the
// embedded default model needs (DefaultEncoder), skipping the test when it
// is absent.
func defaultEncoder(t testing.TB) string {
	t.Helper()
	return shareddata.Path(t, shareddata.EncoderFor(DefaultEncoder().File))
}

func fileExists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}
