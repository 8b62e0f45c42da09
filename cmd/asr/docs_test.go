package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli/clitest"
)

// TestDocsCommandsParse checks every asr command line that README.md and
// docs/*.md show, in code blocks and in the prose: its command exists and
// each of its flags is one that command's help lists, so a renamed or
// removed flag cannot outlive its documentation.
func TestDocsCommandsParse(t *testing.T) {
	cmds := clitest.DocCommands(t, filepath.Join("..", ".."), "asr")
	if len(cmds) < 100 {
		t.Fatalf("found %d asr command lines in the docs; the extraction broke", len(cmds))
	}
	t.Logf("%d asr command lines", len(cmds))
	flags := map[string]map[string]bool{}
	for _, c := range cmds {
		name := c.Args[0]
		switch {
		case name == "help" || name == "version" || name == "-h" || name == "…":
			continue // "go run ./cmd/asr …" stands for any command
		case !slices.Contains(commands.Names(), name):
			t.Errorf("%s: no command %q", c, name)
			continue
		}
		if flags[name] == nil {
			flags[name] = clitest.HelpFlags(commands.Help(name))
		}
		for _, f := range clitest.UnknownFlags(flags[name], c.Args[1:]) {
			t.Errorf("%s: asr %s has no flag %s", c, name, f)
		}
	}
}

// TestReadmeSetUpCommand runs the README's first set-up command and
// checks that it prints what the README says the default model hears,
// with the word LM and without it (-lm none).
func TestReadmeSetUpCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes the clip twice; skipped with -short")
	}
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	const cmd = "go run ./cmd/asr transcribe testdata/hello.wav"
	if !strings.Contains(readme, "\n"+cmd+" ") {
		t.Fatalf("README.md's set-up no longer starts with %q", cmd)
	}
	said := regexp.MustCompile(`(?s)the\s+default model hears\s+"([^"]+)"\s+\("([^"]+)"\s+without the language\s+model, ` + "`-lm none`").FindStringSubmatch(readme)
	if said == nil {
		t.Fatal(`README.md no longer says: the default model hears "…" ("…" without the language model, ` + "`-lm none`)")
	}
	hello := filepath.Join(root, "testdata", "hello.wav")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"transcribe", hello}, said[1]},
		{[]string{"transcribe", "-lm", "none", hello}, said[2]},
	} {
		var stdout, stderr bytes.Buffer
		if err := run(tc.args, nil, &stdout, &stderr); err != nil {
			t.Fatalf("asr %v: %v\n%s", tc.args, err, stderr.String())
		}
		if got := strings.TrimSpace(stdout.String()); got != tc.want {
			t.Errorf("asr %s: %q; README.md says %q", strings.Join(tc.args, " "), got, tc.want)
		}
	}
}
