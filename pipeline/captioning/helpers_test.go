package captioning

import (
	"flag"
	"path/filepath"
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
		Dataset: fixtureDir, Cache: fixtureCache, OutDir: out, DevSplit: "train",
		MinCount: 1, BatchSize: 4, Epochs: 40, Patience: 1000, DecayPatience: 1000,
		LR: 5e-3, Warmup: 1, Select: SelectCIDErD, Seed: 1, LogEvery: 1000,
		Config: tinyConfig(),
	}
}
