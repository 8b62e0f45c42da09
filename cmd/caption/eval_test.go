package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEvalCommand(t *testing.T) {
	captions := filepath.Join(t.TempDir(), "captions.json")
	base := []string{"eval", "-model", fixtureModel, "-cache", fixtureCache}
	tests := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{name: "table", args: append(base, "-split", "train", "-beams", "1,2", "-captions", captions, fixture),
			stdout: "greedy    100.00  100.00  100.00"},
		{name: "beam row", args: append(base, "-split", "train", "-beams", "1,2", fixture), stdout: "beam 2 "},
		{name: "bad beams", args: append(base, "-beams", "1,x", fixture), code: 2, stderr: `-beams "1,x"`},
		{name: "no cache", args: []string{"eval", "-model", fixtureModel, fixture}, code: 2, stderr: "caption features -split test"},
		{name: "unknown split", args: append(base, "-split", "restval", fixture), code: 1, stderr: "restval"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCase(tc.args, nil)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tc.code, stderr)
			}
			if !strings.Contains(stdout, tc.stdout) {
				t.Errorf("stdout %q lacks %q", stdout, tc.stdout)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tc.stderr)
			}
		})
	}
	data, err := os.ReadFile(captions)
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Beam     int
		Captions []struct {
			ID, Caption string
		}
	}
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || len(rows[0].Captions) != 4 || rows[0].Captions[0].Caption != "a red square" {
		t.Errorf("captions file %s", data)
	}
}
