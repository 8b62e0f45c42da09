package captioning

import (
	"context"
	"errors"
	"testing"

	"github.com/attend-go/attend/models"
)

// TestTrainBF16 trains the fixture model for an epoch with bfloat16
// products where the CPU has them, and checks the error where it has not.
func TestTrainBF16(t *testing.T) {
	o := tinyOptions(t.TempDir())
	o.Epochs, o.BF16 = 1, true
	_, err := Train(context.Background(), o)
	if probe := models.UseBF16(true); probe != nil {
		if !errors.Is(err, models.ErrNoBF16) {
			t.Fatalf("Train with BF16 on a CPU without bfloat16 products: %v, want %v", err, models.ErrNoBF16)
		}
		return
	}
	models.UseBF16(false)
	if err != nil {
		t.Fatal(err)
	}
	if models.BF16() {
		t.Error("bfloat16 products still on after Train")
	}
}
