//go:build !amd64 || purego

package vision

// Without assembly the Go kernels run.

// useAVX2 is always false here; it exists so that tests can treat every
// build alike.
var useAVX2 = false

func kernelName() string { return "go" }

func depthwise3x3(n, ch, step int, r0, r1, r2, w, bias, out []float32, lo, hi float32) {
	depthwise3x3Go(n, ch, step, r0, r1, r2, w, bias, out, lo, hi)
}
