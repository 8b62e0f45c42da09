package speechdata

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedFile returns the path of a file under the shared data directory,
// which lies beside the module root (the directory holding go.mod), or
// skips the test when it is absent.
func sharedFile(t *testing.T, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the working directory")
		}
		dir = parent
	}
	p := filepath.Join(dir, "..", "shared", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data absent (%v): the test reads ../shared/%s beside the module root", err, rel)
	}
	return p
}

// TestReadSpeechocean762 reads the real speechocean762 manifest: 2,500
// utterances of 125 speakers whose audio exists, with transcripts that
// normalize to non-empty text.
func TestReadSpeechocean762(t *testing.T) {
	utts, err := Read(sharedFile(t, "data/speechocean762/train.tsv"))
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
