//go:build openblas

package models

import (
	_ "github.com/attend-go/attend/models/internal/openblas" // links -lopenblas
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
	"gorgonia.org/gorgonia"
)

// With -tags openblas (cgo, Debian libopenblas-dev; models/internal/openblas links it)
// every matrix product, ours and gorgonia's, goes through OpenBLAS.
func init() {
	blas32.Use(netlib.Implementation{})
	blas64.Use(netlib.Implementation{})
	gorgonia.Use(netlib.Implementation{})
}
