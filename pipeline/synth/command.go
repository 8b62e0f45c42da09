package synth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// command runs an engine's program with stdin and returns its standard
// output. A missing program is an error wrapping ErrNotInstalled; a
// failure names the program and quotes the first error line of its
// standard error. Some engines exit 0 after an error they print
// (festival's "SIOD ERROR", espeak-ng's "Error:"), so such a line on
// standard error is a failure too.
func command(ctx context.Context, stdin io.Reader, name string, args ...string) ([]byte, error) {
	out, msg, err := commandOutput(ctx, stdin, name, args...)
	if err == nil && msg != "" && looksLikeError(msg) {
		err = fmt.Errorf("%s failed: %s", name, msg)
	}
	return out, err
}

// commandOutput runs a program and returns its standard output and the
// first error line of its standard error; err reports only a missing
// program, a failed exit or cancellation.
func commandOutput(ctx context.Context, stdin io.Reader, name string, args ...string) (stdout []byte, msg string, err error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %s not found on PATH", ErrNotInstalled, name)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = stdin
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	msg = firstErrorLine(errOut.String())
	if err != nil {
		if msg == "" {
			msg = err.Error()
		}
		return nil, msg, fmt.Errorf("%s failed: %s", name, msg)
	}
	return out.Bytes(), msg, nil
}

// firstErrorLine returns the first line of stderr that reports an error,
// or else its first non-empty line.
func firstErrorLine(stderr string) string {
	var first string
	for line := range strings.Lines(stderr) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if looksLikeError(line) {
			return line
		}
		if first == "" {
			first = line
		}
	}
	return first
}

func looksLikeError(line string) bool {
	l := strings.ToLower(line)
	return strings.Contains(l, "error") || strings.Contains(l, "cannot") || strings.Contains(l, "not found")
}

// removeStale deletes an earlier file at path, so that checkWAV sees only
// what the engine writes now.
func removeStale(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// checkWAV reports whether path holds a WAV file with at least one sample,
// as an engine that failed silently leaves none.
func checkWAV(name, path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s wrote no audio file", name)
	}
	if err != nil {
		return err
	}
	if fi.Size() <= 44 {
		return fmt.Errorf("%s wrote an empty audio file", name)
	}
	return nil
}

// hasProgram reports whether name is on the PATH.
func hasProgram(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}
