package whisper

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestEncodeAudioContext checks the encoder over a reduced audio context
// (whisper.cpp's audio_ctx): n positions from 2n mel frames give
// exactly what a model with n_audio_ctx = n (its positional embedding the
// first n rows of this one's) gives for the same frames, n = n_audio_ctx
// is the full window, and every other mel size is refused.
func TestEncodeAudioContext(t *testing.T) {
	d := Dims{NMels: 80, NAudioCtx: 96, NAudioState: 64, NAudioHead: 4, NAudioLayer: 2,
		NVocab: 51864, NTextCtx: 16, NTextState: 64, NTextHead: 4, NTextLayer: 1}
	src := randomTensors(d, 11)
	m, err := newModel(d, src)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 0))
	mel := func(frames int) []float32 {
		x := make([]float32, d.NMels*frames)
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		return x
	}
	for _, n := range []int{1, 7, 32, 95, 96} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			x := mel(2 * n)
			got, err := m.Encode(x)
			if err != nil {
				t.Fatal(err)
			}
			if got.Frames != n || got.Width != d.NAudioState || len(got.Data) != n*d.NAudioState {
				t.Fatalf("features %d × %d (%d values), want %d × %d", got.Frames, got.Width, len(got.Data), n, d.NAudioState)
			}
			again, err := m.Encode(x)
			if err != nil || !slices.Equal(again.Data, got.Data) {
				t.Fatalf("a second encoding differs (%v)", err)
			}
			short := d
			short.NAudioCtx = n
			ssrc := mapSource{}
			for k, v := range src {
				ssrc[k] = v
			}
			pos := src["encoder.positional_embedding"]
			ssrc["encoder.positional_embedding"] = struct {
				v     []float32
				shape []int
			}{pos.v[:n*d.NAudioState], []int{n, d.NAudioState}}
			sm, err := newModel(short, ssrc)
			if err != nil {
				t.Fatal(err)
			}
			want, err := sm.Encode(x)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Data, want.Data) {
				t.Errorf("context %d differs from a model of n_audio_ctx %d (max relative difference %g)", n, n, relMaxDiff(got.Data, want.Data))
			}
		})
	}
	for _, frames := range []int{0, 3, 2*d.NAudioCtx + 2} {
		if _, err := m.Encode(mel(frames)); err == nil || !strings.Contains(err.Error(), "want 80 mel bins × 2n frames") {
			t.Errorf("%d frames: error %v", frames, err)
		}
	}
}

// TestTranscribeAudioContext: with AudioCtx the seek loop moves over
// windows of 2·AudioCtx mel frames, each encoded at that size, and
// segments are placed as in full windows; 0 and n_audio_ctx are the full
// window, and contexts the model has not are refused.
func TestTranscribeAudioContext(t *testing.T) {
	plans := map[int][]int{
		0:   {ts(0), 2, ts(100)}, // one segment to 2.00 s, then the next window
		400: {ts(0), 3, ts(50)},
	}
	mel, frames := rampMel(700)
	for _, tc := range []struct {
		ctx     int
		windows []int // frames of each window encoded
		seeks   []int
	}{
		{200, []int{400, 400}, []int{0, 400}},
		{0, []int{3000}, []int{0}},
		{1500, []int{3000}, []int{0}},
	} {
		t.Run(fmt.Sprint(tc.ctx), func(t *testing.T) {
			net := planNet(plans, nil)
			var windows []int
			net.onEncode = func(mel []float32) { windows = append(windows, len(mel)/net.dims.NMels) }
			opts := DefaultTranscribeOptions()
			opts.AudioCtx = tc.ctx
			res, err := Transcribe(net, fakeTokenizer{}, mel, frames, opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(windows, tc.windows) {
				t.Errorf("windows of %v frames, want %v", windows, tc.windows)
			}
			var seeks []int
			for _, s := range res.Segments {
				seeks = append(seeks, s.Seek)
			}
			if !slices.Equal(seeks, tc.seeks) {
				t.Errorf("segments at seeks %v, want %v: %+v", seeks, tc.seeks, res.Segments)
			}
			if s := res.Segments[len(res.Segments)-1]; tc.ctx == 200 && (s.Start != 4 || s.End != 5 || s.Text != " w3") {
				t.Errorf("second window's segment %+v, want \" w3\" from 4 to 5 s", s)
			}
		})
	}
	for _, ctx := range []int{-1, 1501} {
		opts := DefaultTranscribeOptions()
		opts.AudioCtx = ctx
		if _, err := Transcribe(planNet(plans, nil), fakeTokenizer{}, mel, frames, opts, nil); err == nil || !strings.Contains(err.Error(), "audio context") {
			t.Errorf("AudioCtx %d: error %v", ctx, err)
		}
	}
}
