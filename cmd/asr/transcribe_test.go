package main

import (
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTranscribeUsage checks the command-line mistakes, each caught before
// any audio is decoded, with a message naming the flag.
func TestTranscribeUsage(t *testing.T) {
	hello := filepath.Join("..", "..", "testdata", "hello.wav")
	dir := filepath.Join("..", "..", "testdata", "speech")
	out := filepath.Join(t.TempDir(), "out.jsonl")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"nothing to transcribe", nil, "at least one audio file or directory"},
		{"bad format", []string{"-format", "doc", hello}, `-format "doc"`},
		{"bad beam", []string{"-beam", "0", hello}, "-beam 0"},
		{"negative phone weight", []string{"-phone-weight", "-1", hello}, "-phone-weight -1: want a finite number ≥ 0"},
		{"phone penalty not a number", []string{"-phone-oov-penalty", "NaN", hello}, "-phone-oov-penalty NaN"},
		{"negative phone beam", []string{"-phone-beam", "-2", hello}, "-phone-beam -2: want 0 (none) or a width"},
		{"phone beam without a word LM", []string{"-phone-beam", "8", "-lm", "none", hello}, "-phone-beam 8 searches the word LM's words"},
		{"phone beam without rescoring", []string{"-phone-beam", "8", "-ctc-beam", "0", hello}, "which -ctc-beam 0 turns off"},
		{"batch flag for files", []string{"-j", "2", hello}, "-j applies to batches"},
		{"threads for a batch", []string{"-t", "2", dir}, "-t decodes the chunks of single files"},
		{"negative threads", []string{"-t", "-1", hello}, "-t -1"},
		{"subtitles of several files", []string{"-format", "srt", hello, hello}, "add --out-dir DIR"},
		{"negative workers", []string{"-j", "-1", dir}, "-j -1"},
		{"resume and overwrite", []string{"--resume", "--overwrite", "-o", out, dir}, "exclude each other"},
		{"resume without output", []string{"--resume", dir}, "--resume needs outputs"},
		{"resume standard output", []string{"--resume", "-o", "-", dir}, "cannot resume standard output"},
		{"output format without output", []string{"--output-format", "tsv", dir}, "the format of -o"},
		{"unknown output format", []string{"--output-format", "xml", "-o", out, dir}, `--output-format "xml"`},
		{"subtitles as the output", []string{"-o", "all.srt", dir}, "use --format srt"},
		{"bad shard", []string{"--shard", "2/2", dir}, "the index i must be in 0..1"},
		{"alignment of a batch", []string{"-align", "a.png", dir}, "-align draws single files"},
		{"standard input in a batch", []string{"-", dir}, "standard input"},
		{"alignment of several files", []string{"-align", "a.png", hello, hello}, "names an existing directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := asrRun(t, "", append([]string{"transcribe"}, tc.args...)...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing and %q", code, stdout, stderr, tc.stderr)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused command wrote %s", out)
	}
}

// TestTranscribeFiles: files (not a directory) keep the plain behaviour,
// transcripts on standard output, PATH<TAB>text for several, a failing
// file reported and the others still transcribed.
func TestTranscribeFiles(t *testing.T) {
	hello := filepath.Join("..", "..", "testdata", "hello.wav")
	u01 := filepath.Join("..", "..", "testdata", "speech", "u01.flac")
	code, one, stderr := asrRun(t, "", "transcribe", "-beam", "1", hello)
	if code != 0 || strings.Count(one, "\n") != 1 || strings.Contains(one, "\t") {
		t.Fatalf("one file: exit %d, stdout %q\n%s", code, one, stderr)
	}
	code, several, stderr := asrRun(t, "", "transcribe", "-beam", "1", hello, "main.go", u01)
	if code != 1 || !strings.Contains(stderr, "asr: main.go: audio:") {
		t.Errorf("a bad file among good: exit %d, stderr %q; want 1 and the file's error", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(several, "\n"), "\n")
	if len(lines) != 2 || lines[0] != hello+"\t"+strings.TrimSuffix(one, "\n") || !strings.HasPrefix(lines[1], u01+"\t") {
		t.Errorf("several files: stdout %q; want PATH<TAB>text for %s and %s", several, hello, u01)
	}
}

// TestTranscribeFlagsAfterFiles: flags may follow the files, as with the
// tools people know (asr transcribe talk.wav -format json; asr
// transcribe corpus/ -o out.jsonl), and "--" ends the flags.
func TestTranscribeFlagsAfterFiles(t *testing.T) {
	hello := filepath.Join("..", "..", "testdata", "hello.wav")
	code, stdout, stderr := asrRun(t, "", "transcribe", hello, "-beam", "1", "-format", "json")
	if code != 0 || !strings.HasPrefix(stdout, `{"path":`) {
		t.Errorf("transcribe FILE -format json: exit %d, stdout %q\n%s", code, stdout, stderr)
	}
	dir := t.TempDir()
	u01 := filepath.Join("..", "..", "testdata", "speech", "u01.flac")
	data, err := os.ReadFile(u01)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "u01.flac"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.jsonl")
	code, stdout, stderr = asrRun(t, "", "transcribe", dir, "-o", out, "-beam", "1", "--quiet")
	if code != 0 || stdout != "" {
		t.Fatalf("transcribe DIR -o out.jsonl: exit %d, stdout %q\n%s", code, stdout, stderr)
	}
	if recs, err := os.ReadFile(out); err != nil || strings.Count(string(recs), "\n") != 1 {
		t.Errorf("transcribe DIR -o out.jsonl wrote %q (%v); want one record", recs, err)
	}
	code, _, stderr = asrRun(t, "", "transcribe", "-beam", "1", "--", "-o")
	if code != 1 || !strings.Contains(stderr, "-o: no such file") {
		t.Errorf("transcribe -- -o: exit %d, stderr %q; want the file -o reported missing", code, stderr)
	}
}

// TestTranscribeHelp: help goes to standard output with exit status 0,
// so that it can be paged.
func TestTranscribeHelp(t *testing.T) {
	for _, args := range [][]string{{"transcribe", "-h"}, {"transcribe", "talk.wav", "--help"}, {"help", "transcribe"}} {
		code, stdout, stderr := asrRun(t, "", args...)
		if code != 0 || !strings.HasPrefix(stdout, "Usage: asr transcribe") || stderr != "" {
			t.Errorf("%q: exit %d, stdout %.40q…, stderr %q; want 0 and the usage on stdout", args, code, stdout, stderr)
		}
	}
}

// TestTranscribeWrongModel: a -model that is not a speech model says what
// it is, naming the file, not what its first bytes decode to.
func TestTranscribeWrongModel(t *testing.T) {
	hello := filepath.Join("..", "..", "testdata", "hello.wav")
	captionModel := filepath.Join("..", "..", "models", "caption", "default.safetensors")
	sphinxLM := filepath.Join(t.TempDir(), "en-us.lm.bin") // the head of a Sphinx binary LM
	if err := os.WriteFile(sphinxLM, []byte("Trie Language Model\x03\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ model, want string }{
		{captionModel, captionModel + " is an image captioning model (for caption), not a speech recognition model (for asr)"},
		{"main.go", "main.go is not an attend model file: it is not a safetensors file"},
		{hello, hello + " is not an attend model file"},
		{filepath.Join("..", "..", "models", "lm", "default-lm.arpa.gz"), "(it is a language model (ARPA text, gzip or a Sphinx .lm.bin)); attend models are"},
		{sphinxLM, "(it is a language model (ARPA text, gzip or a Sphinx .lm.bin)); attend models are"},
	}
	for _, tc := range tests {
		code, _, stderr := asrRun(t, "", "transcribe", "-model", tc.model, hello)
		if code != 1 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "header length") ||
			(strings.HasSuffix(tc.model, ".arpa.gz") || tc.model == sphinxLM) != strings.Contains(stderr, "a language model goes to -lm") {
			t.Errorf("-model %s: exit %d, stderr %q; want 1 and %q", tc.model, code, stderr, tc.want)
		}
	}
}

// TestTranscribeAlignFallback draws the figures of chunks whose text came
// from the CTC fallback (-ctc-beam 0 leaves the attention transcript of a
// 14 s chunk of isolated words to fail): such a figure carries the red
// note that says so above its panels, and a figure of attention does not.
func TestTranscribeAlignFallback(t *testing.T) {
	long := longWAV(t, 6)
	dir := t.TempDir()
	code, stdout, stderr := asrRun(t, "", "transcribe", "-vad=false", "-ctc-beam", "0", "-format", "json", "-align", filepath.Join(dir, "fig.png"), long)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Chunks []struct{ Fallback, Text string }
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	fallbacks := 0
	for i, c := range got.Chunks {
		path := filepath.Join(dir, fmt.Sprintf("fig-%03d.png", i+1))
		f, err := os.Open(path)
		if c.Text == "" { // digital silence: nothing decoded, no figure
			if err == nil {
				f.Close()
				t.Errorf("chunk %d has no text but a figure", i+1)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		noted := false
		for y := range 48 { // the title and the note
			for x := range img.Bounds().Dx() {
				if r, g, b, _ := img.At(x, y).RGBA(); r>>8 == 180 && g>>8 == 30 && b>>8 == 30 {
					noted = true
				}
			}
		}
		if noted != (c.Fallback != "") {
			t.Errorf("chunk %d: fallback %q, figure noted %v", i+1, c.Fallback, noted)
		}
		if c.Fallback != "" {
			fallbacks++
		}
	}
	if fallbacks == 0 {
		t.Errorf("no chunk of %d fell back to CTC: the test needs another recording", len(got.Chunks))
	}
}
