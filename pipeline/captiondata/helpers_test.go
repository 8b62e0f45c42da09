package captiondata

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// sharedData returns the project's shared data directory (../shared/data
// beside the module root), skipping the test when it is absent.
func sharedData(t testing.TB, rel ...string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("skipping: no go.mod above the test directory, so no ../shared/data")
		}
		dir = parent
	}
	p := filepath.Join(append([]string{dir, "..", "shared", "data"}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("skipping: %s is absent (the shared data sits beside the module root)", p)
	}
	return p
}

// writeFiles creates the files (name → contents) under dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func ids(images []Image) []string {
	var out []string
	for _, im := range images {
		out = append(out, im.ID)
	}
	return out
}

func equalStrings(a, b []string) bool { return slices.Equal(a, b) }
