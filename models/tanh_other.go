//go:build purego || !amd64

package models

// useTanhAVX2 is false where there is no assembly loop.
var useTanhAVX2 = false

func tanhAddFast(dst, a, b []float32) int { return 0 }
