//go:build !purego

package models

import "github.com/attend-go/attend/internal/cpu"

// tanhAddAVX2 is implemented in tanh_amd64.s.
//
//go:noescape
func tanhAddAVX2(dst, a, b *float32, n int)

// useTanhAVX2 selects the assembly loop; tests clear it to check the Go one.
var useTanhAVX2 = cpu.AVX2FMA

// tanhAddFast handles the multiple-of-8 prefix in assembly when it can and
// returns how many elements it did.
func tanhAddFast(dst, a, b []float32) int {
	n := len(dst) &^ 7
	if !useTanhAVX2 || n == 0 {
		return 0
	}
	tanhAddAVX2(&dst[0], &a[0], &b[0], n)
	return n
}

// lstmCellAVX2 is implemented in tanh_amd64.s.
//
//go:noescape
func lstmCellAVX2(z, cPrev, c, h *float32, gateStride, n int)

// cellRowFast runs the multiple-of-8 prefix of one row of cellForward in
// assembly when it can and returns how many columns it did. z holds the
// row's four gates (stride H = len(c)); cPrev is nil or as long as c.
func cellRowFast(z, cPrev, c, h []float32) int {
	H := len(c)
	n := H &^ 7
	if !useTanhAVX2 || n == 0 {
		return 0
	}
	_, _ = z[4*H-1], h[H-1]
	var cp *float32
	if cPrev != nil {
		_ = cPrev[H-1]
		cp = &cPrev[0]
	}
	lstmCellAVX2(&z[0], cp, &c[0], &h[0], H, n)
	return n
}

// lstmCellBackAVX2 is implemented in tanh_amd64.s.
//
//go:noescape
func lstmCellBackAVX2(a, cPrev, c, dh, dc, d, dcPrev *float32, gateStride, n int)

// cellBackRowFast runs the multiple-of-8 prefix of one row of cellBackward
// in assembly when it can and returns how many columns it did. a and d
// hold the row's four gates (stride H = len(c)); cPrev is nil or as long
// as c.
func cellBackRowFast(a, cPrev, c, dh, dc, d, dcPrev []float32) int {
	H := len(c)
	n := H &^ 7
	if !useTanhAVX2 || n == 0 {
		return 0
	}
	_, _, _, _, _ = a[4*H-1], d[4*H-1], dh[H-1], dc[H-1], dcPrev[H-1]
	var cp *float32
	if cPrev != nil {
		_ = cPrev[H-1]
		cp = &cPrev[0]
	}
	lstmCellBackAVX2(&a[0], cp, &c[0], &dh[0], &dc[0], &d[0], &dcPrev[0], H, n)
	return n
}

// tanhScoreAVX2 and tanhScoreBackAVX2 are implemented in tanh_amd64.s.
//
//go:noescape
func tanhScoreAVX2(a, b, c, v *float32, n int) float32

//go:noescape
func tanhScoreBackAVX2(dp, dv, dq, a, b, c, v *float32, d float32, n, add int)

// tanhScoreFast runs TanhScore's multiple-of-8 prefix in assembly when it
// can and returns how many elements it did and their sum. The slices have
// equal lengths; c may be nil.
func tanhScoreFast(a, b, c, v []float32) (int, float32) {
	n := len(v) &^ 7
	if !useTanhAVX2 || n == 0 {
		return 0, 0
	}
	return n, tanhScoreAVX2(&a[0], &b[0], firstOrNil(c), &v[0], n)
}

// tanhScoreBackFast is tanhScoreFast for TanhScoreBackward.
func tanhScoreBackFast(dp, dv, dq, a, b, c, v []float32, d float32, add bool) int {
	n := len(v) &^ 7
	if !useTanhAVX2 || n == 0 {
		return 0
	}
	addInt := 0
	if add {
		addInt = 1
	}
	tanhScoreBackAVX2(&dp[0], &dv[0], &dq[0], &a[0], &b[0], firstOrNil(c), &v[0], d, n, addInt)
	return n
}

func firstOrNil(s []float32) *float32 {
	if s == nil {
		return nil
	}
	return &s[0]
}
