package attention

// WindowCenter says where a Window is centered.
type WindowCenter int

const (
	// Median centers the window on the median of the previous weights, the
	// first position where their running sum reaches half their total
	// (Chorowski et al. 2015, §2.3). It is robust to a second, smaller peak.
	Median WindowCenter = iota
	// Peak centers the window on the previous weights' largest entry.
	Peak
)

// A Window restricts the scores of a step to positions near where the
// previous step attended: [c − Left, c + Right], with c the previous
// weights' Median or Peak (Chorowski et al. 2015, §2.3, "windowing"). Scores
// outside the window are never computed, so a step costs O(Left + Right)
// instead of O(T): the point for long inputs. Before the first step there
// are no previous weights and c = 0: attention starts at the beginning.
//
// The zero Window (Left = Right = 0) means no windowing.
type Window struct {
	Left, Right int          // positions kept before and after the center
	Center      WindowCenter // Median (the zero value) or Peak
}

// enabled reports whether w restricts anything.
func (w Window) enabled() bool { return w.Left > 0 || w.Right > 0 }

// windowBounds returns the window [lo, hi) of one row of length T given the
// previous weights prev (nil before the first step), or [0, T) when w is
// disabled. Negative weights, which only finite-difference probes feed in,
// count as zero.
func windowBounds[F Float](w Window, prev []F, T int) (lo, hi int) {
	if !w.enabled() {
		return 0, T
	}
	c := 0
	if prev != nil {
		c = windowCenter(w.Center, prev[:T])
	}
	return max(0, c-w.Left), min(T, c+w.Right+1)
}

// windowCenter returns the median or peak position of a row of weights;
// 0 for a row without positive weight.
func windowCenter[F Float](mode WindowCenter, p []F) int {
	if mode == Peak {
		best, at := F(0), 0
		for t, x := range p {
			if x > best {
				best, at = x, t
			}
		}
		return at
	}
	var total F
	for _, x := range p {
		if x > 0 {
			total += x
		}
	}
	if total <= 0 {
		return 0
	}
	var run F
	for t, x := range p {
		if x > 0 {
			run += x
		}
		if run >= total/2 {
			return t
		}
	}
	return len(p) - 1
}
