package trainloop

import (
	"fmt"

	"github.com/attend-go/attend/models"
)

// UseBF16 switches the process's matrix products to bfloat16 with float32
// sums for a training run when on (models.UseBF16) and returns the
// function that switches them back; with on false it changes nothing. The
// error, where the CPU or build has no such products, names the option
// (what, e.g. "speech: train") and wraps models.ErrNoBF16.
func UseBF16(what string, on bool) (restore func(), err error) {
	if !on {
		return func() {}, nil
	}
	if err := models.UseBF16(true); err != nil {
		return nil, fmt.Errorf("%s: bfloat16 products: %w", what, err)
	}
	return func() { models.UseBF16(false) }, nil
}
