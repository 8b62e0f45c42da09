//go:build purego || !amd64

package models

// useTanhAVX2 is false where there is no assembly loop.
var useTanhAVX2 = false

func tanhAddFast(dst, a, b []float32) int { return 0 }

func cellRowFast(z, cPrev, c, h []float32) int { return 0 }

func cellBackRowFast(a, cPrev, c, dh, dc, d, dcPrev []float32) int { return 0 }

func tanhScoreFast(a, b, c, v []float32) (int, float32) { return 0, 0 }

func tanhScoreBackFast(dp, dv, dq, a, b, c, v []float32, d float32, add bool) int { return 0 }

func axpyFast(alpha float32, x, y []float32) int { return 0 }

func dotFast(x, y []float32) (int, float32) { return 0, 0 }
