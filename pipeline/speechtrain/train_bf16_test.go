package speechtrain

import (
	"context"
	"testing"

	"github.com/attend-go/attend/models/modeltest"
)

// TestTrainBF16 trains the tiny model for an epoch with bfloat16 products
// where the CPU has them, and checks the error where it has not.
func TestTrainBF16(t *testing.T) {
	o := tinyTrainOptions(t.TempDir())
	o.Epochs, o.BF16 = 1, true
	modeltest.CheckBF16Train(t, func() error {
		_, err := Train(context.Background(), o)
		return err
	})
}
