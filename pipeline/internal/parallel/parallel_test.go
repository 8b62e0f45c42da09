package parallel

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// TestForEach runs every index exactly once whatever the number of
// workers, returns newWorker's error, and stops handing out work once the
// context is done.
func TestForEach(t *testing.T) {
	for _, workers := range []int{0, 1, 3} {
		var hits [50]atomic.Int32
		if err := ForEach(context.Background(), len(hits), workers, func() (func(int), error) {
			return func(i int) { hits[i].Add(1) }, nil
		}); err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		for i := range hits {
			if n := hits[i].Load(); n != 1 {
				t.Errorf("%d workers: index %d ran %d times, want once", workers, i, n)
			}
		}
	}
	boom := errors.New("boom")
	if err := ForEach(context.Background(), 5, 2, func() (func(int), error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("newWorker failing: got %v, want %v", err, boom)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int32
	err := ForEach(ctx, 1000, 1, func() (func(int), error) {
		return func(i int) {
			if ran.Add(1) == 3 {
				cancel()
			}
		}, nil
	})
	if !errors.Is(err, context.Canceled) || ran.Load() >= 1000 {
		t.Errorf("cancelled after 3: got %v after %d runs, want context.Canceled well before 1000", err, ran.Load())
	}
}
