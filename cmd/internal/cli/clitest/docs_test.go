package clitest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestShellWords(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		quote byte
		want  []string
	}{
		{"plain", "transcribe -format srt talk.mp3", 0, []string{"transcribe", "-format", "srt", "talk.mp3"}},
		{"redirection", "transcribe talk.wav > talk.srt", 0, []string{"transcribe", "talk.wav"}},
		{"stderr redirection", "transcribe talk.wav 2> log", 0, []string{"transcribe", "talk.wav"}},
		{"pipe", "eval -json M | jq .rows", 0, []string{"eval", "-json", "M"}},
		{"and", "merge -o a.jsonl b && echo done", 0, []string{"merge", "-o", "a.jsonl", "b"}},
		{"quotes", `transcribe -hotwords "Layla,Lilly" 'a b.wav'`, 0, []string{"transcribe", "-hotwords", "Layla,Lilly", "a b.wav"}},
		{"escape", `align talk.wav "paid \$5."`, 0, []string{"align", "talk.wav", "paid $5."}},
		{"inside quotes", "merge -o t.jsonl out/*.jsonl' --other", '\'', []string{"merge", "-o", "t.jsonl", "out/*.jsonl"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := shellWords(tc.in, tc.quote); !slices.Equal(got, tc.want) {
				t.Errorf("shellWords(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestUnknownFlags(t *testing.T) {
	help := "Usage: x\n\nFlags:\n  -beam int\n    \twidth\n  -out-dir path\n    \tdir\n"
	flags := HelpFlags(help)
	args := []string{"-beam", "3", "--out-dir=d", "-word-bonus", "-0.5", "-1", "-", "-nope", "--", "-x.wav"}
	if got, want := UnknownFlags(flags, args), []string{"-word-bonus", "-nope"}; !slices.Equal(got, want) {
		t.Errorf("UnknownFlags = %q, want %q", got, want)
	}
}

func TestDocCommands(t *testing.T) {
	root := t.TempDir()
	readme := "# t\n\nRun `tool a -x` or `cmd/tool`.\n\n```sh\ntool b -y \\\n  -z file   # tool c -w\n# tool d\nparallel 'tool e -v {}' ::: 1\n$ go run ./cmd/tool f\n```\n\n```python\ntool g\n```\n"
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte(readme), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range DocCommands(t, root, "tool") {
		got = append(got, c.String())
	}
	want := []string{
		"README.md:3: a -x",
		"README.md:6: b -y -z file",
		"README.md:9: e -v {}",
		"README.md:10: f",
	}
	if !slices.Equal(got, want) {
		t.Errorf("DocCommands =\n%q\nwant\n%q", got, want)
	}
}
