package trainloop

import (
	"errors"
	"strings"
	"testing"

	"github.com/attend-go/attend/models"
)

// TestUseBF16 checks the switch's contract: off changes nothing; on
// switches the products and restore switches them back, or, where the CPU
// has no bfloat16 products, fails naming the option.
func TestUseBF16(t *testing.T) {
	restore, err := UseBF16("x train", false)
	if err != nil || models.BF16() {
		t.Fatalf("UseBF16(false) = %v, products in bfloat16 %v; want no error, float32", err, models.BF16())
	}
	restore()
	restore, err = UseBF16("x train", true)
	if err != nil {
		if !errors.Is(err, models.ErrNoBF16) || !strings.HasPrefix(err.Error(), "x train: ") {
			t.Fatalf("UseBF16(true) = %v, want an error naming x train that wraps models.ErrNoBF16", err)
		}
		return
	}
	if !models.BF16() {
		t.Fatal("UseBF16(true) left the products in float32")
	}
	restore()
	if models.BF16() {
		t.Error("restore left the products in bfloat16")
	}
}
