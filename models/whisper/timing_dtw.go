package whisper

import "math"

// medianFilter is openai/whisper's median_filter along each row of x
// (rows × cols, row-major) in place: every value becomes the median of
// the width values around it, the row extended by reflection (torch's
// "reflect" padding, the edge not repeated). Rows of cols ≤ width/2 are
// left as they are. width must be odd.
func medianFilter(x []float32, rows, cols, width int) {
	pad := width / 2
	if cols <= pad {
		return
	}
	padded := make([]float32, cols+2*pad)
	win := make([]float32, width)
	for r := 0; r < rows; r++ {
		row := x[r*cols : (r+1)*cols]
		for i := range padded {
			j := i - pad
			if j < 0 {
				j = -j
			} else if j >= cols {
				j = 2*(cols-1) - j
			}
			padded[i] = row[j]
		}
		for i := range row {
			// Insertion sort of the window (width is small: 7).
			for k, v := range padded[i : i+width] {
				p := k
				for p > 0 && lessNaNLast(v, win[p-1]) {
					win[p] = win[p-1]
					p--
				}
				win[p] = v
			}
			row[i] = win[pad]
		}
	}
}

// lessNaNLast orders as torch.sort does: NaN after every number.
func lessNaNLast(a, b float32) bool {
	if a != a {
		return false
	}
	return b != b || a < b
}

// dtw is openai/whisper's dtw_cpu and backtrace: the cheapest monotonic
// path through cost x (n × m, row-major) from (0,0) to (n−1,m−1). The
// accumulated costs are float32 as there, and ties prefer, in order, a
// step right (along m), a step down, then the diagonal only when strictly
// cheapest. It returns the path's (row, column) pairs in order; as in
// openai/whisper the path may begin with row −1 entries when it reaches
// the first row before the first column.
func dtw(x []float32, n, m int) (rowIdx, colIdx []int) {
	inf := float32(math.Inf(1))
	cost := make([]float32, (n+1)*(m+1))
	trace := make([]int8, (n+1)*(m+1))
	for i := range cost {
		cost[i] = inf
		trace[i] = -1
	}
	cost[0] = 0
	w := m + 1
	for j := 1; j <= m; j++ {
		for i := 1; i <= n; i++ {
			c0 := cost[(i-1)*w+j-1]
			c1 := cost[(i-1)*w+j]
			c2 := cost[i*w+j-1]
			var c float32
			var t int8
			switch {
			case c0 < c1 && c0 < c2:
				c, t = c0, 0
			case c1 < c0 && c1 < c2:
				c, t = c1, 1
			default:
				c, t = c2, 2
			}
			cost[i*w+j] = float32(float64(x[(i-1)*m+j-1]) + float64(c))
			trace[i*w+j] = t
		}
	}

	// backtrace
	for j := 0; j <= m; j++ {
		trace[j] = 2
	}
	for i := 0; i <= n; i++ {
		trace[i*w] = 1
	}
	i, j := n, m
	for i > 0 || j > 0 {
		rowIdx = append(rowIdx, i-1)
		colIdx = append(colIdx, j-1)
		switch trace[i*w+j] {
		case 0:
			i--
			j--
		case 1:
			i--
		default:
			j--
		}
	}
	for a, b := 0, len(rowIdx)-1; a < b; a, b = a+1, b-1 {
		rowIdx[a], rowIdx[b] = rowIdx[b], rowIdx[a]
		colIdx[a], colIdx[b] = colIdx[b], colIdx[a]
	}
	return rowIdx, colIdx
}
