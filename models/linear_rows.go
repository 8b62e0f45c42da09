package models

import "gorgonia.org/tensor"

// Row-wise helpers shared by the layer kernels (Linear, Embedding, LSTM,
// BiLSTM, pyramid, dropout, CTC).

// floatsOf returns a dense tensor's backing slice as []F. The kernels only
// see dense float32 or float64 tensors of one dtype (see Kernel), so a
// mismatch is a programmer error and panics.
func floatsOf[F Float](t *tensor.Dense) []F {
	return t.Data().([]F)
}

// growFloats returns buf resized to n elements, reallocating only when its
// capacity is short. The contents are unspecified.
func growFloats[F Float](buf []F, n int) []F {
	if cap(buf) < n {
		return make([]F, n)
	}
	return buf[:n]
}

// growInts is growFloats for ints.
func growInts(buf []int, n int) []int {
	if cap(buf) < n {
		return make([]int, n)
	}
	return buf[:n]
}

// broadcastRows sets each of the n rows of dst (row stride ld, width
// len(row)) to row.
func broadcastRows[F Float](dst []F, n, ld int, row []F) {
	for r := 0; r < n; r++ {
		copy(dst[r*ld:r*ld+len(row)], row)
	}
}

// addRows adds row to each of the n rows of dst (row stride len(row)).
func addRows[F Float](dst []F, n int, row []F) {
	w := len(row)
	for r := 0; r < n; r++ {
		d := dst[r*w : (r+1)*w]
		for j, v := range row {
			d[j] += v
		}
	}
}

// sumRows writes into dst (width w) the sum of the n rows of src (row
// stride w): the bias gradient of a broadcast add.
func sumRows[F Float](dst, src []F, n, w int) {
	clear(dst[:w])
	for r := 0; r < n; r++ {
		s := src[r*w : (r+1)*w]
		for j, v := range s {
			dst[j] += v
		}
	}
}
