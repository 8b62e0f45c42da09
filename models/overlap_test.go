package models_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// nopReducer is a Reducer of one rank.
type nopReducer struct{}

func (nopReducer) IallreduceSum([]float32) error { return nil }
func (nopReducer) TestAll() (bool, error)        { return true, nil }
func (nopReducer) WaitAll() error                { return nil }
func (nopReducer) Bcast64([]float64, int) error  { return nil }

// TestGradStreamBuckets: the buckets a GradStream cuts from parameters of
// 100, 300, 50, 1000 and 10 floats (400, 1200, 200, 4000 and 40 bytes),
// taken in reverse creation order, each closed once it holds the size
// asked for; 0 is one bucket. A float64 store is refused.
func TestGradStreamBuckets(t *testing.T) {
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(1, 2)))
	for i, n := range []int{100, 300, 50, 1000, 10} {
		ps.New(string(rune('a'+i)), nil, n)
	}
	for _, tc := range []struct {
		bytes, n, largest int
	}{
		{0, 1, 5840},
		{1, 5, 4000},
		{1000, 3, 4040},  // {10, 1000}, {50, 300}, {100}
		{1500, 2, 4040},  // {10, 1000}, {50, 300, 100}
		{10000, 1, 5840}, // everything
	} {
		s, err := models.NewGradStream(ps, nopReducer{}, tc.bytes)
		if err != nil {
			t.Fatal(err)
		}
		if n, largest := s.Buckets(); n != tc.n || largest != tc.largest {
			t.Errorf("buckets of %d bytes: %d, the largest %d bytes; want %d, %d", tc.bytes, n, largest, tc.n, tc.largest)
		}
	}
	f64 := models.NewParams(tensor.Float64, rand.New(rand.NewPCG(1, 2)))
	f64.New("w", nil, 3)
	if _, err := models.NewGradStream(f64, nopReducer{}, 0); !errors.Is(err, models.ErrStreamDtype) {
		t.Errorf("a float64 store: %v, want ErrStreamDtype", err)
	}
}
