package overlay

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// SelectWords turns a selection such as "3", "dog,grass" or "1,dog" into
// the 0-based indexes of Options.Words. Each comma-separated item is a
// 1-based word position or a word, which selects every occurrence of it.
// The indexes come back in the caption's order without repeats, so the
// panels read as the sentence does. An empty selection means every word
// (nil). An item that matches nothing fails with ErrWord, naming it and
// the caption.
func SelectWords(c *Caption, selection string) ([]int, error) {
	if strings.TrimSpace(selection) == "" {
		return nil, nil
	}
	var picked []int
	for item := range strings.SplitSeq(selection, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("%w: empty item in the word selection %q", ErrWord, selection)
		}
		if k, err := strconv.Atoi(item); err == nil {
			if k < 1 || k > len(c.Words) {
				return nil, fmt.Errorf("%w: word %d of %s", ErrWord, k, c.describe())
			}
			picked = append(picked, k-1)
			continue
		}
		found := false
		for i, w := range c.Words {
			if strings.EqualFold(w, item) {
				picked = append(picked, i)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("%w: %q is not in %s", ErrWord, item, c.describe())
		}
	}
	slices.Sort(picked)
	return slices.Compact(picked), nil
}
