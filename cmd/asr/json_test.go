package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/attend-go/attend/cmd/internal/cli/clitest"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// TestJSON runs each command that prints a result with -json on the tiny
// fixtures: stdout must be JSON Lines with the documented fields and the
// values the command computed, and stderr, where the logs go, no JSON.
func TestJSON(t *testing.T) {
	testdata := filepath.Join("..", "..", "testdata")
	hello := filepath.Join(testdata, "hello.wav")
	tmp := t.TempDir()
	exported := filepath.Join(tmp, "model.safetensors")
	tests := []struct {
		name  string
		needs string // a program the command runs: the case is skipped without it
		noTTS bool   // hide the TTS programs (an empty PATH)
		args  []string
		want  clitest.Want
		check func(t *testing.T, objs []map[string]any)
	}{
		{
			name: "features", args: []string{"features", "-json", "-width", "12", hello, hello},
			want: clitest.Want{Objects: 2, Keys: []string{"path", "duration", "frames", "bins", "loudness"},
				Fields: map[string]any{"path": hello, "duration": 3.4384375, "frames": 342, "bins": 80}},
			check: func(t *testing.T, objs []map[string]any) {
				clitest.Fields(t, objs[0], objs[1])
				if s, _ := objs[1]["loudness"].(string); utf8.RuneCountInString(s) != 12 {
					t.Errorf("loudness %q, want a line of -width 12", s)
				}
			},
		},
		{
			name: "export", args: []string{"export", "-json", "-o", exported, filepath.Join("..", "..", "models", "asr", "default.safetensors")},
			want: clitest.Want{Objects: 1, Keys: []string{"model", "params", "bytes"}, Fields: map[string]any{"model": exported}},
			check: func(t *testing.T, objs []map[string]any) {
				m, err := speechmodel.OpenModel(exported)
				if err != nil {
					t.Fatal(err)
				}
				st, err := os.Stat(exported)
				if err != nil {
					t.Fatal(err)
				}
				clitest.Fields(t, objs[0], map[string]any{"params": m.Params.Count(), "bytes": st.Size()})
			},
		},
		{
			name: "train",
			args: []string{"train", "-json", "-o", filepath.Join(tmp, "asr"), "-tiny", "-batch", "4", "-max-steps", "4", "-dev-speakers", "1",
				filepath.Join(testdata, "speech", "manifest.tsv")},
			want: clitest.Want{Objects: 1,
				Keys: []string{"best_model", "best_cer", "best_wer", "best_epoch", "epochs", "steps", "train_utts", "dev_utts", "train_hours", "stopped"},
				Fields: map[string]any{"best_model": filepath.Join(tmp, "asr", "best.safetensors"), "steps": 4, "stopped": "reached 4 steps",
					"train_utts": 6, "dev_utts": 6}},
			check: func(t *testing.T, objs []map[string]any) {
				o := objs[0]
				if cer, epoch := number(t, o, "best_cer"), number(t, o, "best_epoch"); cer < 0 || epoch < 1 || epoch > number(t, o, "epochs") {
					t.Errorf("best CER %v at epoch %v of %v", cer, epoch, o["epochs"])
				}
				if h := number(t, o, "train_hours"); h <= 0 || h > 0.01 {
					t.Errorf("train_hours %v, want the few seconds of the fixture's training clips", h)
				}
			},
		},
		{
			name: "train-lm", args: []string{"train-lm", "-json", "-o", filepath.Join(tmp, "words.arpa.gz"), "-order", "2", filepath.Join(testdata, "sentences.txt")},
			want: clitest.Want{Objects: 1, Keys: []string{"model", "order", "words", "ngrams", "train_sentences", "dev"},
				Fields: map[string]any{"model": filepath.Join(tmp, "words.arpa.gz"), "order": 2, "train_sentences": 4}},
			check: func(t *testing.T, objs []map[string]any) {
				dev, _ := objs[0]["dev"].(map[string]any)
				if p := number(t, dev, "perplexity"); p <= 1 {
					t.Errorf("held-out perplexity %v, want above 1", p)
				}
			},
		},
		{
			name: "perplexity", args: []string{"perplexity", "-json", "-lm", filepath.Join(testdata, "..", "models", "lm", "ngram", "testdata", "turtle.arpa"), filepath.Join(testdata, "sentences.txt")},
			want: clitest.Want{Objects: 1, Keys: []string{"sentences", "words", "oovs", "oov_rate", "log10_prob", "perplexity", "perplexity_no_end"},
				Fields: map[string]any{"sentences": 5, "words": 42, "oovs": 32}},
			check: func(t *testing.T, objs []map[string]any) {
				if r := number(t, objs[0], "oov_rate"); r != 32.0/42 {
					t.Errorf("oov_rate %v, want 32/42", r)
				}
			},
		},
		{
			name: "train-lm -char", args: []string{"train-lm", "-char", "-json", "-o", filepath.Join(tmp, "lm.safetensors"), "-hidden", "16", "-max-steps", "20", "-batch", "2",
				filepath.Join(testdata, "sentences.txt")},
			want: clitest.Want{Objects: 1, Keys: []string{"model", "bits_per_char"}, Fields: map[string]any{"model": filepath.Join(tmp, "lm.safetensors")}},
			check: func(t *testing.T, objs []map[string]any) {
				// An untrained model of ~30 characters has about log2(30) ≈ 5 bits.
				if bpc := number(t, objs[0], "bits_per_char"); bpc <= 0 || bpc > 8 {
					t.Errorf("bits_per_char %v, want a few bits", bpc)
				}
			},
		},
		{
			name: "synth -list without engines", noTTS: true, args: []string{"synth", "-list", "-json"},
			want: clitest.Want{Objects: 3, Keys: []string{"engine", "installed", "voices", "error"},
				Fields: map[string]any{"engine": "festival", "installed": false, "voices": []string{}}},
			check: func(t *testing.T, objs []map[string]any) {
				for i, e := range []string{"espeak-ng", "flite", "festival"} {
					clitest.Fields(t, objs[i], map[string]any{"engine": e, "installed": false})
				}
			},
		},
		{
			name: "synth", needs: "espeak-ng",
			args: []string{"synth", "-json", "-o", filepath.Join(tmp, "synth"), "-engines", "espeak-ng", "-limit", "1", "-j", "1", filepath.Join(testdata, "sentences.txt")},
			want: clitest.Want{Objects: 1,
				Keys: []string{"manifest", "clips", "rendered", "reused", "failures", "audio_seconds", "per_voice", "elapsed_seconds"},
				Fields: map[string]any{"manifest": filepath.Join(tmp, "synth", "manifest.tsv"), "clips": 1, "rendered": 1, "reused": 0,
					"failures": []string{}}},
			check: func(t *testing.T, objs []map[string]any) {
				voices, _ := objs[0]["per_voice"].(map[string]any)
				for v, n := range voices {
					if len(voices) != 1 || !strings.HasPrefix(v, "espeak-ng/") || n != 1.0 {
						t.Errorf("per_voice %v, want one espeak-ng voice with one clip", voices)
					}
				}
				if s := number(t, objs[0], "audio_seconds"); s <= 0.5 || s > 30 {
					t.Errorf("audio_seconds %v, want the length of one sentence", s)
				}
			},
		},
		{
			name: "timing", needs: "espeak-ng", args: []string{"timing", "-json", "-clips", "1", "-words", "3", "-mode", "forced"},
			want: clitest.Want{Objects: 1, Keys: []string{"mode", "tolerance", "clips", "ref_words", "forced"}, // free: not measured
				Fields: map[string]any{"mode": "forced", "tolerance": 0.1, "clips": 1, "ref_words": 3}},
			check: func(t *testing.T, objs []map[string]any) {
				forced, _ := objs[0]["forced"].(map[string]any)
				clitest.Keys(t, forced, "words", "within", "mean_abs_error", "median_abs_error")
				clitest.Fields(t, forced, map[string]any{"words": 3})
				if w, e := number(t, forced, "within"), number(t, forced, "mean_abs_error"); w < 0 || w > 3 || e < 0 || e > 1 {
					t.Errorf("forced %v: want within ≤ 3 words, an error in seconds", forced)
				}
			},
		},
		{
			// asr eval printed JSON before -json was everywhere: one
			// object per utterance, then the summary.
			name: "eval", args: []string{"eval", "-beam", "1", "-json", filepath.Join(testdata, "speech", "manifest.tsv")},
			want: clitest.Want{Objects: 13, Keys: []string{"utterances", "wer", "cer", "word_errors", "char_errors", "rtf", "fallbacks", "audio_seconds"},
				Fields: map[string]any{"utterances": 12}},
			check: func(t *testing.T, objs []map[string]any) {
				clitest.Fields(t, objs[0], map[string]any{"path": filepath.Join(testdata, "speech", "u01.flac")})
				if wer := number(t, objs[12], "wer"); wer <= 0 {
					t.Errorf("wer %v, want the default model's errors on the fixture", wer)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := exec.LookPath(tc.needs); tc.needs != "" && err != nil {
				t.Skipf("skipping: %s is not installed (Debian package %s)", tc.needs, tc.needs)
			}
			if tc.noTTS {
				t.Setenv("PATH", t.TempDir())
			}
			code, stdout, stderr := asrRun(t, "", tc.args...)
			objs := clitest.Check(t, code, stdout, stderr, tc.want)
			tc.check(t, objs)
		})
	}
}

func TestJSONRefusesTSV(t *testing.T) {
	code, stdout, stderr := asrRun(t, "", "features", "-json", "-tsv", filepath.Join("..", "..", "testdata", "hello.wav"))
	if code != 2 || stdout != "" || !strings.Contains(stderr, "-tsv and -json exclude each other") {
		t.Errorf("exit %d, stdout %q, stderr %q; want a usage error", code, stdout, stderr)
	}
}

// number returns the number in field k of obj, failing the test when
// there is none.
func number(t *testing.T, obj map[string]any, k string) float64 {
	t.Helper()
	v, ok := obj[k].(float64)
	if !ok {
		t.Fatalf("field %q is %v, want a number", k, obj[k])
	}
	return v
}
