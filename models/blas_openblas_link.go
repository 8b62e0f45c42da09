//go:build openblas

package models

// #cgo LDFLAGS: -lopenblas
import "C"
