package models_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// module is this repository's module path.
const module = "github.com/attend-go/attend"

// layerRules is DESIGN.md's "Layout" as an ordered list of layers, in the
// notation of Go's go/build/deps_test.go, bottom up. Each rule
//
//	a, b < c, d;
//
// says that c and d may import a and b, and everything a and b may
// import: the rules are transitive, so a layer sits above all that is
// written before it. A name in capitals is a group, not a package: it
// names the layers on its left, for later rules to use. Every
// layer may import itself. A package belongs to the layer of the longest
// listed prefix of its path. Layers named in thin may import only what
// their own rules name (groups expanded), not what those may import.
//
// audio and vision are leaves. internal holds gorgonia-free code (the
// SGEMM, CPU detection, the atomic writer, input naming, the version) that
// any layer may use; models/safetensors, the model file format, sits below
// everything that reads or writes a model, and models/ggml reads and writes
// whisper.cpp's model files.
const layerRules = `
	NONE < internal, testdata, docs;

	# The leaves and the file formats.
	internal < audio, vision, models/safetensors, models/ggml, models/lm/ngram;

	# The training core, the attention mechanisms, the model definitions.
	models/safetensors < models;
	models < attention;
	attention < models/asr, models/caption;
	models/ggml, attention < models/whisper;
	# models/asr/decode searches with the speech network; the network
	# never imports its searches. models/lm holds the language models: the
	# character LSTM (over the recognizer's vocabulary) and the shipped
	# word n-gram, whose gorgonia-free engine is models/lm/ngram.
	models/asr, models/lm/ngram < models/lm, models/asr/decode;

	# pipeline, bottom up: data and plumbing, then the two jobs, then what
	# shows them (figures, the server).
	NONE < pipeline/metrics, pipeline/speechdata;
	# plot draws the speech alignment with vision's drawing kit
	# (internal/figure), without images or the CNN.
	internal < pipeline/plot;
	models/safetensors < pipeline/internal/modelfile;
	models < pipeline/trainloop;
	pipeline/trainloop < pipeline/internal/snapshottest;
	audio < pipeline/batch;
	audio, pipeline/speechdata < pipeline/synth;
	vision, models/safetensors, pipeline/metrics < pipeline/captiondata;
	models/caption, pipeline/batch, pipeline/captiondata, pipeline/internal/modelfile, pipeline/trainloop
	< pipeline/captioning;
	# The speech side, bottom up: the speech-model interface and its
	# families (speechmodel), the jobs that use a model through it
	# (speech: transcription, voice activity and chunking, formats,
	# forced alignment; speecheval: WER and timing over a manifest), and
	# the trainers of the acoustic model (speechtrain) and of the
	# language models (speechlm).
	NONE < pipeline/internal/parallel;
	audio, models/asr/decode, models/lm, models/whisper, pipeline/internal/modelfile, pipeline/speechdata
	< pipeline/speechmodel;
	internal, audio, pipeline/speechdata, pipeline/speechmodel, pipeline/batch, pipeline/plot
	< pipeline/speech;
	pipeline/speech, pipeline/synth, pipeline/metrics, pipeline/internal/parallel < pipeline/speecheval;
	pipeline/speechmodel, pipeline/speecheval, pipeline/trainloop < pipeline/speechtrain;
	pipeline/speechmodel < pipeline/speechlm;
	pipeline/captioning < pipeline/overlay;
	# stream transcribes audio as it arrives, with any speech model
	pipeline/speech < pipeline/stream;
	pipeline/captioning, pipeline/stream < pipeline/server;

	pipeline/metrics, pipeline/speechdata, pipeline/plot, pipeline/internal/modelfile, pipeline/trainloop,
	pipeline/internal/snapshottest, pipeline/internal/parallel, pipeline/batch, pipeline/synth, pipeline/captiondata,
	pipeline/captioning, pipeline/speechmodel, pipeline/speech, pipeline/speecheval, pipeline/speechtrain,
	pipeline/speechlm, pipeline/stream, pipeline/overlay, pipeline/server
	< PIPELINE;

	# The commands: flags → pipeline → output (thin).
	PIPELINE, internal < cmd;

	# bench holds comparison harnesses (bench/pytorch); like a test, it may
	# use any library layer, and nothing imports it.
	PIPELINE < bench;
`

// thin lists the layers that may import only what their rules name: the
// commands reach the models through package pipeline, never directly, and
// the transcription jobs (pipeline/speech) reach a speech network only
// through pipeline/speechmodel's interface, so they never ask which family
// they hold.
var thin = map[string]bool{"cmd": true, "pipeline/speech": true}

// layers maps each layer to the layers it may import, built from
// layerRules by parseLayerRules.
var layers = mustParseLayerRules(layerRules)

// isGroup reports whether name is a group of layerRules (NONE, PIPELINE).
func isGroup(name string) bool { return name == strings.ToUpper(name) && name != strings.ToLower(name) }

// parseLayerRules reads rules written as layerRules documents them and
// returns for each layer the set of layers it may import (itself
// included). It fails on a name used before it was defined, so that the
// order of the rules is the order of the layers.
func parseLayerRules(rules string) (map[string][]string, error) {
	below := map[string]map[string]bool{} // layer or group → what it may import
	members := map[string][]string{}      // group → the layers it names
	var order []string
	var text strings.Builder
	for _, line := range strings.Split(rules, "\n") {
		line, _, _ = strings.Cut(line, "#")
		text.WriteString(line + " ")
	}
	for _, rule := range strings.Split(text.String(), ";") {
		if strings.TrimSpace(rule) == "" {
			continue
		}
		lower, upper, ok := strings.Cut(rule, "<")
		if !ok {
			return nil, fmt.Errorf("rule %q: want a < b", strings.TrimSpace(rule))
		}
		allowed := map[string]bool{}
		direct := map[string]bool{}
		for _, a := range splitNames(lower) {
			if a == "NONE" {
				continue
			}
			bs, ok := below[a]
			if !ok {
				return nil, fmt.Errorf("rule %q: %s is used before a rule defines it", strings.TrimSpace(rule), a)
			}
			if !isGroup(a) {
				allowed[a], direct[a] = true, true
			}
			for b := range bs {
				allowed[b] = true
			}
			for _, m := range members[a] {
				direct[m] = true
			}
		}
		for _, b := range splitNames(upper) {
			if _, ok := below[b]; ok {
				return nil, fmt.Errorf("rule %q: %s is defined twice; write each layer's rule once", strings.TrimSpace(rule), b)
			}
			set := allowed
			if thin[b] {
				set = direct
			}
			below[b] = map[string]bool{}
			for l := range set {
				below[b][l] = true
			}
			if isGroup(b) {
				for m := range direct {
					members[b] = append(members[b], m)
				}
			} else {
				below[b][b] = true
				order = append(order, b)
			}
		}
	}
	out := map[string][]string{}
	for _, l := range order {
		for dep := range below[l] {
			if !isGroup(dep) {
				out[l] = append(out[l], dep)
			}
		}
		sort.Strings(out[l])
	}
	return out, nil
}

// splitNames splits a comma-separated list of names.
func splitNames(s string) []string {
	var names []string
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}

func mustParseLayerRules(rules string) map[string][]string {
	l, err := parseLayerRules(rules)
	if err != nil {
		panic("layering_test: " + err.Error()) // a programmer's error in layerRules
	}
	return l
}

// gorgoniaFree lists the layers that must not depend on gorgonia, even
// indirectly: audio and vision do no autodiff (DESIGN.md "Compute strategy" 5),
// the word n-gram model is plain counting and lookup, the shared kernels
// are plain arithmetic, and reading a model file or a feature cache must
// not link the training core (pipeline/captiondata reads feature caches),
// nor does running a batch over a directory (pipeline/batch).
var gorgoniaFree = []string{"audio", "vision", "models/lm/ngram", "models/safetensors", "models/ggml", "internal", "pipeline/captiondata", "pipeline/batch", "pipeline/speechdata", "pipeline/plot"}

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
// every layer, so a dependency there would be everyone's. The one
// exception is internal/figure, the drawing kit of vision and
// pipeline/plot, which sets its labels with golang.org/x/image's fonts as
// vision always has.
func TestInternalImportsOnlyStdlib(t *testing.T) {
	for _, line := range goList(t, "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./internal/...") {
		fields := strings.Fields(line)
		for _, imp := range fields[1:] {
			first, _, _ := strings.Cut(imp, "/")
			if fields[0] == module+"/internal/figure" && strings.HasPrefix(imp, "golang.org/x/image/") {
				continue
			}
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

// TestLayerRules checks the rules' reading: transitive for libraries,
// thin for the commands, the order enforced.
func TestLayerRules(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		want     bool
	}{
		{"pipeline/server", "pipeline/captioning", true},
		{"pipeline/server", "models/caption", true}, // through pipeline/captioning
		{"pipeline/captioning", "pipeline/overlay", false},
		{"pipeline/captioning", "pipeline/speech", false},
		{"pipeline/batch", "models", false},
		{"pipeline/captiondata", "vision", true},
		{"cmd", "pipeline/captioning", true},
		{"cmd", "internal", true},
		{"cmd", "models", false}, // thin: not through pipeline
		{"vision", "internal", true},
		{"pipeline/speech", "vision", false}, // the alignment plot left vision
		{"pipeline/plot", "vision", false},
		{"vision", "models", false},
		{"models", "attention", false},
	} {
		if got := allowed(tc.from, tc.to); got != tc.want {
			t.Errorf("allowed(%s, %s) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
	for _, bad := range []string{
		"b < c; a < b;",       // a used before its rule
		"NONE < a; NONE < a;", // a defined twice
		"a, b c;",             // no <
	} {
		if _, err := parseLayerRules(bad); err == nil {
			t.Errorf("parseLayerRules(%q) succeeded, want an error", bad)
		}
	}
}
