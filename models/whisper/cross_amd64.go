//go:build !purego

package whisper

import "github.com/attend-go/attend/internal/cpu"

// Implemented in cross_amd64.s.
//
//go:noescape
func crossScoresAVX2(s, q, x *float32, n, heads, frames int)

//go:noescape
func crossAccumAVX2(acc, p, x, corr *float32, n, heads, frames int)

// useCrossAVX2 selects the assembly kernels of crossStep; tests clear it
// to check the Go loops.
var useCrossAVX2 = cpu.AVX2FMA

// crossScoresFast computes all of crossScores in assembly when the shapes
// allow it and reports whether it did.
func crossScoresFast(s, q, x []float32, n, heads, frames int) bool {
	if !useCrossAVX2 || heads%2 != 0 || n%8 != 0 || n == 0 || frames%4 != 0 || frames == 0 {
		return false
	}
	_, _, _ = s[heads*frames-1], q[heads*n-1], x[frames*n-1]
	crossScoresAVX2(&s[0], &q[0], &x[0], n, heads, frames)
	return true
}

// crossAccumFast computes all of crossAccum in assembly when the shapes
// allow it and reports whether it did.
func crossAccumFast(acc, p, x, corr []float32, n, heads, frames int) bool {
	if !useCrossAVX2 || heads%2 != 0 || heads == 0 || n%32 != 0 || n == 0 || frames == 0 {
		return false
	}
	_, _, _, _ = acc[heads*n-1], p[heads*frames-1], x[frames*n-1], corr[heads-1]
	crossAccumAVX2(&acc[0], &p[0], &x[0], &corr[0], n, heads, frames)
	return true
}

// crossStepFast reports whether crossStep's kernels run in assembly for
// width n and heads heads (all but a ragged last block of frames).
func crossStepFast(n, heads int) bool {
	return useCrossAVX2 && heads%2 == 0 && heads > 0 && n%32 == 0 && n > 0
}
