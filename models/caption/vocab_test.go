package caption_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/caption"
)

func fields(captions ...string) [][]string {
	out := make([][]string, len(captions))
	for i, c := range captions {
		out[i] = strings.Fields(c)
	}
	return out
}

// TestBuildVocab checks the minimum count and the order: special tokens,
// then words by falling count, ties in byte order.
func TestBuildVocab(t *testing.T) {
	caps := fields("a dog runs", "a dog sits", "a cat sits", "the dog", "a bird")
	for _, tc := range []struct {
		min  int
		want []string
	}{
		{1, []string{"<pad>", "<start>", "<end>", "<unk>", "a", "dog", "sits", "bird", "cat", "runs", "the"}},
		{2, []string{"<pad>", "<start>", "<end>", "<unk>", "a", "dog", "sits"}},
		{3, []string{"<pad>", "<start>", "<end>", "<unk>", "a", "dog"}},
	} {
		v, err := caption.BuildVocab(caps, tc.min)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(v.List(), tc.want) {
			t.Errorf("min count %d: %q, want %q", tc.min, v.List(), tc.want)
		}
	}
	v, err := caption.BuildVocab(slices.Repeat(caps, 5), 0) // 0: DefaultMinCount
	if err != nil {
		t.Fatal(err)
	}
	if v.Size() != 11 {
		t.Errorf("default minimum count keeps %d tokens of %q, want 11", v.Size(), v.List())
	}
}

// TestVocabEncodeDecode checks the mapping both ways.
func TestVocabEncodeDecode(t *testing.T) {
	v := toyVocab(t)
	ids := v.Encode(strings.Fields("a zebra runs on grass"))
	want := []int{4, caption.Unk, 7, 9, 10}
	if !slices.Equal(ids, want) {
		t.Fatalf("Encode: %v, want %v", ids, want)
	}
	for _, tc := range []struct {
		ids  []int
		want string
	}{
		{ids, "a <unk> runs on grass"},
		{[]int{caption.Start, 4, 5, caption.End, 6}, "a dog"},
		{[]int{caption.Pad, 4, caption.Pad}, "a"},
		{[]int{4, 99, -1}, "a <?> <?>"},
		{nil, ""},
	} {
		if got := v.Decode(tc.ids); got != tc.want {
			t.Errorf("Decode(%v) = %q, want %q", tc.ids, got, tc.want)
		}
	}
	if v.ID("<end>") != caption.Unk || v.ID("dog") != 5 {
		t.Errorf("ID: <end> → %d, dog → %d; special tokens are not words", v.ID("<end>"), v.ID("dog"))
	}
}

// TestVocabErrors checks that bad words and lists are ErrVocab errors
// naming the problem.
func TestVocabErrors(t *testing.T) {
	specials := []string{"<pad>", "<start>", "<end>", "<unk>"}
	for _, tc := range []struct {
		name string
		list []string
		want string
	}{
		{"empty", nil, "must start with"},
		{"specials only", specials, "at least one word"},
		{"specials out of order", []string{"<start>", "<pad>", "<end>", "<unk>", "a"}, "must start with"},
		{"duplicate", append(slices.Clone(specials), "a", "b", "a"), `"a" is token 4 and token 6`},
		{"special as word", append(slices.Clone(specials), "a", "<end>"), "token 5: word \"<end>\" spells a special token"},
		{"space", append(slices.Clone(specials), "a b"), "contains white space"},
		{"empty word", append(slices.Clone(specials), ""), "empty word"},
		{"invalid UTF-8", append(slices.Clone(specials), "\xff"), "not valid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := caption.NewVocab(tc.list)
			if !errors.Is(err, caption.ErrVocab) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrVocab with %q", err, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name string
		caps [][]string
		min  int
		want string
	}{
		{"no frequent word", fields("a dog", "a cat"), 3, "no word occurs 3 times in 2 captions"},
		{"negative count", fields("a"), -2, "minimum count -2"},
		{"untokenized", [][]string{{"a", "big dog"}}, 1, "caption 0 word 1: word \"big dog\" contains white space"},
		{"special token", [][]string{{"<unk>"}}, 1, "spells a special token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := caption.BuildVocab(tc.caps, tc.min)
			if !errors.Is(err, caption.ErrVocab) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrVocab with %q", err, tc.want)
			}
		})
	}
}
