package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/synth"
)

// TestWhisperOutputs: -otxt -osrt -ovtt -ojson write beside the input,
// -timestamps times the txt lines, -blank-audio marks silence.
func TestWhisperOutputs(t *testing.T) {
	dir := t.TempDir()
	hello, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hello.wav"))
	if err != nil {
		t.Fatal(err)
	}
	talk := filepath.Join(dir, "talk.wav")
	if err := os.WriteFile(talk, hello, 0o666); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := cli.ExitCode("asr", run([]string{talk, "-beam", "1", "-otxt", "-osrt", "-ovtt", "-ojson", "-timestamps"}, nil, &stdout, &stderr), &stderr)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	timed := regexp.MustCompile(`^\[\d\d:\d\d:\d\d\.\d{3} --> \d\d:\d\d:\d\d\.\d{3}\]  \S`)
	if !timed.MatchString(stdout.String()) {
		t.Errorf("stdout %q: want whisper.cpp's timestamped lines", stdout.String())
	}
	for ext, want := range map[string]*regexp.Regexp{
		"txt":  timed,
		"srt":  regexp.MustCompile(`^1\n\d\d:\d\d:\d\d,\d{3} --> `),
		"vtt":  regexp.MustCompile(`^WEBVTT\n\n\d\d:\d\d:\d\d\.\d{3} --> `),
		"json": regexp.MustCompile(`^\{"`),
	} {
		data, err := os.ReadFile(talk + "." + ext)
		if err != nil {
			t.Errorf("-o%s: %v", ext, err)
			continue
		}
		if !want.Match(data) {
			t.Errorf("%s: %.200q", filepath.Base(talk)+"."+ext, data)
		}
		if !strings.Contains(stderr.String(), "asr: wrote "+talk+"."+ext) {
			t.Errorf("stderr does not say %s.%s was written: %s", talk, ext, stderr.String())
		}
	}
	var v struct{ Text string }
	if data, _ := os.ReadFile(talk + ".json"); json.Unmarshal(data, &v) != nil || !strings.Contains(v.Text, "quick brown fox") {
		t.Errorf("talk.wav.json: text %q", v.Text)
	}
	if data, _ := os.ReadFile(talk + ".txt"); !bytes.Equal(data, stdout.Bytes()) {
		t.Errorf("talk.wav.txt %q differs from standard output %q", data, stdout.String())
	}

	// Two seconds of silence: nothing, or with -blank-audio the marker.
	silence := filepath.Join(dir, "silence.wav")
	f, err := os.Create(silence)
	if err != nil {
		t.Fatal(err)
	}
	if err := synth.WriteWAV(f, make([]float32, 32000), 16000); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{silence, "-timestamps"}, ""},
		{[]string{silence, "-timestamps", "-blank-audio"}, "[00:00:00.000 --> 00:00:02.000]  [BLANK_AUDIO]\n"},
		{[]string{silence, "-blank-audio"}, "[BLANK_AUDIO]\n"},
	} {
		stdout.Reset()
		stderr.Reset()
		if err := run(tc.args, nil, &stdout, &stderr); err != nil || stdout.String() != tc.want {
			t.Errorf("%q: %v, stdout %q, want %q\n%s", tc.args, err, stdout.String(), tc.want, stderr.String())
		}
	}
}

func TestWhisperOutputsRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"transcribe", "-osrt", "-"}, "standard input has no name"},
		{[]string{"transcribe", "-osrt", "-o", "out.jsonl", "x.wav"}, "--format srt"},
		{[]string{"transcribe", "-timestamps", "--out-dir", "d", "x.wav"}, "apply to files, not batches"},
	} {
		var stdout, stderr bytes.Buffer
		if code := cli.ExitCode("asr", run(tc.args, nil, &stdout, &stderr), &stderr); code != 2 || !strings.Contains(stderr.String(), tc.says) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr.String(), tc.says)
		}
	}
}
