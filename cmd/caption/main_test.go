package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli"
)

func TestRun(t *testing.T) {
	png := filepath.Join("..", "..", "testdata", "gradient.png")
	tests := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{name: "no args", code: 2, stderr: "Commands:"},
		{name: "help", args: []string{"-h"}, stdout: "Commands:"},
		{name: "unknown", args: []string{"nope"}, code: 2, stderr: `unknown command "nope"`},
		{name: "version", args: []string{"version"}, stdout: "caption v0.1.0-dev (go1"},
		{name: "version names the models", args: []string{"version"}, stdout: "model attend-caption-default@sha256:"},
		{name: "version names the encoder", args: []string{"version"}, stdout: "encoder mobilenet_edgetpu_224_1.0_uint8.tflite sha256:5d63cb8ebd51 ("},
		{name: "inspect", args: []string{"inspect", png}, stdout: "png 64×48 → input 3×224×224"},
		{name: "inspect help", args: []string{"inspect", "-h"}, stdout: "Examples:"},
		{name: "help inspect", args: []string{"help", "inspect"}, stdout: "Examples:"},
		{name: "help overlay", args: []string{"help", "overlay"}, stdout: "caption overlay [flags]"},
		{name: "help of an image", args: []string{"photo.jpg", "--help"}, stdout: "caption [describe] [flags] IMAGE..."},
		{name: "inspect nothing", args: []string{"inspect"}, code: 2, stderr: "needs at least one image"},
		{name: "not an image", args: []string{"inspect", "main.go", png}, code: 1, stdout: "png 64×48", stderr: "caption: vision: main.go"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := cli.ExitCode("caption", run(tc.args, nil, &stdout, &stderr), &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout %q lacks %q", stdout.String(), tc.stdout)
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tc.stderr)
			}
		})
	}
}

func TestUsageExamplesRun(t *testing.T) {
	texts := []string{commands.Usage(usageHead, usageTail)}
	for _, name := range commands.Names() {
		texts = append(texts, commands.Help(name))
	}
	for _, text := range texts {
		examples := cli.Examples("caption", text)
		if len(examples) == 0 {
			t.Fatalf("no examples in:\n%s", text)
		}
		for _, line := range examples {
			args := cli.ExampleArgs(line, filepath.Join("..", ".."))
			var stdout, stderr bytes.Buffer
			if err := run(args, nil, &stdout, &stderr); err != nil {
				t.Errorf("example %q: %v\n%s", line, err, stderr.String())
			}
		}
	}
}
