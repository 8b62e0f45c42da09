package figure

import (
	"fmt"
	"math"
)

// WeightSumTolerance is how far the sum of an attention distribution may
// be from 1 before it is refused. Softmax outputs in float32 sum to 1
// within about 1e-6 per hundred cells; a sum further off means the caller
// passed something else (logits, α·β, a row of the wrong matrix), which is
// a bug worth reporting rather than hiding by renormalizing.
const WeightSumTolerance = 1e-3

// CheckWeights reports whether weights are a valid rows×cols attention
// distribution: 1 ≤ rows, cols ≤ maxSide, len(weights) = rows·cols, every
// value finite and non-negative, and the sum within WeightSumTolerance of
// 1. The error wraps sentinel (the caller's ErrWeights) and names the
// first offending cell.
func CheckWeights(sentinel error, weights []float32, rows, cols, maxSide int) error {
	if rows < 1 || cols < 1 || rows > maxSide || cols > maxSide {
		return fmt.Errorf("%w: grid %d×%d, want 1..%d rows and columns", sentinel, rows, cols, maxSide)
	}
	if len(weights) != rows*cols {
		return fmt.Errorf("%w: %d weights for a %d×%d grid, want %d", sentinel, len(weights), rows, cols, rows*cols)
	}
	var sum float64
	for i, v := range weights {
		switch {
		case math.IsNaN(float64(v)):
			return fmt.Errorf("%w: weight of cell (%d, %d) is NaN", sentinel, i/cols, i%cols)
		case math.IsInf(float64(v), 0):
			return fmt.Errorf("%w: weight of cell (%d, %d) is %v", sentinel, i/cols, i%cols, v)
		case v < 0:
			return fmt.Errorf("%w: weight of cell (%d, %d) is negative (%v)", sentinel, i/cols, i%cols, v)
		}
		sum += float64(v)
	}
	if math.Abs(sum-1) > WeightSumTolerance {
		return fmt.Errorf("%w: weights sum to %.6g, want 1 (±%g): pass the softmax output itself", sentinel, sum, WeightSumTolerance)
	}
	return nil
}
