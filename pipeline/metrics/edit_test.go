package metrics

import (
	"math"
	"testing"
)

func TestEditCountsRate(t *testing.T) {
	tests := []struct {
		name   string
		counts EditCounts
		errors int
		rate   float64
		str    string
	}{
		{"perfect", EditCounts{Ref: 4, Hyp: 4}, 0, 0, "0.00% (S 0, D 0, I 0 / 4)"},
		{"mixed", EditCounts{Ref: 32, Sub: 3, Del: 1, Hyp: 31}, 4, 0.125, "12.50% (S 3, D 1, I 0 / 32)"},
		{"insertions past 100%", EditCounts{Ref: 5, Ins: 6, Hyp: 11}, 6, 1.2, "120.00% (S 0, D 0, I 6 / 5)"},
		{"empty against empty", EditCounts{}, 0, 0, "0.00% (S 0, D 0, I 0 / 0)"},
		{"empty reference with insertions", EditCounts{Ins: 2, Hyp: 2}, 2, math.Inf(1), "+Inf% (S 0, D 0, I 2 / 0)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.counts.Errors(); got != tt.errors {
				t.Errorf("Errors() = %d, want %d", got, tt.errors)
			}
			if got := tt.counts.Rate(); got != tt.rate {
				t.Errorf("Rate() = %v, want %v", got, tt.rate)
			}
			if got := tt.counts.String(); got != tt.str {
				t.Errorf("String() = %q, want %q", got, tt.str)
			}
		})
	}
}

func TestEditCountsAdd(t *testing.T) {
	var sum EditCounts
	sum.Add(EditCounts{Ref: 4, Sub: 1, Hyp: 4})
	sum.Add(EditCounts{Ref: 4, Sub: 2, Del: 0, Ins: 1, Hyp: 5})
	sum.Add(EditCounts{Ref: 0, Ins: 1, Hyp: 1})
	want := EditCounts{Ref: 8, Sub: 3, Ins: 2, Hyp: 10}
	if sum != want {
		t.Fatalf("sum = %+v, want %+v", sum, want)
	}
	if got := sum.Correct(); got != 5 {
		t.Errorf("Correct() = %d, want 5", got)
	}
	if got := sum.Rate(); got != 5.0/8 {
		t.Errorf("Rate() = %v, want %v (a corpus rate is summed errors over summed references)", got, 5.0/8)
	}
}

func TestOpKindString(t *testing.T) {
	for k, want := range map[OpKind]string{Match: "match", Sub: "sub", Del: "del", Ins: "ins", 9: "OpKind(?)"} {
		if got := k.String(); got != want {
			t.Errorf("OpKind(%d).String() = %q, want %q", k, got, want)
		}
	}
}
