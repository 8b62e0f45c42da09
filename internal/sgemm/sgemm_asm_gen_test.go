package sgemm

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestAsmGenerated checks that each generated assembly file is what its
// generator writes: a hand edit to it, or a change to the generator not
// run, would otherwise go unnoticed.
func TestAsmGenerated(t *testing.T) {
	for _, c := range []struct{ gen, file string }{
		{"sgemm_asm_gen.go", "sgemm_amd64.s"},
		{"bf16_asm_gen.go", "bf16_amd64.s"},
	} {
		out := filepath.Join(t.TempDir(), c.file)
		cmd := exec.Command("go", "run", c.gen, "-o", out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go run %s: %v\n%s", c.gen, err, msg)
		}
		want, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what %s writes: run go generate in internal/sgemm", c.file, c.gen)
		}
	}
}
