package batch

import (
	"errors"
	"fmt"
	"testing"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		want Shard
		err  bool
	}{
		{"", Shard{}, false},
		{"0/1", Shard{0, 1}, false},
		{"3/8", Shard{3, 8}, false},
		{" 7 / 8 ", Shard{7, 8}, false},
		{"8/8", Shard{}, true},
		{"-1/8", Shard{}, true},
		{"1/0", Shard{}, true},
		{"1", Shard{}, true},
		{"a/b", Shard{}, true},
		{"1/2/3", Shard{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseShard(tc.in)
			if tc.err {
				if !errors.Is(err, ErrShard) {
					t.Fatalf("ParseShard(%q) = %v, %v; want ErrShard", tc.in, got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ParseShard(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
			if back, _ := ParseShard(got.String()); back != got {
				t.Errorf("String() = %q does not parse back", got.String())
			}
		})
	}
}

// TestShardOfIsFNV1a pins the documented function with values computed
// independently (Python: h = FNV-1a 64 by hand, then (h * n) >> 64).
func TestShardOfIsFNV1a(t *testing.T) {
	tests := []struct {
		rel     string
		n, want int
	}{
		{"a.wav", 8, 3},
		{"spk1/u0001.flac", 8, 6},
		{"spk1/u0001.flac", 3, 2},
		{"x", 2, 1},
		{"", 5, 3},
	}
	for _, tc := range tests {
		if got := ShardOf(tc.rel, tc.n); got != tc.want {
			t.Errorf("ShardOf(%q, %d) = %d, want %d", tc.rel, tc.n, got, tc.want)
		}
	}
}

func TestShardPartitionIsBalanced(t *testing.T) {
	const files, n = 20000, 8
	counts := make([]int, n)
	for i := range files {
		in := Input{Path: fmt.Sprintf("/mnt/corpus/spk%03d/utt%05d.wav", i%97, i), Root: "/mnt/corpus"}
		owners := 0
		for s := range n {
			if (Shard{s, n}).Contains(in) {
				owners++
				counts[s]++
			}
		}
		if owners != 1 {
			t.Fatalf("%s is in %d shards", in.Path, owners)
		}
		// The mount point does not matter, only the relative path.
		moved := Input{Path: "/data/c/" + in.Rel(), Root: "/data/c"}
		if ShardOf(moved.Rel(), n) != ShardOf(in.Rel(), n) {
			t.Fatalf("%s changes shard when the corpus moves", in.Rel())
		}
	}
	for s, c := range counts {
		if c < files/n*9/10 || c > files/n*11/10 {
			t.Errorf("shard %d has %d of %d files (want within 10%% of %d)", s, c, files, files/n)
		}
	}
	if !(Shard{}).Contains(Input{Path: "x"}) {
		t.Error("the zero Shard does not contain everything")
	}
}

// TestShardOfUsesEveryBit guards against h mod n: FNV-1a's low bits depend
// only on the low bits of each byte, so with h mod 2 every name made of
// even bytes alone (here the digits 0, 2, 4, 6, 8) would share one shard.
func TestShardOfUsesEveryBit(t *testing.T) {
	even := "02468"
	for _, n := range []int{2, 4, 8} {
		counts := make([]int, n)
		total := 0
		for a := range 5 {
			for b := range 5 {
				for c := range 5 {
					for d := range 5 {
						rel := fmt.Sprintf("img_%c%c%c%c.jpg", even[a], even[b], even[c], even[d])
						counts[ShardOf(rel, n)]++
						total++
					}
				}
			}
		}
		for s, c := range counts {
			if c < total/n*8/10 || c > total/n*12/10 {
				t.Errorf("n=%d: shard %d has %d of %d names (want within 20%% of %d)", n, s, c, total, total/n)
			}
		}
	}
}
