package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

// whisperBundle returns the shared Whisper reference bundle's directory,
// skipping without it.
func whisperBundle(t *testing.T) string {
	t.Helper()
	dir, err := shareddata.Lookup("whisper")
	if err != nil {
		t.Skip(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "small-en.reference.json")); err != nil {
		t.Skip(err)
	}
	return dir
}

// TestWhisperTranscribe runs "asr transcribe -model FILE" on the bundle's
// Whisper files (ggml f16 and Hugging Face safetensors, English-only and
// large-v3 layouts) and checks that the text is openai/whisper's
// transcribe(temperature=0) text, and in every output format for one of
// them, and that -timings reports the stages.
func TestWhisperTranscribe(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Whisper models over two clips")
	}
	dir := whisperBundle(t)
	for _, tc := range []struct{ model, file string }{
		{"small-en", "small-en.ggml-f16.bin"},
		{"small-en", "small-en.hf.safetensors"},
		{"small-v3", "small-v3.ggml-f16.bin"},
	} {
		var ref struct {
			Clips map[string]map[string]json.RawMessage `json:"clips"`
		}
		var f16 struct {
			Transcribe struct {
				Text string `json:"text"`
			} `json:"transcribe"`
		}
		data, err := os.ReadFile(filepath.Join(dir, tc.model+".reference.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &ref); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(ref.Clips["jfk"]["f16"], &f16); err != nil {
			t.Fatal(err)
		}
		want := strings.Join(strings.Fields(f16.Transcribe.Text), " ")
		clip := filepath.Join(dir, "clips", "jfk.wav")
		model := filepath.Join(dir, tc.file)
		t.Run(tc.file, func(t *testing.T) {
			formats := []string{"json"}
			if tc.file == "small-en.ggml-f16.bin" {
				formats = []string{"txt", "json", "srt", "vtt"}
			}
			for _, format := range formats {
				var stdout, stderr bytes.Buffer
				args := []string{"transcribe", "-no-fallback", "-language", "en", "-format", format, "-model", model, clip}
				if format == "txt" {
					args = append(args, "-timings")
				}
				if err := run(args, nil, &stdout, &stderr); err != nil {
					t.Fatalf("%v: %v\n%s", args, err, stderr.String())
				}
				out := stdout.String()
				switch format {
				case "txt":
					if got := strings.TrimSpace(out); got != want {
						t.Errorf("txt: %q\nopenai/whisper: %q", got, want)
					}
					var stages map[string]float64
					if err := json.Unmarshal([]byte(strings.TrimSpace(stderr.String())), &stages); err != nil || stages["encode_windows"] < 1 || stages["decode_tokens"] == 0 {
						t.Errorf("-timings printed %q (%v)", stderr.String(), err)
					}
				case "json":
					var tr struct {
						Text   string `json:"text"`
						Chunks []struct {
							Words []struct {
								Word  string  `json:"word"`
								Start float64 `json:"start"`
								End   float64 `json:"end"`
							} `json:"words"`
						} `json:"chunks"`
					}
					if err := json.Unmarshal([]byte(out), &tr); err != nil {
						t.Fatalf("json: %v\n%s", err, out)
					}
					if tr.Text != want || len(tr.Chunks) != 1 || len(tr.Chunks[0].Words) == 0 {
						t.Errorf("json: text %q with %d chunks", tr.Text, len(tr.Chunks))
					}
				default:
					if first := strings.Fields(want)[0]; !strings.Contains(out, first) || !strings.Contains(out, "-->") {
						t.Errorf("%s output lacks cues or the first word %q:\n%s", format, first, out)
					}
				}
			}
		})
	}
}

// TestWhisperModelErrors checks what -model says of files that are not
// models it reads, and of options a model cannot take.
func TestWhisperModelErrors(t *testing.T) {
	dir := whisperBundle(t)
	hello := filepath.Join("..", "..", "testdata", "hello.wav")
	tmp := t.TempDir()
	pt := filepath.Join(tmp, "tiny.pt")
	if err := os.WriteFile(pt, []byte("PK\x03\x04 a PyTorch zip archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	gguf := filepath.Join(tmp, "model.gguf")
	if err := os.WriteFile(gguf, []byte("GGUF\x03\x00\x00\x00 rest of a gguf file"), 0o644); err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(tmp, "cut.bin")
	whole, err := os.ReadFile(filepath.Join(dir, "small-en.ggml-q5_0.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(truncated, whole[:len(whole)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"pytorch checkpoint", []string{"-model", pt}, "convert-pt-to-ggml.py"},
		{"gguf", []string{"-model", gguf}, "GGUF is not supported"},
		{"truncated ggml", []string{"-model", truncated}, "ggml: offset"},
		{"header-only test file", []string{"-model", filepath.Join(dir, "for-tests-ggml-tiny.en.bin")}, "no weights"},
		{"language of an English-only model", []string{"-model", filepath.Join(dir, "small-en.ggml-q8_0.bin"), "-language", "de"}, "English-only"},
		{"unknown language", []string{"-model", filepath.Join(dir, "small-v3.ggml-q8_0.bin"), "-language", "klingon"}, `"klingon" is not a language`},
		{"translate with an English-only model", []string{"-model", filepath.Join(dir, "small-en.ggml-q8_0.bin"), "-task", "translate"}, "multilingual"},
		{"unknown task", []string{"-model", filepath.Join(dir, "small-v3.ggml-q8_0.bin"), "-task", "summarize"}, `-task "summarize"`},
		{"audio context beyond the window", []string{"-model", filepath.Join(dir, "small-en.ggml-q8_0.bin"), "-audio-ctx", "1501"}, "-audio-ctx 1501: want 0 (the full 30-second window) up to this model's 1500"},
		{"negative audio context", []string{"-model", filepath.Join(dir, "small-en.ggml-q8_0.bin"), "-audio-ctx", "-2"}, "-audio-ctx -2"},
		{"negative sample length", []string{"-model", filepath.Join(dir, "small-en.ggml-q8_0.bin"), "-sample-len", "-1"}, "-sample-len -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(append(append([]string{"transcribe"}, tc.args...), hello), nil, &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error()+stderr.String(), tc.want) {
				t.Fatalf("error %v (stderr %q), want one saying %q", err, stderr.String(), tc.want)
			}
		})
	}
}
