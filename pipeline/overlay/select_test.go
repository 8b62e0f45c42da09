package overlay

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestSelectWords(t *testing.T) {
	c := &Caption{Words: []string{"a", "dog", "chases", "a", "ball"}}
	tests := []struct {
		sel     string
		want    []int
		wantErr string
	}{
		{sel: "", want: nil},
		{sel: "  ", want: nil},
		{sel: "3", want: []int{2}},
		{sel: "dog", want: []int{1}},
		{sel: "a", want: []int{0, 3}},
		{sel: "Ball, 2", want: []int{1, 4}},
		{sel: "5,1,5", want: []int{0, 4}},
		{sel: "0", wantErr: `word 0 of the 5-word caption "a dog chases a ball"`},
		{sel: "6", wantErr: "word 6 of the 5-word caption"},
		{sel: "cat", wantErr: `"cat" is not in the 5-word caption`},
		{sel: "dog,,ball", wantErr: `empty item in the word selection "dog,,ball"`},
	}
	for _, tc := range tests {
		t.Run(tc.sel, func(t *testing.T) {
			got, err := SelectWords(c, tc.sel)
			if tc.wantErr != "" {
				if !errors.Is(err, ErrWord) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("SelectWords(%q) = %v, %v; want ErrWord containing %q", tc.sel, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
				t.Fatalf("SelectWords(%q) = %v, %v; want %v", tc.sel, got, err, tc.want)
			}
		})
	}
	if _, err := SelectWords(&Caption{}, "1"); err == nil || !strings.Contains(err.Error(), "the empty caption") {
		t.Errorf("empty caption: %v", err)
	}
}
