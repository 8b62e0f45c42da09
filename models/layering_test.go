package models_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// module is this repository's module path.
const module = "github.com/attend-go/attend"

// layers says, for each directory of the module, which of the module's other
// directories its non-test code may import (DESIGN.md "Layout"). A package
// belongs to the longest listed prefix of its path; the import direction is
// one-way: cmd → pipeline → models/asr/decode → models/asr, models/caption →
// attention → models.
// audio and vision are leaves. internal holds gorgonia-free code (the SGEMM,
// CPU detection, the atomic writer, input naming, the version) that any
// layer may use; models/safetensors, the model file format, sits below
// everything that reads or writes a model, and models/ggml reads and
// writes whisper.cpp's model files.
var layers = map[string][]string{
	"cmd":        {"cmd", "pipeline", "internal"},
	"pipeline":   {"pipeline", "audio", "vision", "models", "models/safetensors", "attention", "models/asr", "models/asr/decode", "models/caption", "models/lm", "models/lm/ngram", "models/whisper", "models/ggml", "internal"},
	"models/asr": {"models", "models/safetensors", "attention", "models/asr"},
	// models/asr/decode searches with the speech network; the network
	// never imports its searches.
	"models/asr/decode": {"models", "attention", "models/asr", "models/asr/decode", "models/lm/ngram"},
	// models/lm holds the language models: the character LSTM (over the
	// recognizer's vocabulary) and the shipped word n-gram; below it,
	// models/lm/ngram is the gorgonia-free n-gram engine.
	"models/lm":          {"models", "models/safetensors", "models/asr", "models/lm", "models/lm/ngram"},
	"models/caption":     {"models", "models/safetensors", "attention", "models/caption"},
	"attention":          {"models", "attention", "internal"},
	"models/whisper":     {"models", "models/safetensors", "models/ggml", "attention", "models/whisper", "internal"},
	"models":             {"models", "models/safetensors", "internal"},
	"models/safetensors": {"models/safetensors", "internal"},
	"models/lm/ngram":    {"models/lm/ngram", "internal"},
	"models/ggml":        {"models/ggml", "internal"},
	"audio":              {"audio", "internal"},
	"vision":             {"vision", "internal"},
	"internal":           {"internal"},
	"testdata":           {},
	// docs holds the Markdown pages and their tests (links, length); no code.
	"docs": {},
	// bench holds comparison harnesses (bench/pytorch); like a test, it may
	// use any library layer, and nothing imports it.
	"bench": {"pipeline", "audio", "vision", "models", "models/safetensors", "attention", "models/asr", "models/asr/decode", "models/caption", "models/lm", "models/lm/ngram"},
}

// gorgoniaFree lists the layers that must not depend on gorgonia, even
// indirectly: audio and vision do no autodiff (DESIGN.md "Compute strategy" 5),
// the word n-gram model is plain counting and lookup, the shared kernels
// are plain arithmetic, and reading a model file or a feature cache must
// not link the training core (pipeline/captiondata reads feature caches),
// nor does running a batch over a directory (pipeline/batch).
var gorgoniaFree = []string{"audio", "vision", "models/lm/ngram", "models/safetensors", "models/ggml", "internal", "pipeline/captiondata", "pipeline/batch", "pipeline/speechdata"}

// layerOf returns the layer of a module-relative package path: the longest
// key of layers that is the path or a parent of it.
func layerOf(rel string) (string, bool) {
	best := ""
	for l := range layers {
		if (rel == l || strings.HasPrefix(rel, l+"/")) && len(l) > len(best) {
			best = l
		}
	}
	return best, best != ""
}

// goList runs `go list` in the module root and returns one line per package.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = filepath.Join(filepath.Dir(file), "..")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, stderr.String())
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

func TestImportLayering(t *testing.T) {
	lines := goList(t, "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	if len(lines) == 0 {
		t.Fatal("go list found no packages")
	}
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		layer, ok := layerOf(pkg)
		if !ok {
			t.Errorf("package %q is in no layer of DESIGN.md; add it to the layers table deliberately", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := strings.TrimPrefix(imp, module+"/")
			depLayer, _ := layerOf(dep)
			if !allowed(layer, depLayer) {
				t.Errorf("%s (layer %s) imports %s (layer %s): not allowed by DESIGN.md's layering", pkg, layer, dep, depLayer)
			}
		}
	}
}

// TestInternalImportsOnlyStdlib checks that the internal packages use
// nothing outside the standard library but each other: they are shared by
// every layer, so a dependency there would be everyone's.
func TestInternalImportsOnlyStdlib(t *testing.T) {
	for _, line := range goList(t, "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./internal/...") {
		fields := strings.Fields(line)
		for _, imp := range fields[1:] {
			first, _, _ := strings.Cut(imp, "/")
			if strings.Contains(first, ".") && !strings.HasPrefix(imp, module+"/internal/") {
				t.Errorf("%s imports %s: internal packages may use only the standard library and internal/", fields[0], imp)
			}
		}
	}
}

func allowed(from, to string) bool {
	for _, l := range layers[from] {
		if l == to {
			return true
		}
	}
	return false
}

func TestLeavesDoNotDependOnGorgonia(t *testing.T) {
	for _, leaf := range gorgoniaFree {
		deps := goList(t, "-deps", "./"+leaf+"/...")
		var bad []string
		for _, d := range deps {
			if strings.HasPrefix(d, "gorgonia.org/") {
				bad = append(bad, d)
			}
		}
		sort.Strings(bad)
		if len(bad) > 0 {
			t.Errorf("%s depends on gorgonia (%s); it must stay free of autodiff", leaf, strings.Join(bad, ", "))
		}
	}
}

func TestLayerOf(t *testing.T) {
	tests := []struct {
		rel, want string
	}{
		{"models", "models"},
		{"models/asr", "models/asr"},
		{"models/asr/internal/x", "models/asr"},
		{"models/caption", "models/caption"},
		{"cmd/asr", "cmd"},
		{"audio", "audio"},
		{"models/safetensors", "models/safetensors"},
		{"internal/sgemm", "internal"},
	}
	for _, tc := range tests {
		if got, _ := layerOf(tc.rel); got != tc.want {
			t.Errorf("layerOf(%q) = %q, want %q", tc.rel, got, tc.want)
		}
	}
	if _, ok := layerOf("modelsx"); ok {
		t.Error(`layerOf("modelsx") found a layer; prefixes must match whole path elements`)
	}
}
