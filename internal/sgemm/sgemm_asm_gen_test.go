package sgemm

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestAsmGenerated checks that sgemm_amd64.s is what sgemm_asm_gen.go
// writes: the assembly is generated, and a hand edit to it, or a change to
// the generator not run, would otherwise go unnoticed.
func TestAsmGenerated(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sgemm_amd64.s")
	cmd := exec.Command("go", "run", "sgemm_asm_gen.go", "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run sgemm_asm_gen.go: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("sgemm_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("sgemm_amd64.s differs from what sgemm_asm_gen.go writes: run go generate in internal/sgemm")
	}
}
