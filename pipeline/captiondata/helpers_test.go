package captiondata

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

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
