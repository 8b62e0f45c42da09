package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/speechmodel"
)

// TestTrainPhoneCTCInit fine-tunes a tiny model without a phone head
// with -init and -phone-ctc-weight, as the shipped model will be: the
// result has the head, its log lines report the phone CTC loss, and the
// head's weight survives in the model file.
func TestTrainPhoneCTCInit(t *testing.T) {
	dir := t.TempDir()
	dict := filepath.Join("..", "..", "testdata", "speech", "cmudict-tiny.dict")
	train := func(out string, extra ...string) string {
		t.Helper()
		log, err := trainTiny(dir, out, append([]string{"-max-steps", "1"}, extra...)...)
		if err != nil {
			t.Fatalf("asr train %s: %v\n%s", strings.Join(extra, " "), err, log)
		}
		return log
	}
	train("base")
	base := filepath.Join(dir, "base", "best.safetensors")
	if m, err := speechmodel.LoadModel(base); err != nil || m.PhoneCTC != nil {
		t.Fatalf("base model: %v (phone head %v)", err, m.PhoneCTC != nil)
	}
	log := train("phone", "-init", base, "-phone-ctc-weight", "0.2", "-pronunciations", dict)
	for _, want := range []string{"added a phone CTC head (weight 0.2, listener layer 0)", "6 training utterances have them, 0 have a word it lacks", ", phone CTC ", ", phone PER "} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	m, err := speechmodel.LoadModel(filepath.Join(dir, "phone", "last.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if m.PhoneCTC == nil || m.Config.PhoneCTCWeight != 0.2 {
		t.Errorf("fine-tuned model: phone head %v, weight %v", m.PhoneCTC != nil, m.Config.PhoneCTCWeight)
	}
	half := filepath.Join(dir, "half.safetensors")
	var stdout, stderr bytes.Buffer
	if err := run([]string{"export", "-o", half, filepath.Join(dir, "phone", "last.safetensors")}, nil, &stdout, &stderr); err != nil {
		t.Fatalf("asr export: %v\n%s", err, stderr.String())
	}
	h, err := speechmodel.LoadModel(half)
	if err != nil {
		t.Fatal(err)
	}
	if h.PhoneCTC == nil || h.Config != m.Config {
		t.Errorf("exported model: phone head %v, config %+v, want %+v", h.PhoneCTC != nil, h.Config, m.Config)
	}
}

// TestTrainPhoneCTCErrors checks the phone flags' errors.
func TestTrainPhoneCTCErrors(t *testing.T) {
	manifest := filepath.Join("..", "..", "testdata", "speech", "manifest.tsv")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing dictionary", []string{"-phone-ctc-weight", "0.2", "-pronunciations", "no-such.dict"}, "apt-get install pocketsphinx-en-us, or give -pronunciations FILE"},
		{"weights sum past 1", []string{"-ctc-weight", "0.5", "-phone-ctc-weight", "0.5"}, "leaves the attention decoder no weight"},
		{"layer past the top", []string{"-phone-ctc-weight", "0.2", "-phone-ctc-layer", "2"}, "phone_ctc_layer = 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{"train", "-o", t.TempDir(), "-tiny"}, tc.args...), manifest)
			var stdout, stderr bytes.Buffer
			err := run(args, nil, &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
