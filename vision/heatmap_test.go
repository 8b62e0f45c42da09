package vision

import (
	"errors"
	"image"
	"math"
	"strings"
	"testing"
)

// skimageGrid is a 3×4 attention grid with reference fields computed by
// scikit-image 0.19.3 / SciPy 1.10.1 at 16 pixels a cell (48×64):
//
//	bi = skimage.transform.resize(g, (48, 64), order=1, mode='edge', anti_aliasing=False)
//	ga = scipy.ndimage.gaussian_filter(bi, 20, mode='reflect', truncate=4.0)
//
// which is Xu et al.'s pyramid_expand(g, upscale=16, sigma=20) with the
// border handled as this package does (edge-clamped bilinear, half-sample
// mirror for the Gaussian).
var skimageGrid = []float32{
	0.02, 0.05, 0.10, 0.03,
	0.04, 0.30, 0.15, 0.01,
	0.06, 0.12, 0.08, 0.04,
}

var skimageRef = []struct {
	y, x               int
	bilinear, gaussian float64
}{
	{0, 0, 0.0200000, 0.0730241},
	{5, 40, 0.0978125, 0.0809006},
	{20, 20, 0.1994434, 0.0910848},
	{24, 23, 0.2864453, 0.0941011},
	{30, 63, 0.0221875, 0.0672198},
	{47, 0, 0.0600000, 0.0922035},
	{47, 47, 0.0612500, 0.0795733},
	{10, 33, 0.1001953, 0.0866091},
}

func TestHeatmapMatchesSkimage(t *testing.T) {
	for _, tc := range []struct {
		s    Smoothing
		want func(i int) float64
	}{
		{SmoothBilinear, func(i int) float64 { return skimageRef[i].bilinear }},
		{SmoothGaussian, func(i int) float64 { return skimageRef[i].gaussian }},
	} {
		t.Run(tc.s.String(), func(t *testing.T) {
			h, err := Heatmap(skimageGrid, 3, 4, 64, 48, &HeatmapOptions{Smoothing: tc.s, Max: 1})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range skimageRef {
				got := float64(h.Values[r.y*64+r.x])
				if math.Abs(got-tc.want(i)) > 2e-6 {
					t.Errorf("(%d, %d) = %.7f, want %.7f", r.x, r.y, got, tc.want(i))
				}
			}
		})
	}
}

func TestHeatmapNearest(t *testing.T) {
	h, err := Heatmap(skimageGrid, 3, 4, 40, 30, &HeatmapOptions{Smoothing: SmoothNearest, Max: 1})
	if err != nil {
		t.Fatal(err)
	}
	for y := range 30 {
		for x := range 40 {
			if got, want := h.Values[y*40+x], skimageGrid[(y/10)*4+x/10]; got != want {
				t.Fatalf("(%d, %d) = %v, want the weight of cell (%d, %d) %v", x, y, got, y/10, x/10, want)
			}
		}
	}
}

// TestHeatmapConvex checks that every smoothing keeps the field within the
// grid's range, that PanelMax scaling puts the peak at exactly 1, and that
// a uniform grid gives a flat field.
func TestHeatmapConvex(t *testing.T) {
	uniform := make([]float32, 49)
	for i := range uniform {
		uniform[i] = 1.0 / 49
	}
	for _, s := range []Smoothing{SmoothBilinear, SmoothGaussian, SmoothNearest} {
		t.Run(s.String(), func(t *testing.T) {
			h, err := Heatmap(skimageGrid, 3, 4, 97, 61, &HeatmapOptions{Smoothing: s})
			if err != nil {
				t.Fatal(err)
			}
			if h.Peak > 0.3+1e-6 || h.Peak < 0.05 {
				t.Errorf("Peak = %v, want within the grid's range [0.01, 0.3]", h.Peak)
			}
			var top float32
			for _, v := range h.Values {
				if v < 0 || v > 1 {
					t.Fatalf("value %v outside [0, 1]", v)
				}
				top = max(top, v)
			}
			if top != 1 || h.Max != h.Peak {
				t.Errorf("scaled maximum %v, Max %v, Peak %v; want 1 and Max = Peak", top, h.Max, h.Peak)
			}
			flat, err := Heatmap(uniform, 7, 7, 50, 31, &HeatmapOptions{Smoothing: s, Max: 1})
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range flat.Values {
				if math.Abs(float64(v)-1.0/49) > 1e-6 {
					t.Fatalf("uniform grid: pixel %d = %v, want 1/49", i, v)
				}
			}
		})
	}
}

func TestHeatmapRegion(t *testing.T) {
	onehot := make([]float32, 4)
	onehot[3] = 1 // bottom-right of a 2×2 grid
	region := image.Rect(10, 5, 30, 25)
	h, err := Heatmap(onehot, 2, 2, 40, 30, &HeatmapOptions{Smoothing: SmoothNearest, Region: region})
	if err != nil {
		t.Fatal(err)
	}
	if h.Region != region {
		t.Errorf("Region = %v, want %v", h.Region, region)
	}
	for y := range 30 {
		for x := range 40 {
			want := float32(0)
			if x >= 20 && x < 30 && y >= 15 && y < 25 {
				want = 1
			}
			if got := h.Values[y*40+x]; got != want {
				t.Fatalf("(%d, %d) = %v, want %v", x, y, got, want)
			}
		}
	}
}

func TestCheckWeights(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, tc := range []struct {
		name       string
		w          []float32
		rows, cols int
		msg        string // "" means valid
	}{
		{"valid", []float32{0.25, 0.25, 0.5, 0}, 2, 2, ""},
		{"float drift", []float32{0.3333333, 0.3333333, 0.3333333}, 1, 3, ""},
		{"count", []float32{0.5, 0.5}, 2, 2, "2 weights for a 2×2 grid"},
		{"no rows", nil, 0, 3, "grid 0×3"},
		{"NaN", []float32{0.5, nan, 0.5, 0}, 2, 2, "cell (0, 1) is NaN"},
		{"Inf", []float32{0, 0, inf, 0}, 2, 2, "cell (1, 0) is +Inf"},
		{"negative", []float32{0.6, 0.6, -0.2, 0}, 2, 2, "cell (1, 0) is negative"},
		{"unnormalized", []float32{1, 1, 1, 1}, 2, 2, "sum to 4"},
		{"zero", []float32{0, 0, 0, 0}, 2, 2, "sum to 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckWeights(tc.w, tc.rows, tc.cols)
			if tc.msg == "" {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			if !errors.Is(err, ErrWeights) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want ErrWeights mentioning %q", err, tc.msg)
			}
		})
	}
}

func TestHeatmapOptionErrors(t *testing.T) {
	w := []float32{0.5, 0.5}
	for _, tc := range []struct {
		name string
		w, h int
		opts HeatmapOptions
		msg  string
	}{
		{"zero width", 0, 10, HeatmapOptions{}, "size 0×10"},
		{"huge", 10, MaxTensorSize + 1, HeatmapOptions{}, "size 10×8193"},
		{"sigma", 10, 10, HeatmapOptions{Smoothing: SmoothGaussian, Sigma: -1}, "Sigma -1"},
		{"sigma NaN", 10, 10, HeatmapOptions{Sigma: math.NaN()}, "Sigma NaN"},
		{"max", 10, 10, HeatmapOptions{Max: -1}, "Max -1"},
		{"smoothing", 10, 10, HeatmapOptions{Smoothing: 9}, "Smoothing(9)"},
		{"region", 10, 10, HeatmapOptions{Region: image.Rect(5, 5, 11, 8)}, "outside the 10×10 field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Heatmap(w, 1, 2, tc.w, tc.h, &tc.opts)
			if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want ErrOptions mentioning %q", err, tc.msg)
			}
		})
	}
}

// TestAxisWeightsSumToOne checks the interpolation rows of every smoothing
// on grids and sizes where cells and pixels do not line up.
func TestAxisWeightsSumToOne(t *testing.T) {
	for _, s := range []Smoothing{SmoothBilinear, SmoothGaussian, SmoothNearest} {
		for _, sigma := range []float64{0.3, 1.25, 9} {
			m := axisWeights(37, 5, 3.3, 31.7, s, sigma)
			for i := range 37 {
				var sum float64
				for _, v := range m.row(i) {
					sum += float64(v)
				}
				inside := float64(i)+0.5 >= 3.3 && float64(i)+0.5 < 31.7
				if want := map[bool]float64{true: 1, false: 0}[inside]; math.Abs(sum-want) > 1e-5 {
					t.Fatalf("%v σ=%v: row %d sums to %v, want %v", s, sigma, i, sum, want)
				}
			}
		}
	}
}
