package figure

import (
	"strings"
	"testing"
)

// TestWrapWords: a caption wider than the figure wraps at spaces, every
// word kept, each line within the width; past the last line allowed, an
// ellipsis says the text goes on.
func TestWrapWords(t *testing.T) {
	face := LabelFace(1, true)
	title := "a man in a red shirt is playing a football on a green field beside a dog"
	lines := WrapWords(face, title, 150, 8)
	if len(lines) < 2 || strings.Join(lines, " ") != title {
		t.Errorf("lines %q; want the whole title over several lines", lines)
	}
	for _, l := range lines {
		if TextWidth(face, l) > 150 {
			t.Errorf("line %q is %d pixels wide, over 150", l, TextWidth(face, l))
		}
	}
	if cut := WrapWords(face, title, 150, 2); len(cut) != 2 || !strings.HasSuffix(cut[1], "…") {
		t.Errorf("two lines: %q; want two, the last ending in an ellipsis", cut)
	}
	if one := WrapWords(face, "a dog", 150, 4); len(one) != 1 || one[0] != "a dog" {
		t.Errorf("short title: %q", one)
	}
}
