package server

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// noSpeechTranscript has a spoken chunk, a chunk without speech and a
// chunk whose text came from a CTC fallback.
func noSpeechTranscript() *speech.Transcript {
	oneHot := [][]float32{{1, 0, 0, 0}, {0, 0, 1, 0}}
	return &speech.Transcript{Text: "hello go", Duration: 9, Chunks: []speech.Chunk{
		{Start: 0, End: 3, Text: "hello", NoSpeechScore: 0.0412,
			Words:     []speechmodel.Word{{Word: "hello", Start: 0.5, End: 1.2, Confidence: 0.9}},
			Chars:     []string{"h", "e", "l", "l", "o"},
			Alignment: [][]float32{{.5, .5}, {.2, .8}, {0, 1}, {0, 1}, {0, 1}}},
		{Start: 3, End: 6, NoSpeech: true, NoSpeechScore: 0.97, Words: []speechmodel.Word{}},
		{Start: 6, End: 9, Text: "go", NoSpeechScore: 0.31, Fallback: "attention repeated itself",
			Words:     []speechmodel.Word{{Word: "go", Start: 6.1, End: 6.4, Confidence: 0.6}},
			Chars:     []string{"g", "o"},
			Alignment: oneHot,
			CTC:       [][]float32{{.7, .2, .1, 0}, {0, .3, .6, .1}}},
	}}
}

func TestVerboseNoSpeech(t *testing.T) {
	v := verbose(noSpeechTranscript(), &asrRequest{words: true, segments: true, attention: true}, "test", 0.04)
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", data)
	// The chunk without speech has no segment; the others carry their
	// chunk's no-speech score, not a constant.
	if len(v.Segments) != 2 {
		t.Fatalf("segments %+v, want 2 (none for the chunk without speech)", v.Segments)
	}
	for i, want := range []struct {
		text string
		prob float64
	}{{" hello", 0.0412}, {" go", 0.31}} {
		s := v.Segments[i]
		if s.ID != i || s.Text != want.text || s.NoSpeechProb != want.prob {
			t.Errorf("segment %d: id %d text %q no_speech_prob %v, want %d %q %v", i, s.ID, s.Text, s.NoSpeechProb, i, want.text, want.prob)
		}
	}
	if !strings.Contains(string(data), `"no_speech_prob":0.31`) {
		t.Errorf("no no_speech_prob 0.31 in %s", data)
	}
	cs := v.Attend.Chunks
	if len(cs) != 3 {
		t.Fatalf("%d chunks, want 3", len(cs))
	}
	if cs[0].NoSpeech || cs[0].NoSpeechProb != 0.0412 || cs[0].AlignmentSource != "attention" || cs[0].Fallback != "" {
		t.Errorf("spoken chunk %+v", cs[0])
	}
	if !cs[1].NoSpeech || cs[1].NoSpeechProb != 0.97 || cs[1].Text != "" || cs[1].Words != 0 || cs[1].Alignment != "" || cs[1].AlignmentSource != "" {
		t.Errorf("chunk without speech %+v", cs[1])
	}
	// The fallback's figure shows the CTC posteriors, not the one-hot
	// path, and says so.
	fb := cs[2]
	if fb.NoSpeech || fb.Fallback == "" || fb.AlignmentSource != "ctc_posterior" || fb.EncoderFrames != 4 || fb.FirstWord != 1 {
		t.Errorf("fallback chunk %+v", fb)
	}
	q, err := base64.StdEncoding.DecodeString(fb.Alignment)
	if err != nil {
		t.Fatal(err)
	}
	if fb.AlignmentMax != 0.7 || len(q) != 8 || q[0] != 255 || q[1] == 0 || q[5] == 0 {
		t.Errorf("fallback alignment %v (max %v), want the CTC posteriors", q, fb.AlignmentMax)
	}

	// Without the posteriors, the one-hot path is labelled as such.
	tr := noSpeechTranscript()
	tr.Chunks[2].CTC = nil
	v = verbose(tr, &asrRequest{attention: true}, "test", 0.04)
	if c := v.Attend.Chunks[2]; c.AlignmentSource != "ctc_path" || c.EncoderFrames != 4 {
		t.Errorf("fallback without posteriors: %+v", c)
	}
}
