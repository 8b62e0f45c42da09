package asr_test

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
	"github.com/attend-go/attend/models/modeltest"
)

// phoneConfig is tinyConfig with a phone CTC head of weight lp on layer.
func phoneConfig(ctc, lp float64, layer int) asr.Config {
	c := tinyConfig(ctc)
	c.PhoneCTCWeight, c.PhoneCTCLayer = lp, layer
	return c
}

// phoneExamples are the toy utterances, each with a few random phones;
// the one at index 2 has none (as if a word were not in the dictionary).
func phoneExamples(m *asr.Model) []asr.Example {
	rng := rand.New(rand.NewPCG(4, 4))
	var exs []asr.Example
	for i, s := range toyTexts[:4] {
		e := toyUtterance(rng, m.Vocab, s, m.Config.MelBins)
		if i != 2 {
			for range 2 + rng.IntN(3) {
				e.Phones = append(e.Phones, 1+rng.IntN(len(asr.Phones)))
			}
		}
		exs = append(exs, e)
	}
	return exs
}

// boundGraph returns the training graph of m (no dropout) with exs
// bound to its inputs.
func boundGraph(t *testing.T, m *asr.Model, exs []asr.Example) *models.Graph[asr.Inputs] {
	t.Helper()
	key := m.KeyFor(exs, 4, 4)
	bt, err := m.MakeBatch(key, exs)
	if err != nil {
		t.Fatal(err)
	}
	bs := models.NewBuckets(m.Params, m.BuildFunc(nil))
	t.Cleanup(bs.Close)
	gr, err := bs.Get(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := gr.Inputs.Bind(bt); err != nil {
		t.Fatal(err)
	}
	return gr
}

// runGraph runs the training graph of m once over exs and returns its
// loss and phone CTC term.
func runGraph(t *testing.T, m *asr.Model, exs []asr.Example) (loss, phone float64) {
	t.Helper()
	gr := boundGraph(t, m, exs)
	loss, err := gr.Run()
	if err != nil {
		t.Fatal(err)
	}
	return loss, gr.Inputs.PhoneCTCLoss()
}

// TestPhoneConfigValidate checks the phone head's config fields.
func TestPhoneConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ctc, lp float64
		layer   int
		want    string // "" for valid
	}{
		{"no head", 0.3, 0, 0, ""},
		{"first layer", 0.3, 0.2, 0, ""},
		{"top layer", 0, 0.5, 1, ""},
		{"negative", 0.3, -0.1, 0, "phone_ctc_weight = -0.1"},
		{"one", 0, 1, 0, "phone_ctc_weight = 1"},
		{"NaN", 0, math.NaN(), 0, "phone_ctc_weight = NaN"},
		{"sum one", 0.6, 0.4, 0, "leaves the attention decoder no weight"},
		{"negative layer", 0.3, 0.2, -1, "phone_ctc_layer = -1"},
		{"layer past the top", 0.3, 0.2, 2, "phone_ctc_layer = 2, want a listener layer in [0, 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := phoneConfig(tc.ctc, tc.lp, tc.layer).Defaults().Validate()
			if tc.want == "" && err != nil || tc.want != "" && (!errors.Is(err, asr.ErrConfig) || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("Validate = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestPhoneHeadLeavesTheRestAlone checks that a model without the head
// writes no phone field in its config, and that the head changes neither
// the other parameters New draws nor anything decoding computes: a model
// with it transcribes exactly as the same model without it.
func TestPhoneHeadLeavesTheRestAlone(t *testing.T) {
	without, err := asr.New(tinyConfig(0.3), nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	with, err := asr.New(phoneConfig(0.3, 0.2, 0), nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	f, err := without.File()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(f.Config), "phone") {
		t.Errorf("config of a model without the head names it: %s", f.Config)
	}
	names := with.Params.Names()
	if got, want := names[:len(names)-2], without.Params.Names(); !slices.Equal(got, want) || names[len(names)-2] != "phone_ctc.w" || names[len(names)-1] != "phone_ctc.b" {
		t.Fatalf("parameters %v, want %v then phone_ctc.w, phone_ctc.b", names, want)
	}
	for _, p := range without.Params.All() {
		q, _ := with.Params.Get(p.Name)
		if !slices.Equal(p.F32(), q.F32()) {
			t.Fatalf("%s differs between the models", p.Name)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ex := toyUtterance(rng, without.Vocab, "dog ate", without.Config.MelBins)
	var ws1, ws2 asr.Workspace
	opts := &decode.Options{Beam: 4, LengthPenalty: 1, EOSThreshold: 1.5, CTCWeight: 0.3}
	var texts [2]string
	for i, m := range []*asr.Model{without, with} {
		ws := []*asr.Workspace{&ws1, &ws2}[i]
		e, err := m.Encode(ws, ex.Features, ex.Frames)
		if err != nil {
			t.Fatal(err)
		}
		r, err := decode.Decode(m, ws, e, opts)
		if err != nil {
			t.Fatal(err)
		}
		texts[i] = r.Text
	}
	e1, _ := without.Encode(&ws1, ex.Features, ex.Frames)
	e2, _ := with.Encode(&ws2, ex.Features, ex.Frames)
	if !slices.Equal(e1.Memory, e2.Memory) || !slices.Equal(e1.CTCLogProbs, e2.CTCLogProbs) || texts[0] != texts[1] {
		t.Errorf("the head changed decoding: %q vs %q", texts[0], texts[1])
	}
}

// TestPhoneFileRoundTrip checks that a model without the head (as files
// made before the head were) reloads without one and writes no phone keys
// into its config, nor listener_flat (files made before flat listener
// layers keep their config too); TestFileRoundTrip reloads one with the
// head and one with a flat layer.
func TestPhoneFileRoundTrip(t *testing.T) {
	plain, err := asr.New(tinyConfig(0.3), nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := plain.File()
	if err != nil {
		t.Fatal(err)
	}
	plainBack, err := asr.Load(pf)
	if err != nil {
		t.Fatal(err)
	}
	if plainBack.PhoneCTC != nil {
		t.Error("a model without a phone head came back with one")
	}
	df, err := plainBack.File()
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(df.Config, &c); err != nil {
		t.Fatal(err)
	}
	for k := range c {
		if strings.HasPrefix(k, "phone") || k == "listener_flat" {
			t.Errorf("a model without a phone head or flat listener layers gained %q in its config", k)
		}
	}
}

// TestAddPhoneCTC adds a seeded head to a model without one, as
// fine-tuning with -init does: the other weights stay, the head is
// drawn from the seed, and the result saves and loads.
func TestAddPhoneCTC(t *testing.T) {
	base := func() *asr.Model {
		m, err := asr.New(tinyConfig(0.3), nil, 5)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b, c, orig := base(), base(), base(), base()
	for _, tc := range []struct {
		m    *asr.Model
		seed uint64
	}{{a, 9}, {b, 9}, {c, 10}} {
		if err := tc.m.AddPhoneCTC(0.2, 0, tc.seed); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(a.PhoneCTC.W.F32(), b.PhoneCTC.W.F32()) || slices.Equal(a.PhoneCTC.W.F32(), c.PhoneCTC.W.F32()) {
		t.Error("the head's initialization does not follow the seed")
	}
	for _, p := range orig.Params.All() {
		q, _ := a.Params.Get(p.Name)
		if !slices.Equal(p.F32(), q.F32()) {
			t.Errorf("%s changed", p.Name)
		}
	}
	if got, want := a.Params.Count(), a.Config.Parameters(a.Vocab.Size()); got != want {
		t.Errorf("%d parameters, the config says %d", got, want)
	}
	f, err := a.File()
	if err != nil {
		t.Fatal(err)
	}
	if back, err := asr.Load(f); err != nil || back.PhoneCTC == nil || back.Config.PhoneCTCWeight != 0.2 {
		t.Errorf("reloaded: %v", err)
	}
	if err := base().AddPhoneCTC(0.8, 0, 1); !errors.Is(err, asr.ErrConfig) {
		t.Errorf("weights summing past 1: error %v, want ErrConfig", err)
	}
	if err := a.AddPhoneCTC(0, 0, 1); !errors.Is(err, asr.ErrConfig) {
		t.Errorf("dropping the head: error %v, want ErrConfig", err)
	}
}

// TestPhoneCTCLoss checks the combined loss: with the head, the graph's
// phone term is λp times the per-phone mean of the CTC losses computed
// from PhoneLogProbs (eager and graph agree), an utterance without
// phones adds nothing, and the rest of the loss is the head-less loss
// scaled from (1−λ) to (1−λ−λp).
func TestPhoneCTCLoss(t *testing.T) {
	for _, c := range []struct{ layers, flat, layer, halvings int }{
		{2, 0, 0, 0}, {2, 0, 1, 1},
		{3, 1, 2, 1}, // a head on a flat residual layer
	} {
		const lp = 0.25
		layer := c.layer
		base := tinyConfig(0)
		base.ListenerLayers, base.ListenerFlat = c.layers, c.flat
		without, err := asr.New(base, nil, 3)
		if err != nil {
			t.Fatal(err)
		}
		base.PhoneCTCWeight, base.PhoneCTCLayer = lp, layer
		with, err := asr.New(base, nil, 3)
		if err != nil {
			t.Fatal(err)
		}
		exs := phoneExamples(with)
		lossWithout, phoneWithout := runGraph(t, without, exs)
		lossWith, phone := runGraph(t, with, exs)
		if phoneWithout != 0 {
			t.Errorf("a model without the head reports phone loss %v", phoneWithout)
		}
		var ws asr.Workspace
		sum, phones := 0.0, 0
		for _, e := range exs {
			logp, T, err := with.PhoneLogProbs(&ws, e.Features, e.Frames)
			if err != nil {
				t.Fatal(err)
			}
			n := asr.StackedLength(e.Frames, with.Config.Stack)
			want := n
			for range c.halvings {
				want = models.PyramidLength(want)
			}
			if T != want {
				t.Errorf("layer %d: %d phone frames for %d stacked, want %d", layer, T, n, want)
			}
			if e.Phones != nil {
				sum += modeltest.CTCNLL(logp, T, asr.PhoneSetSize, e.Phones, 0)
				phones += len(e.Phones)
			}
		}
		if want := lp * sum / float64(phones); math.Abs(phone-want) > 1e-4*want {
			t.Errorf("layer %d: graph phone term %.6f, eager %.6f", layer, phone, want)
		}
		if want := (1 - lp) * lossWithout; math.Abs(lossWith-phone-want) > 1e-5*want {
			t.Errorf("layer %d: loss without the phone term %.6f, want (1−λp)·%.6f = %.6f", layer, lossWith-phone, lossWithout, want)
		}
	}
	m, err := asr.New(tinyConfig(0.3), nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.PhoneLogProbs(&asr.Workspace{}, make([]float32, 8), 1); err == nil || !strings.Contains(err.Error(), "no phone CTC head") {
		t.Errorf("PhoneLogProbs without a head: error %v", err)
	}
}

// TestPhoneCTCGradientsFD checks the training graph's gradients, phone
// term included, against central finite differences of its loss, for
// the phone head and the listener layer under it (the head's ops have
// their own checks; this checks how they are wired).
func TestPhoneCTCGradientsFD(t *testing.T) {
	m, err := asr.New(phoneConfig(0.3, 0.4, 0), nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	gr := boundGraph(t, m, phoneExamples(m)[:2])
	names := []string{"phone_ctc.w", "phone_ctc.b", "listener.l0.fwd.wx", "listener.l0.bwd.b"}
	// float32: h = 1e-2 leaves ~2e-5 of rounding.
	modeltest.CheckParamGradients[float32](t, m.Params, gr.Run, names, 1e-2, 5, 5, func(fd, g float64) bool {
		return math.Abs(fd-g) <= 6e-5+0.03*math.Abs(fd)
	})
}
