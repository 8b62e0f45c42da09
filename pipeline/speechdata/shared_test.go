package speechdata

import (
	"os"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

// TestReadSpeechocean762 reads the real speechocean762 manifest: 2,500
// utterances of 125 speakers whose audio exists, with transcripts that
// normalize to non-empty text.
func TestReadSpeechocean762(t *testing.T) {
	utts, err := Read(shareddata.Path(t, "speechocean762/train.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(utts) != 2500 {
		t.Errorf("%d utterances, want 2500", len(utts))
	}
	if n := len(speakersOf(utts)); n != 125 {
		t.Errorf("%d speakers, want 125", n)
	}
	for _, u := range utts {
		if _, err := os.Stat(u.Path); err != nil {
			t.Fatalf("utterance %s: %v", u.ID, err)
		}
		if Normalize(u.Text) == "" {
			t.Errorf("utterance %s: text %q normalizes to nothing", u.ID, u.Text)
		}
	}
	train, dev, err := SplitBySpeaker(utts, 12, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(speakersOf(dev)); got != 12 || len(train)+len(dev) != len(utts) {
		t.Errorf("split: %d train + %d dev utterances, %d dev speakers", len(train), len(dev), got)
	}
}
