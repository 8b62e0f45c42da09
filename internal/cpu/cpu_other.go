//go:build !amd64 || purego

package cpu

func hasAVX2FMA() bool { return false }

func hasAVX512BF16() bool { return false }
