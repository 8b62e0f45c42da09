package clitest

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attend-go/attend/cmd/internal/cli"
)

// toolEnv, set in a test binary's environment, makes ToolMain run the
// tool instead of the tests: how RunRecipe's scripts call the tool
// without building it.
const toolEnv = "ATTEND_TEST_AS_TOOL"

// ToolMain runs tool's run function on the process's arguments and exits
// when the test binary was started as the tool (by RunRecipe); otherwise
// it returns, and TestMain goes on to the tests.
func ToolMain(tool string, run func(args []string, stdin io.Reader, stdout, stderr io.Writer) error) {
	if os.Getenv(toolEnv) == "" {
		return
	}
	os.Exit(cli.ExitCode(tool, run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr), os.Stderr))
}

// RunRecipe runs a training recipe (docs/recipes/TOOL/run.sh) at its
// tiny scale with args, the tool being this test binary (its TestMain
// must call ToolMain), and returns what the script printed. It skips
// without bash, fails on a script that fails or runs past 5 minutes, and
// reports each of the stages 0 to last that did not run.
func RunRecipe(t *testing.T, script, tool string, last int, args ...string) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(t.TempDir(), tool)
	sh := "#!/bin/sh\n" + toolEnv + "=1 exec '" + strings.ReplaceAll(exe, "'", `'\''`) + "' \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(sh), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, append([]string{script, "--tiny", "--" + tool, wrapper}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s --tiny: %v\n%s", script, err, out)
	}
	for s := 0; s <= last; s++ {
		if !strings.Contains(string(out), fmt.Sprintf("== stage %d:", s)) {
			t.Errorf("%s --tiny: stage %d did not run:\n%s", script, s, out)
		}
	}
	return string(out)
}
