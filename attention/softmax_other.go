//go:build !amd64 || purego

package attention

// Without assembly the fast paths do nothing and the Go loops do it all.

var useSoftmaxAVX2 = false

func maxFast([]float32) (int, float32) { return 0, 0 }

func expSubSumFast([]float32, float32) (int, float32) { return 0, 0 }

func scaleFast([]float32, float32) int { return 0 }

func sumExpSubFast([]float32, float32) (int, float64) { return 0, 0 }
