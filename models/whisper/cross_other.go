//go:build !amd64 || purego

package whisper

// Without assembly crossStep runs its Go loops.

var useCrossAVX2 = false

func crossScoresFast(s, q, x []float32, n, heads, frames int) bool { return false }

func crossAccumFast(acc, p, x, corr []float32, n, heads, frames int) bool { return false }

func crossStepFast(n, heads int) bool { return false }
