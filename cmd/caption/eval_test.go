package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestEvalCommand(t *testing.T) {
	captions := filepath.Join(t.TempDir(), "captions.json")
	base := []string{"eval", "-model", fixtureModel, "-cache", fixtureCache}
	tests := []cliCase{
		{name: "table", args: append(base, "-split", "train", "-beams", "1,2", "-captions", captions, fixture),
			stdout: "greedy    100.00  100.00  100.00"},
		{name: "beam row", args: append(base, "-split", "train", "-beams", "1,2", fixture), stdout: "beam 2 "},
		{name: "bad beams", args: append(base, "-beams", "1,x", fixture), code: 2, stderr: `-beams "1,x"`},
		{name: "no cache", args: []string{"eval", "-model", fixtureModel, fixture}, code: 2, stderr: "caption features -split test"},
		{name: "unknown split", args: append(base, "-split", "restval", fixture), code: 1, stderr: "restval"},
		{name: "unwritable captions, found before the model loads", args: []string{"eval", "-model", "/nonexistent/model", "-cache", fixtureCache, "-captions", "/nonexistent/c.json", fixture},
			code: 1, stderr: "-captions /nonexistent/c.json: cannot write in /nonexistent"},
		{name: "the default model, a cache of another encoder's features", args: []string{"eval", "-cache", fixtureCache, "-split", "train", fixture},
			code: 1, stderr: "wrong image encoder: the caption model was trained on features of MobileNet-EdgeTPU"},
		{name: "an ensemble of the model twice captions as the model", args: []string{"eval", "-model", fixtureModel + "," + fixtureModel, "-cache", fixtureCache, "-split", "train", "-beams", "1", fixture},
			stdout: "greedy    100.00  100.00  100.00"},
		{name: "an ensemble with the default model, of another encoder", args: []string{"eval", "-model", fixtureModel + ",", "-cache", fixtureCache, "-split", "train", fixture},
			code: 1, stderr: "members must share the encoder"},
		{name: "an ensemble with a missing member", args: []string{"eval", "-model", fixtureModel + ",/nonexistent/m.safetensors", "-cache", fixtureCache, "-split", "train", fixture},
			code: 1, stderr: "/nonexistent/m.safetensors"},
		{name: "captions to a device", args: append(base, "-split", "train", "-beams", "1", "-captions", os.DevNull, fixture), stdout: "greedy"},
	}
	runCases(t, tests)
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
	// Written atomically: nothing but the file beside it.
	if entries, _ := os.ReadDir(filepath.Dir(captions)); len(entries) != 1 {
		t.Errorf("%d entries beside the captions file, want none", len(entries)-1)
	}
}

// TestJSONToDevNull: "caption -json … -o /dev/null" works (a device
// output is written as a stream, not resumed or truncated).
func TestJSONToDevNull(t *testing.T) {
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	img := filepath.Join(t.TempDir(), "red-square.png")
	data, err := os.ReadFile("../../testdata/caption/images/red-square.png")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(img, data, 0o666); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCase([]string{"-json", "-model", fixtureModel, "-cache", fixtureCache, "-o", "/dev/null", img}, nil)
	if code != 0 {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}
