package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/speechmodel"
)

// namedModel is a made-up speech model family whose transcript names
// the model and the language it decodes, so a test sees which model a
// request reached.
type namedModel struct {
	name, family, language string
	languages              bool // implements speechmodel.Languages (languageModel)
}

func (m namedModel) Info() speechmodel.ModelInfo {
	return speechmodel.ModelInfo{Family: m.family, EncoderFrameSeconds: 0.02}
}
func (m namedModel) NewDecoder() (speechmodel.Decoder, error) {
	return namedDecoder{m}, nil
}

type namedEncoding float64

func (e namedEncoding) Seconds() float64 { return float64(e) }

type namedDecoder struct{ m namedModel }

func (d namedDecoder) Encode(s []float32) (speechmodel.Encoding, error) {
	return namedEncoding(float64(len(s)) / speechmodel.SampleRate), nil
}

func (d namedDecoder) Decode(e speechmodel.Encoding, _ *speechmodel.DecodeOptions) (*speechmodel.Hypothesis, error) {
	text := d.m.name + " " + d.m.language
	return &speechmodel.Hypothesis{Text: text, Words: []speechmodel.Word{{Word: d.m.name, End: e.Seconds()}}}, nil
}

func (d namedDecoder) Align([]speechmodel.Encoding, []string, *speechmodel.DecodeOptions) ([]*speechmodel.Hypothesis, error) {
	return nil, fmt.Errorf("not aligning")
}

// languageModel is a namedModel that decodes a language chosen per request.
type languageModel struct{ namedModel }

func (m languageModel) WithLanguage(language string) (speechmodel.Model, error) {
	if language == "klingon" {
		return nil, fmt.Errorf("speechmodel: -language %q is not a language Whisper knows", language)
	}
	c := m
	c.language = language
	return c, nil
}

// TestModelField serves three models and checks that the "model" and
// "language" fields of OpenAI's endpoint pick and configure them.
func TestModelField(t *testing.T) {
	s, err := NewASR(ASRConfig{
		Model: namedModel{name: "las", family: "las", language: "en"}, ModelID: "attend-default",
		More: []ASRModel{
			{ID: "/models/ggml-base.en.bin", Model: languageModel{namedModel{name: "base", family: "whisper", language: "en"}}},
			{ID: "/models/ggml-small.bin", Model: languageModel{namedModel{name: "small", family: "whisper", language: "auto"}}},
		},
	}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	ts := serve(t, s)
	wav := readTestdata(t, "hello.wav")
	for _, tc := range []struct {
		fields []string
		status int
		text   string
	}{
		{nil, http.StatusOK, "las en"},
		{[]string{"model", "whisper-1"}, http.StatusOK, "base en"},
		{[]string{"model", "attend-default"}, http.StatusOK, "las en"},
		{[]string{"model", "ggml-small"}, http.StatusOK, "small auto"},
		{[]string{"model", "ggml-small.bin", "language", "de"}, http.StatusOK, "small de"},
		{[]string{"model", "/models/ggml-base.en.bin", "language", "en"}, http.StatusOK, "base en"},
		{[]string{"language", "en"}, http.StatusOK, "las en"},
		{[]string{"language", "de"}, http.StatusBadRequest, "transcribes English"},
		{[]string{"model", "ggml-small", "language", "klingon"}, http.StatusBadRequest, "not a language"},
		{[]string{"model", "gpt-4o-transcribe"}, http.StatusBadRequest, "not served here"},
	} {
		t.Run(strings.Join(tc.fields, "="), func(t *testing.T) {
			body, ct := form(t, wav, tc.fields...)
			status, _, data := do(t, "POST", ts.URL+"/v1/audio/transcriptions", ct, body)
			if status != tc.status || !strings.Contains(string(data), tc.text) {
				t.Fatalf("status %d, %s; want %d with %q", status, data, tc.status, tc.text)
			}
		})
	}
	status, _, data := do(t, "GET", ts.URL+"/v1/models", "", nil)
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &list); err != nil || status != http.StatusOK || len(list.Data) != 3 || filepath.Base(list.Data[2].ID) != "ggml-small.bin" {
		t.Fatalf("/v1/models: %d %s (%v)", status, data, err)
	}
}
