package cli

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckAnneal: a negative -anneal is a usage error naming the flag;
// zero and positive step counts pass.
func TestCheckAnneal(t *testing.T) {
	for _, tc := range []struct {
		steps int
		want  string // "" for valid
	}{
		{0, ""},
		{4827, ""},
		{-1, "-anneal -1: want 0"},
	} {
		err := CheckAnneal(tc.steps)
		if tc.want == "" && err != nil || tc.want != "" && (!errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckAnneal(%d) = %v, want %q", tc.steps, err, tc.want)
		}
	}
}
