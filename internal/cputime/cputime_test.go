//go:build unix

package cputime

import "testing"

// TestProcessGrows: CPU time spent computing shows up, and never goes
// back.
func TestProcessGrows(t *testing.T) {
	start := Process()
	if start <= 0 {
		t.Fatalf("Process() = %v at the start of a test", start)
	}
	x := 1.0
	for Process() == start {
		for range 1 << 16 {
			x = x*1.0000001 + 1e-9
		}
	}
	if end := Process(); end < start || x == 0 {
		t.Errorf("CPU time went back: %v, then %v", start, end)
	}
}
