//go:build !amd64 || purego

package cpu

func hasF16C() bool { return false }
