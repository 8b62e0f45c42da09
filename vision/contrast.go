package vision

import "math"

// Contrast returns how much the colours of the image t holds vary: the
// largest, over its channels, standard deviation of the channel's values
// in pixel units [0, 1], undoing n, the normalization that made t from
// the pixels (t = (pixel/255 − n.Mean) / n.Std). It is 0 for an image of
// one colour and 0.5 for one half black, half white. Flickr8k's photos,
// squashed to 224×224, lie between 0.04 and 0.5 (median 0.25); a blank
// picture, a transparent one or a strip of a few pixels squashed to a
// square lies under 0.02. For an empty or channel-less t it is 0.
func (t *Tensor) Contrast(n Normalization) float64 {
	plane := t.H * t.W
	if plane == 0 || t.C == 0 || len(t.Data) < t.C*plane {
		return 0
	}
	best := 0.0
	for c := 0; c < t.C; c++ {
		v := t.Data[c*plane : (c+1)*plane]
		var sum float64
		for _, x := range v {
			sum += float64(x)
		}
		mean := sum / float64(plane)
		var ss float64
		for _, x := range v {
			d := float64(x) - mean
			ss += d * d
		}
		scale := 1.0
		if c < len(n.Std) {
			scale = math.Abs(float64(n.Std[c]))
		}
		best = max(best, math.Sqrt(ss/float64(plane))*scale)
	}
	return best
}
