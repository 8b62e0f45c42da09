package batch

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/bits"
	"strconv"
	"strings"
)

// Shard selects one of Count disjoint parts of an input list, so that
// Count machines can split one corpus with any scheduler and no
// coordination. The zero Shard (Count 0) selects everything.
//
// An input belongs to shard ⌊FNV-1a-64(Rel) · Count / 2⁶⁴⌋ (ShardOf),
// where Rel is its slash-separated path relative to its root (Input.Rel). The partition
// depends on nothing but that path: it is the same on every machine
// whatever the mount point of the corpus, the order of the list or the
// other files present, and every input lands in exactly one shard.
type Shard struct {
	Index, Count int
}

// ErrShard marks a malformed --shard value.
var ErrShard = errors.New("batch: bad shard")

// ParseShard parses "i/n" with 0 ≤ i < n (zero-based, as Kubernetes'
// JOB_COMPLETION_INDEX and a Slurm array --array=0-(n-1) count). The
// empty string is the zero Shard.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(is))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	switch {
	case !ok || err1 != nil || err2 != nil:
		return Shard{}, fmt.Errorf("%w %q: want i/n, e.g. 0/4", ErrShard, s)
	case n < 1:
		return Shard{}, fmt.Errorf("%w %q: the count n must be at least 1", ErrShard, s)
	case i < 0 || i >= n:
		return Shard{}, fmt.Errorf("%w %q: the index i must be in 0..%d (shards count from 0)", ErrShard, s, n-1)
	}
	return Shard{Index: i, Count: n}, nil
}

// String returns "i/n", or "" for the zero Shard.
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Contains reports whether in belongs to the shard.
func (s Shard) Contains(in Input) bool {
	return s.Count <= 1 || ShardOf(in.Rel(), s.Count) == s.Index
}

// ShardOf returns the shard, in 0..n-1, of a slash-separated relative
// path: the high 64 bits of the 128-bit product h·n, where h is FNV-1a-64
// of the path's bytes, i.e. ⌊h·n / 2⁶⁴⌋ (Lemire's multiply-shift range
// reduction). It is documented so that other tools can reproduce the
// partition.
//
// h mod n would be simpler but is badly skewed for the power-of-two n
// schedulers favour: FNV-1a's low k bits depend only on the low k bits of
// each byte, so h mod 2 is the parity of the number of odd bytes, and
// "img_0002.jpg" and "img_0004.jpg" always share a shard. The high bits
// of h depend on every bit of every byte.
func ShardOf(rel string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(rel))
	hi, _ := bits.Mul64(h.Sum64(), uint64(n))
	return int(hi)
}
