package version

import (
	"strings"
	"testing"
)

func TestBuild(t *testing.T) {
	if b := Build(); !strings.HasPrefix(b, Version+" (go") {
		t.Errorf("Build() = %q, want Version and the Go release", b)
	}
	if got, want := ModelLine("asr-1a2b", 9_300_000), "model asr-1a2b (embedded, 9.3 MB)"; got != want {
		t.Errorf("ModelLine = %q, want %q", got, want)
	}
}
