package attention

import "math"

// tanhAddTo writes dst[i] = tanh(a[i] + b[i]), the inner loop of every
// additive score. models.Tanh computes the same function per element, but
// as two calls that the compiler does not inline; in float32 this loop
// inlines the same approximation (Eigen's rational 13/6 fit, max abs error
// about 1e-7) and runs several times faster, which is most of an additive
// step's time.
func tanhAddTo[F Float](dst, a, b []F) {
	switch d := any(dst).(type) {
	case []float32:
		tanhAddTo32(d, any(a).([]float32), any(b).([]float32))
	case []float64:
		a, b := any(a).([]float64), any(b).([]float64)
		b = b[:len(d)]
		for i := range d {
			d[i] = math.Tanh(a[i] + b[i])
		}
	}
}

func tanhAddTo32(dst, a, b []float32) {
	const clamp = 7.90531110763549805
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		x := a[i] + b[i]
		if x > clamp {
			x = clamp
		} else if x < -clamp {
			x = -clamp
		}
		x2 := x * x
		p := x2*-2.76076847742355e-16 + 2.00018790482477e-13
		p = x2*p + -8.60467152213735e-11
		p = x2*p + 5.12229709037114e-08
		p = x2*p + 1.48572235717979e-05
		p = x2*p + 6.37261928875436e-04
		p = x2*p + 4.89352455891786e-03
		q := x2*1.19825839466702e-06 + 1.18534705686654e-04
		q = x2*q + 2.26843463243900e-03
		q = x2*q + 4.89352518554385e-03
		dst[i] = x * p / q
	}
}
