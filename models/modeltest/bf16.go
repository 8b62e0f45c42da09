package modeltest

import (
	"errors"
	"testing"

	"github.com/attend-go/attend/models"
)

// CheckBF16Train checks a training run asked for bfloat16 products
// (asr or caption train -bf16): where the CPU has them, that train
// succeeds and leaves the products in float32 after it; where it has not,
// that train fails with models.ErrNoBF16.
func CheckBF16Train(t testing.TB, train func() error) {
	t.Helper()
	err := train()
	if probe := models.UseBF16(true); probe != nil {
		if !errors.Is(err, models.ErrNoBF16) {
			t.Fatalf("training with bfloat16 products on a CPU without them: %v, want %v", err, models.ErrNoBF16)
		}
		return
	}
	models.UseBF16(false)
	if err != nil {
		t.Fatal(err)
	}
	if models.BF16() {
		t.Error("bfloat16 products still on after training")
	}
}
