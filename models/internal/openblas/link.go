//go:build openblas

// Package openblas links the program against Debian's libopenblas for
// builds with -tags openblas. It holds the package's only cgo directive, so
// that package models itself uses no cgo and can keep its Go assembly
// kernels (a package using cgo cannot contain .s files).
package openblas

// #cgo LDFLAGS: -lopenblas
import "C"
