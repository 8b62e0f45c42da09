package models

import "math"

// A Schedule maps the 1-based optimizer step to a learning-rate multiplier.
type Schedule func(step int) float64

// Constant is the schedule that always returns 1.
func Constant(int) float64 { return 1 }

// WarmupInvSqrt rises linearly from 0 to 1 over warmup steps, then decays as
// √(warmup/step) (Vaswani et al. 2017, eq. 3, normalized to peak 1).
func WarmupInvSqrt(warmup int) Schedule {
	return func(step int) float64 {
		if warmup <= 0 {
			return 1
		}
		if step < warmup {
			return float64(step) / float64(warmup)
		}
		return math.Sqrt(float64(warmup) / float64(step))
	}
}

// WarmupCosine rises linearly over warmup steps, then follows a half cosine
// from 1 down to floor at step total, and stays at floor after it
// (Loshchilov & Hutter 2017, without restarts).
func WarmupCosine(warmup, total int, floor float64) Schedule {
	return func(step int) float64 {
		if step < warmup {
			return float64(step) / float64(warmup)
		}
		if step >= total || total <= warmup {
			return floor
		}
		p := float64(step-warmup) / float64(total-warmup)
		return floor + (1-floor)*0.5*(1+math.Cos(math.Pi*p))
	}
}
