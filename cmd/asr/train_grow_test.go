package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// TestTrainGrowListener trains a tiny model with a flat residual listener
// layer, then grows it with -init and a larger -listener-layers and trains
// the grown model 2 steps: the log says what was added and the model file
// has the deeper listener at the same frame rate. The listener flags'
// errors are usage errors that name the flag.
func TestTrainGrowListener(t *testing.T) {
	dir := t.TempDir()
	train := func(out string, extra ...string) (string, error) { return trainTiny(dir, out, extra...) }
	if log, err := train("base", "-max-steps", "1", "-listener-layers", "3", "-listener-flat", "1"); err != nil {
		t.Fatalf("base: %v\n%s", err, log)
	}
	base := filepath.Join(dir, "base", "best.safetensors")
	b, err := speechmodel.LoadModel(base)
	if err != nil || b.Config.ListenerLayers != 3 || b.Config.ListenerFlat != 1 {
		t.Fatalf("base model: %v (config %+v)", err, b.Config)
	}
	log, err := train("grow", "-max-steps", "2", "-init", base, "-listener-layers", "4", "-listener-flat", "2")
	if err != nil {
		t.Fatalf("grow: %v\n%s", err, log)
	}
	if want := "added 1 residual listener layer(s) to " + base + " (now 4 layers, the top 2 flat"; !strings.Contains(log, want) {
		t.Errorf("log lacks %q:\n%s", want, log)
	}
	m, err := speechmodel.LoadModel(filepath.Join(dir, "grow", "last.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Config; c.ListenerLayers != 4 || c.ListenerFlat != 2 || c.Reduction() != b.Config.Reduction() {
		t.Errorf("grown model: config %+v, reduction %d, want 4 layers, 2 flat, reduction %d", c, c.Reduction(), b.Config.Reduction())
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"new model all flat", []string{"-listener-layers", "2", "-listener-flat", "2"}, "-listener-flat 2: want fewer than the 2 listener layers"},
		{"negative", []string{"-listener-flat", "-1"}, "not negative"},
		{"fewer layers than the file", []string{"-init", base, "-listener-layers", "2"}, "-listener-layers 2: speechtrain: " + base + ": the listener cannot be grown to that depth: it has 3 listener layers"},
		{"flat count off", []string{"-init", base, "-listener-layers", "4", "-listener-flat", "3"}, "-listener-flat 3: speechtrain: " + base + ": the grown listener would have another number of flat layers: it has 3 listener layers, 1 of them flat, and growing it to 4 adds 1 flat ones: 2, not 3"},
		{"flat 0 with init", []string{"-init", base, "-listener-flat", "0"}, "-listener-flat 0 with -init"},
		{"too deep", []string{"-init", base, "-listener-layers", "7"}, "listener_layers 7; want at most 6"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log, err := train("bad", append([]string{"-max-steps", "1"}, tc.args...)...)
			var stderr bytes.Buffer
			if code := cli.ExitCode("asr", err, &stderr); code != 2 || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("exit %d, error %v; want 2 and %q\n%s", code, err, tc.want, log)
			}
		})
	}
}
