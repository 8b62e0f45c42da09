package whisper

import (
	"runtime"
	"slices"
	"testing"
)

// TestSelfCache checks that a cache grows in place up to its reserved
// rows, that copyFrom copies exactly the source's rows, that releasing
// twice is harmless, and that where memory maps, a reservation for the
// whole text context costs the Go heap nothing.
func TestSelfCache(t *testing.T) {
	for _, tc := range []struct {
		name            string
		layers, rows, n int
		appended        int
	}{
		{"tiny shape, a few steps", 4, 448, 384, 5},
		{"one row", 1, 1, 8, 1},
		{"full context", 2, 16, 4, 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			c := newSelfCache(tc.layers, tc.rows, tc.n)
			runtime.ReadMemStats(&after)
			if mapped := sysReserve(1) != nil; mapped {
				if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 64<<10 {
					t.Errorf("reserving %d floats grew the heap by %d bytes", 2*tc.layers*tc.rows*tc.n, grew)
				}
				for l := range tc.layers {
					if cap(c.k[l]) != tc.rows*tc.n || cap(c.v[l]) != tc.rows*tc.n {
						t.Fatalf("layer %d: capacities %d, %d, want %d", l, cap(c.k[l]), cap(c.v[l]), tc.rows*tc.n)
					}
				}
			}
			row := make([]float32, tc.n)
			for i := range tc.appended {
				for l := range tc.layers {
					for j := range row {
						row[j] = float32(1000*l + 10*i + j)
					}
					first := c.k[l][:cap(c.k[l])]
					c.k[l] = append(c.k[l], row...)
					c.v[l] = append(c.v[l], row...)
					if cap(first) >= len(c.k[l]) && &first[0] != &c.k[l][0] {
						t.Fatalf("layer %d step %d: the keys moved", l, i)
					}
				}
			}
			d := newSelfCache(tc.layers, tc.rows, tc.n)
			d.copyFrom(c)
			for l := range tc.layers {
				if !slices.Equal(d.k[l], c.k[l]) || !slices.Equal(d.v[l], c.v[l]) || len(d.k[l]) != tc.appended*tc.n {
					t.Fatalf("layer %d: copy holds %d keys, want the source's %d", l, len(d.k[l]), len(c.k[l]))
				}
			}
			c.k[0][0] = -1
			if d.k[0][0] == -1 {
				t.Fatal("the copy shares the source's memory")
			}
			c.release()
			c.release()
			d.release()
		})
	}
}
