package models_test

import (
	"errors"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/safetensors"
	"gorgonia.org/tensor"
)

type toyConfig struct {
	Hidden int `json:"hidden"`
}

func newToyParams(seed uint64, hidden int) *models.Params {
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(seed, 0)))
	ps.New("enc.w", models.GlorotUniform, 3, hidden)
	ps.New("enc.b", models.Zeros, hidden)
	return ps
}

func TestParamsFileRoundTrip(t *testing.T) {
	for _, dt := range []safetensors.DType{safetensors.F32, safetensors.F16} {
		src := newToyParams(1, 4)
		f, err := src.NewFile("toy", toyConfig{Hidden: 4}, []string{"a", "b"})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "toy.safetensors")
		if err := safetensors.WriteFile(path, f, dt); err != nil {
			t.Fatal(err)
		}
		back, err := safetensors.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var cfg toyConfig
		if err := back.DecodeConfig(&cfg); err != nil || cfg.Hidden != 4 {
			t.Fatalf("%s: config %+v, %v", dt, cfg, err)
		}
		dst := newToyParams(2, 4)
		if err := dst.Load(back); err != nil {
			t.Fatal(err)
		}
		w0, _ := src.Get("enc.w")
		w1, _ := dst.Get("enc.w")
		for i, v := range w0.F32() {
			if d := v - w1.F32()[i]; d > 1e-3 || d < -1e-3 {
				t.Fatalf("%s: enc.w[%d] = %v after round trip, want %v", dt, i, w1.F32()[i], v)
			}
		}
	}
}

func TestParamsLoadRejectsMismatch(t *testing.T) {
	f, err := newToyParams(1, 4).NewFile("toy", toyConfig{4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := newToyParams(1, 5).Load(f); !errors.Is(err, safetensors.ErrMismatch) {
		t.Errorf("loading hidden 4 into hidden 5: error %v, want ErrMismatch", err)
	}
	extra := newToyParams(1, 4)
	extra.New("dec.w", models.Zeros, 2)
	if err := extra.Load(f); !errors.Is(err, safetensors.ErrMismatch) {
		t.Errorf("loading a file without dec.w: error %v, want ErrMismatch", err)
	}
}
