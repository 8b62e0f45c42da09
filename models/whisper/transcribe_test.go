package whisper

import (
	"math"
	"slices"
	"testing"
)

// planNet decodes each window (keyed by its first mel frame) by a plan of
// tokens given logit 30 (0 elsewhere); noSpeech windows put 30 on
// <|nospeech|> after <|startoftranscript|> and only 1 on their plan.
func planNet(plans map[int][]int, noSpeech map[int]bool) *fakeNet {
	return newFakeNet(func(window float32, tokens []int) []float32 {
		w := int(window)
		sot := slices.Index(tokens, fSOT)
		if sot == len(tokens)-1 && noSpeech[w] {
			return peaked(30, fNoSpeech)
		}
		sampled := len(tokens) - sot - 1
		next := fEOT
		if plan := plans[w]; sampled < len(plan) {
			next = plan[sampled]
		}
		if noSpeech[w] {
			return peaked(1, next)
		}
		return peaked(30, next)
	})
}

// rampMel returns a 2-bin mel whose every value is its frame index, so a
// window's first value is its seek.
func rampMel(content int) ([]float32, int) {
	frames := content + melWindowFrames
	mel := make([]float32, 2*frames)
	for b := 0; b < 2; b++ {
		for f := 0; f < frames; f++ {
			mel[b*frames+f] = float32(f)
		}
	}
	return mel, frames
}

func ts(i int) int { return fTB + i }

func TestTranscribeSeeksAndCutsSegments(t *testing.T) {
	net := planNet(map[int][]int{
		// Two complete segments, then an unfinished one: seek to 10.00.
		0: {ts(0), 2, 3, ts(250), ts(250), 4, ts(500), ts(500), 5},
		// A single timestamp at the end: one segment to it, seek on.
		1000: {ts(0), 6, ts(100)},
	}, nil)
	mel, frames := rampMel(4000)
	opts := DefaultTranscribeOptions()
	res, err := Transcribe(net, fakeTokenizer{}, mel, frames, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Segment{
		{ID: 0, Seek: 0, Start: 0, End: 5, Text: " w2 w3", Tokens: []int{ts(0), 2, 3, ts(250)}},
		{ID: 1, Seek: 0, Start: 5, End: 10, Text: " w4", Tokens: []int{ts(250), 4, ts(500)}},
		{ID: 2, Seek: 1000, Start: 10, End: 12, Text: " w6", Tokens: []int{ts(0), 6, ts(100)}},
	}
	if len(res.Segments) != len(want) {
		t.Fatalf("%d segments, want %d: %+v", len(res.Segments), len(want), res.Segments)
	}
	for i, w := range want {
		g := res.Segments[i]
		if g.ID != w.ID || g.Seek != w.Seek || g.Start != w.Start || g.End != w.End || g.Text != w.Text || !slices.Equal(g.Tokens, w.Tokens) {
			t.Errorf("segment %d = %+v, want %+v", i, g, w)
		}
		if g.Temperature != 0 || g.AvgLogprob > 0 || g.AvgLogprob < -1e-6 {
			t.Errorf("segment %d: temperature %v avg_logprob %v", i, g.Temperature, g.AvgLogprob)
		}
	}
	// Two windows. decode() ran [SOT] and a step per token but the last
	// (EOT): 1 + 9; then the 9 initial tokens (prompt included) and 3.
	if st := res.Stats; st.EncodeWindows != 2 || st.DecodedTokens != 22 || st.Encode <= 0 || st.Decode <= 0 {
		t.Errorf("stats %+v, want 2 windows and 22 decoded tokens", st)
	}
	if res.Text != " w2 w3 w4 w6" || res.Language != "en" {
		t.Errorf("text %q language %q", res.Text, res.Language)
	}
	// The second window is conditioned on the first's segments.
	wantPrompt := []int{fSOTPrev, ts(0), 2, 3, ts(250), ts(250), 4, ts(500), fSOT}
	if p := net.prompts[len(net.prompts)-1]; !slices.Equal(p, wantPrompt) {
		t.Errorf("second window's initial tokens %v, want %v", p, wantPrompt)
	}
}

func TestTranscribeFallsBackAndResetsPrompt(t *testing.T) {
	repetitive := []int{ts(0)}
	for range 150 {
		repetitive = append(repetitive, 2)
	}
	net := planNet(map[int][]int{0: repetitive, 3000: {ts(0), 6, ts(100)}}, nil)
	mel, frames := rampMel(6000)
	opts := DefaultTranscribeOptions()
	opts.InitialPrompt = "w7"
	res, err := Transcribe(net, fakeTokenizer{}, mel, frames, opts, newRand(1))
	if err != nil {
		t.Fatal(err)
	}
	// Six temperatures tried on window 0, one on window 3000.
	if len(net.prompts) != 7 {
		t.Errorf("%d decodings, want 7", len(net.prompts))
	}
	if want := []int{fSOTPrev, 7, fSOT}; !slices.Equal(net.prompts[0], want) {
		t.Errorf("first window's initial tokens %v, want %v (the initial prompt)", net.prompts[0], want)
	}
	if len(res.Segments) != 2 {
		t.Fatalf("%d segments: %+v", len(res.Segments), res.Segments)
	}
	s := res.Segments[0]
	if s.Temperature != 1 || s.CompressionRatio <= 2.4 || s.Start != 0 || s.End != 30 {
		t.Errorf("repetitive window: temperature %v ratio %v span %v–%v", s.Temperature, s.CompressionRatio, s.Start, s.End)
	}
	// Decoded at 1.0 > 0.5: the next window gets no prompt.
	if p := net.prompts[6]; !slices.Equal(p, []int{fSOT}) {
		t.Errorf("window after a hot fallback: initial tokens %v, want [SOT]", p)
	}
	if res.Text[:4] != " w2 " {
		t.Errorf("text %q does not leave out the initial prompt", res.Text[:10])
	}
}

func TestTranscribeSkipsSilence(t *testing.T) {
	net := planNet(map[int][]int{0: {ts(0), 2, ts(50)}, 3000: {ts(0), 6, ts(100)}}, map[int]bool{0: true})
	mel, frames := rampMel(5000)
	res, err := Transcribe(net, fakeTokenizer{}, mel, frames, DefaultTranscribeOptions(), newRand(1))
	if err != nil {
		t.Fatal(err)
	}
	// Window 0: no_speech_prob ≈ 1 > 0.6 and avg_logprob ≈ −6 < −1: silence,
	// not retried, skipped.
	if len(net.prompts) != 2 {
		t.Errorf("%d decodings, want 2 (silence is not retried)", len(net.prompts))
	}
	if len(res.Segments) != 1 || res.Segments[0].Seek != 3000 || res.Segments[0].Start != 30 || res.Segments[0].End != 32 {
		t.Errorf("segments %+v, want one at seek 3000, 30–32 s", res.Segments)
	}
	// A NaN threshold disables the check, as None does.
	net.prompts = nil
	opts := DefaultTranscribeOptions()
	opts.NoSpeechThreshold = math.NaN()
	opts.Temperatures = []float64{0}
	res, err = Transcribe(net, fakeTokenizer{}, mel, frames, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Segments) == 0 || res.Segments[0].Seek != 0 {
		t.Errorf("without a no-speech threshold the first window was skipped: %+v", res.Segments)
	}
}

func TestTranscribeRejectsBadMel(t *testing.T) {
	net := planNet(nil, nil)
	if _, err := Transcribe(net, fakeTokenizer{}, make([]float32, 10), 5, DefaultTranscribeOptions(), nil); err == nil {
		t.Error("a mel shorter than the padding: no error")
	}
	mel, frames := rampMel(100)
	if _, err := Transcribe(net, fakeTokenizer{}, mel[1:], frames, DefaultTranscribeOptions(), nil); err == nil {
		t.Error("a mel of the wrong size: no error")
	}
}

func TestTranscribeDetectsLanguage(t *testing.T) {
	net := planNet(map[int][]int{0: {ts(0), 2, ts(50)}}, nil)
	script := net.script
	net.script = func(w float32, tokens []int) []float32 {
		if slices.Equal(tokens, []int{fSOT}) {
			x := peaked(0)
			x[fEn], x[fDe] = 1, 3
			return x
		}
		return script(w, tokens)
	}
	net.dims.NVocab = 51865 // a multilingual model
	mel, frames := rampMel(1000)
	opts := DefaultTranscribeOptions()
	opts.Decoding.Task = "translate"
	res, err := Transcribe(net, fakeTokenizer{multilingual: true}, mel, frames, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Language != "de" {
		t.Errorf("language %q, want de", res.Language)
	}
	// Detection once on the first 30 s, then windows decoded in German.
	if len(net.prompts) != 2 || !slices.Equal(net.prompts[0], []int{fSOT}) || !slices.Equal(net.prompts[1], []int{fSOT, fDe, fTranslate}) {
		t.Errorf("decoder inputs %v, want [[SOT] [SOT de translate]]", net.prompts)
	}
	if len(res.Segments) != 1 || res.Segments[0].End != 1 {
		t.Errorf("segments %+v", res.Segments)
	}
}
