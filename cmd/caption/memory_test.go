package main

import (
	"path/filepath"
	"testing"
)

// TestMemoryCommand builds a memory of the fixture's training images and
// reranks with it when describing and evaluating.
func TestMemoryCommand(t *testing.T) {
	mem := filepath.Join(t.TempDir(), "memory.safetensors")
	cached := []string{"-model", fixtureModel, "-cache", fixtureCache}
	tests := []cliCase{
		{name: "build", args: []string{"memory", "-cache", fixtureCache, "-split", "train", "-dims", "3", "-o", mem, fixture},
			stdout: mem + ": 4 images, keys of 3 values"},
		{name: "describe reranked", args: append(append([]string{"-json"}, cached...), "-memory", mem, "-beam", "3", fixtureImage("red-square")),
			stdout: `"consensus":`},
		{name: "describe without", args: append(append([]string{"-json"}, cached...), "-memory", "none", "-beam", "3", fixtureImage("red-square")),
			stdout: `"caption":"a red square"`},
		{name: "eval reranked", args: []string{"eval", "-model", fixtureModel, "-cache", fixtureCache, "-memory", mem, "-neighbours", "1", "-split", "train", "-beams", "3", fixture},
			stdout: "beam 3    100.00"},
		{name: "eval reranked scores the default search too", args: []string{"eval", "-model", fixtureModel, "-cache", fixtureCache, "-memory", mem, "-neighbours", "1", "-split", "train", fixture},
			stdout: "beam 30 "},
		{name: "eval says how it reranks", args: []string{"eval", "-model", fixtureModel, "-cache", fixtureCache, "-memory", mem, "-neighbours", "1", "-split", "train", "-beams", "3", fixture},
			stdout: "beam searches reranked by consensus with the captions of the nearest of 4 training images (caption, split train) + 1 × the search's score"},
		{name: "a memory of another encoder's features", args: []string{"-memory", mem, "-cache", fixtureCache, fixtureImage("red-square")},
			code: 1, stderr: "build the memory from a cache of its features (caption features -encoder mobilenet-edgetpu, then caption memory)"},
		{name: "no cache", args: []string{"memory", "-o", mem, fixture}, code: 2, stderr: "memory needs -cache FILE"},
		{name: "no output", args: []string{"memory", "-cache", fixtureCache, fixture}, code: 2, stderr: "memory needs -o FILE"},
		{name: "bad dims", args: []string{"memory", "-cache", fixtureCache, "-dims", "0", "-o", mem, fixture}, code: 2, stderr: "-dims 0"},
		{name: "a missing cache", args: []string{"memory", "-cache", "/nonexistent/c.safetensors", "-o", filepath.Join(t.TempDir(), "m"), fixture},
			code: 1, stderr: "/nonexistent/c.safetensors"},
	}
	runCases(t, tests)
}
