package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli"
)

// asrCase runs asr with args and returns the exit status and outputs.
func asrCase(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := cli.ExitCode("asr", run(args, nil, &stdout, &stderr), &stderr)
	return code, stdout.String(), stderr.String()
}

// TestChecksBeforeModel: bad inputs and outputs are reported before the
// model loads. -model names no file, so an error about it would mean the
// model was being loaded.
func TestChecksBeforeModel(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.wav")
	text := filepath.Join(dir, "notes.wav")
	os.WriteFile(empty, nil, 0o666)
	os.WriteFile(text, []byte("not audio, just notes\n"), 0o666)
	const noModel = "/nonexistent/model.safetensors"
	type checkCase struct {
		name string
		args []string
		code int
		says string
	}
	cases := []checkCase{
		{"empty file", []string{"-model", noModel, empty}, 1, "empty.wav: audio: empty input"},
		{"text file", []string{"-model", noModel, text}, 1, "notes.wav: audio: unrecognised format"},
		{"empty file in a batch", []string{"-model", noModel, "-o", filepath.Join(dir, "out.jsonl"), empty}, 1, "failed: " + empty + ": audio: empty input"},
		{"unwritable -align", []string{"-model", noModel, "-align", "/nonexistent/plot.png", "../../testdata/hello.wav"}, 1, "-align /nonexistent/plot.png: cannot write in /nonexistent"},
		{"unwritable -osrt", []string{"-model", noModel, "-osrt", "/proc/version"}, 1, "-osrt beside /proc/version: cannot write in /proc"},
	}
	if runtime.GOOS == "linux" {
		cases = append(cases,
			checkCase{"/dev/zero", []string{"-model", noModel, "/dev/zero"}, 1, "/dev/zero is a device of endless zero bytes"},
			checkCase{"/dev/urandom", []string{"-model", noModel, "/dev/urandom"}, 1, "/dev/urandom is a device of endless random bytes"})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := asrCase(tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.says) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tc.code, tc.says)
			}
			if strings.Contains(stderr, "model.safetensors") {
				t.Errorf("the model was being loaded: %s", stderr)
			}
			if strings.Contains(stderr, ".tmp") || strings.Contains(stderr, ".asr-check") {
				t.Errorf("stderr names a temporary file: %s", stderr)
			}
		})
	}
}

// TestBatchWarnings: a batch records a file cut short ("truncated") and
// a file with non-finite samples ("warnings") and says so on stderr, as
// a single file does; -o /dev/null works.
func TestBatchWarnings(t *testing.T) {
	dir := t.TempDir()
	hello, err := os.ReadFile("../../testdata/hello.wav")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.wav")
	os.WriteFile(cut, hello[:len(hello)*2/3], 0o666)
	broken := filepath.Join(dir, "broken.wav")
	os.WriteFile(broken, floatWAV(16000, math.Inf(1)), 0o666)

	code, _, stderr := asrCase("-beam", "1", cut)
	if code != 0 || !strings.Contains(stderr, "asr: warning: "+cut+": the file is cut short") {
		t.Errorf("single file cut short: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = asrCase("-beam", "1", broken)
	if code != 0 || !strings.Contains(stderr, "asr: warning: "+broken+": 16000 samples are NaN or infinite") {
		t.Errorf("single file of Inf: exit %d, stderr %q", code, stderr)
	}

	out := filepath.Join(dir, "out.jsonl")
	code, _, stderr = asrCase("-beam", "1", "--quiet", "-o", out, cut, broken)
	if code != 0 {
		t.Fatalf("batch: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"asr: warning: " + cut + ": the file is cut short", "asr: warning: " + broken + ": 16000 samples are NaN or infinite"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("batch stderr %q lacks %q", stderr, want)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct {
			Path      string
			Truncated bool
			Warnings  []string
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Truncated != (rec.Path == cut) || len(rec.Warnings) != 1 {
			t.Errorf("record %+v", rec)
		}
	}
	if runtime.GOOS == "linux" {
		if code, _, stderr := asrCase("-beam", "1", "--quiet", "-o", "/dev/null", cut); code != 0 {
			t.Errorf("-o /dev/null: exit %d\n%s", code, stderr)
		}
	}
}

// floatWAV is a mono 16 kHz 32-bit float WAV of n samples of value v.
func floatWAV(n int, v float64) []byte {
	var b bytes.Buffer
	le := func(x any) { binary.Write(&b, binary.LittleEndian, x) }
	b.WriteString("RIFF")
	le(uint32(36 + 4*n))
	b.WriteString("WAVEfmt ")
	for _, x := range []any{uint32(16), uint16(3), uint16(1), uint32(16000), uint32(64000), uint16(4), uint16(32)} {
		le(x)
	}
	b.WriteString("data")
	le(uint32(4 * n))
	for range n {
		le(float32(v))
	}
	return b.Bytes()
}
