package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli/clitest"
	"github.com/attend-go/attend/pipeline/captioning"
)

// TestJSON runs each command that prints a result with -json on the tiny
// fixtures: stdout must be JSON Lines with the documented fields and the
// values the command computed, and stderr, where the logs go, no JSON.
// The cases run in order: the dry run of an existing cache reads the one
// the extraction before it wrote.
func TestJSON(t *testing.T) {
	tmp := t.TempDir()
	cache := filepath.Join(tmp, "c.safetensors")
	gradient := filepath.Join("..", "..", "testdata", "gradient.png")
	grid := map[string]any{"grid_h": 7, "grid_w": 7, "grid_d": 1280}
	planKeys := []string{"dataset", "images", "captions", "cache", "grid_h", "grid_w", "grid_d", "record_bytes", "bytes", "existing"}
	tests := []struct {
		name  string
		args  func(t *testing.T) []string // may skip the case
		want  clitest.Want
		check func(t *testing.T, objs []map[string]any)
	}{
		{
			name: "inspect", args: fixed("inspect", "-json", gradient, fixtureImage("red-square")),
			want: clitest.Want{Objects: 2, Keys: []string{"path", "format", "width", "height", "input", "channel_mean"},
				Fields: map[string]any{"path": fixtureImage("red-square"), "format": "png", "width": 64, "height": 64, "input": []int{3, 224, 224}}},
			check: func(t *testing.T, objs []map[string]any) {
				clitest.Fields(t, objs[0], map[string]any{"path": gradient, "width": 64, "height": 48})
				// Blue grows along the gradient's rows: the input's blue
				// plane is the brightest.
				m, _ := objs[0]["channel_mean"].([]any)
				if len(m) != 3 || m[2].(float64) <= m[0].(float64) {
					t.Errorf("channel_mean %v, want R, G, B with B the largest", m)
				}
			},
		},
		{
			name: "export", args: fixed("export", "-json", "-o", filepath.Join(tmp, "tiny16.safetensors"), fixtureModel),
			want: clitest.Want{Objects: 1, Keys: []string{"model", "params", "bytes"}, Fields: map[string]any{"model": filepath.Join(tmp, "tiny16.safetensors")}},
			check: func(t *testing.T, objs []map[string]any) {
				m, err := captioning.OpenModel(filepath.Join(tmp, "tiny16.safetensors"))
				if err != nil {
					t.Fatal(err)
				}
				st, err := os.Stat(filepath.Join(tmp, "tiny16.safetensors"))
				if err != nil {
					t.Fatal(err)
				}
				clitest.Fields(t, objs[0], map[string]any{"params": m.Params.Count(), "bytes": st.Size()})
			},
		},
		{
			name: "features -n", args: fixed("features", "-n", "-json", "-split", "train,dev", "-o", cache, featuresFixture),
			want: clitest.Want{Objects: 1, Keys: planKeys,
				Fields: with(grid, map[string]any{"dataset": "flickr8k (flickr8k, split train,dev)", "images": 3, "captions": 5, "cache": cache,
					"record_bytes": 7 * 7 * 1280 * 2, "bytes": 3 * 7 * 7 * 1280 * 2, "existing": nil})},
		},
		{
			name: "features",
			args: func(t *testing.T) []string {
				return []string{"features", "-json", "-encoder", sharedEncoder(t), "-split", "train,dev", "-j", "2", "-o", cache, featuresFixture}
			},
			want: clitest.Want{Objects: 1,
				Keys:   []string{"cache", "grid_h", "grid_w", "grid_d", "bytes", "images", "extracted", "reused", "repaired", "failed", "elapsed_seconds"},
				Fields: with(grid, map[string]any{"cache": cache, "images": 3, "extracted": 3, "reused": 0, "repaired": 0, "failed": 0})},
			check: func(t *testing.T, objs []map[string]any) {
				st, err := os.Stat(cache)
				if err != nil {
					t.Fatal(err)
				}
				clitest.Fields(t, objs[0], map[string]any{"bytes": st.Size()})
			},
		},
		{
			name: "features -n of the cache made",
			args: func(t *testing.T) []string {
				sharedEncoder(t) // the case before made the cache with it
				return []string{"features", "-n", "-json", "-o", cache, featuresFixture}
			},
			want: clitest.Want{Objects: 1, Keys: planKeys,
				Fields: map[string]any{"images": 4, "existing": with(grid, map[string]any{"records": 3, "complete": 3, "encoder_sha256": encoderSHA256,
					"problems": []string{"captiondata: " + cache + ": 1 of 4 images are not in the cache (tree.jpg)"}})}},
		},
		{
			name: "train",
			args: fixed("train", "-json", "-o", filepath.Join(tmp, "train"), "-cache", fixtureCache, "-tiny", "-min-count", "1", "-batch", "4", "-epochs", "2", fixture),
			want: clitest.Want{Objects: 1,
				Keys: []string{"best_model", "best", "best_epoch", "best_step", "epochs", "steps", "train_images", "train_captions", "skipped_captions",
					"dev_images", "vocab", "stopped"},
				Fields: map[string]any{"best_model": filepath.Join(tmp, "train", "best.safetensors"), "epochs": 2, "steps": 4, "train_images": 4,
					"train_captions": 8, "skipped_captions": 0, "dev_images": 1, "stopped": "reached 2 epochs"}},
			check: func(t *testing.T, objs []map[string]any) {
				checkScores(t, objs[0]["best"])
			},
		},
		{
			name: "eval", args: fixed("eval", "-json", "-model", fixtureModel, "-cache", fixtureCache, "-split", "train", "-beams", "1,2", fixture),
			want: clitest.Want{Objects: 1, Keys: []string{"dataset", "split", "reranked", "images", "rows"},
				Fields: map[string]any{"dataset": fixture, "split": "train", "reranked": false, "images": 4}},
			check: func(t *testing.T, objs []map[string]any) {
				rows, _ := objs[0]["rows"].([]any)
				if len(rows) != 2 {
					t.Fatalf("rows %v, want greedy and beam 2", rows)
				}
				for i, r := range rows {
					row, _ := r.(map[string]any)
					clitest.Keys(t, row, "beam", "scores", "repeats_bigram", "seconds") // the captions go to -captions
					clitest.Fields(t, row, map[string]any{"beam": i + 1})
					checkScores(t, row["scores"])
					// The tiny model learned the training split by heart
					// (the table's "greedy 100.00 100.00 100.00").
					clitest.Fields(t, row["scores"].(map[string]any), map[string]any{"meteor": 1, "rougel": 1})
				}
			},
		},
		{
			// caption describe printed JSON before -json was everywhere.
			name: "describe", args: fixed("describe", "-json", "-beam", "2", "-model", fixtureModel, "-cache", fixtureCache, fixtureImage("red-square")),
			want: clitest.Want{Objects: 1,
				Keys: []string{"path", "caption", "words", "tokens", "log_prob", "score", "finished", "confidence", "low_confidence", "labels",
					"fit", "grid_h", "grid_w", "attention", "beta", "alternatives"},
				Fields: map[string]any{"path": fixtureImage("red-square"), "caption": "a red square", "words": []string{"a", "red", "square"},
					"grid_h": 7, "grid_w": 7, "finished": true}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCase(tc.args(t), nil)
			objs := clitest.Check(t, code, stdout, stderr, tc.want)
			if tc.check != nil {
				tc.check(t, objs)
			}
		})
	}
}

// fixed returns the arguments of a case that needs nothing more.
func fixed(args ...string) func(*testing.T) []string {
	return func(*testing.T) []string { return args }
}

// with returns the fields of a and b together.
func with(a, b map[string]any) map[string]any {
	m := maps.Clone(a)
	maps.Copy(m, b)
	return m
}

// checkScores checks the caption scores of a JSON result: four BLEU-n and
// METEOR and ROUGE-L as fractions, CIDEr-D on its own scale.
func checkScores(t *testing.T, v any) {
	t.Helper()
	s, _ := v.(map[string]any)
	clitest.Keys(t, s, "bleu", "meteor", "rougel", "ciderd")
	bleu, _ := s["bleu"].([]any)
	for _, f := range slices.Concat(bleu, []any{s["meteor"], s["rougel"]}) {
		if x, ok := f.(float64); !ok || x < 0 || x > 1 {
			t.Errorf("scores %v: want BLEU-1…4, METEOR and ROUGE-L in [0, 1]", s)
		}
	}
	if c, ok := s["ciderd"].(float64); len(bleu) != 4 || !ok || c < 0 || c > 10 {
		t.Errorf("scores %v: want four BLEU-n and CIDEr-D in [0, 10]", s)
	}
}
