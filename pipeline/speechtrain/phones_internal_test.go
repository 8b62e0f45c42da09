package speechtrain

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline/speechdata"
)

// TestSetPhones checks the phone targets of training utterances: the ids
// of the first pronunciations, none (and counted) for a transcript with
// a word not in the dictionary, and an error for a phone the head lacks.
func TestSetPhones(t *testing.T) {
	dict, err := speechdata.ParsePronunciations("dict", strings.NewReader("open OW1 P AH0 N\nthe DH AH0\nthe(2) DH IY0\ndoor D AO1 R\n"))
	if err != nil {
		t.Fatal(err)
	}
	utts := []*utterance{{Norm: "open the door"}, {Norm: "open the window"}, {Norm: "open the door"}, {Norm: "the window"}, {Norm: "door dor"}}
	cov, err := setPhones(utts, dict, "dict")
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for _, ph := range strings.Fields("OW P AH N DH AH D AO R") {
		id, _ := asr.PhoneID(ph)
		want = append(want, id)
	}
	if !slices.Equal(utts[0].Example.Phones, want) || !slices.Equal(utts[2].Example.Phones, want) || utts[1].Example.Phones != nil {
		t.Errorf("phones %v, %v, %v; want %v, none, the first again", utts[0].Example.Phones, utts[1].Example.Phones, utts[2].Example.Phones, want)
	}
	if cov.with != 2 || cov.without != 3 || !slices.Equal(cov.missing, []string{"window", "dor"}) {
		t.Errorf("coverage %+v, want 2 with, 3 without, missing window and dor", cov)
	}

	odd, err := speechdata.ParsePronunciations("odd", strings.NewReader("door D AX R\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := setPhones([]*utterance{{Norm: "door"}}, odd, "odd"); err == nil || !strings.Contains(err.Error(), `odd: phone "AX" (in "door")`) {
		t.Errorf("phone outside the inventory: error %v", err)
	}
	if _, _, err := readPronunciations("no-such.dict"); !errors.Is(err, ErrNoPronunciations) {
		t.Errorf("missing dictionary: error %v, want ErrNoPronunciations", err)
	}
}
