//go:build !amd64 || purego

package cpu

func hasAVX2FMA() bool { return false }
