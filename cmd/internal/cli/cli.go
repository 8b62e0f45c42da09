// Package cli holds the conventions both command-line tools share: exit
// statuses, error printing, and flag sets whose -h shows usage, defaults
// and examples.
//
// # Exit statuses
//
//	0    success
//	1    failure: an error, or some inputs failed (each already reported)
//	2    usage error (as with the flag package), including an output
//	     that exists when neither --resume nor --overwrite was given
//	130  a batch interrupted by SIGINT or SIGTERM (128 + SIGINT, as shells
//	     report it): the inputs in flight were finished and written, and a
//	     rerun with --resume does the rest
//
// ExitCode maps a command's error to its status; it knows the errors of
// package batch, so that a command returns what batch.Run returned.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/attend-go/attend/pipeline/batch"
)

// ErrUsage marks a command-line mistake; the tool exits with status 2.
var ErrUsage = errors.New("usage")

// ErrReported means the failures were already printed, one line per input;
// the tool exits with status 1 without printing more.
var ErrReported = errors.New("failures reported")

// Usagef returns a usage error with a message.
func Usagef(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUsage}, args...)...)
}

// ExitInterrupted is the exit status of an interrupted batch.
const ExitInterrupted = batch.ExitInterrupted

// ExitCode prints err to stderr prefixed by the tool's name (unless it was
// already reported) and returns the exit status (see the package comment).
//
// Of package batch's errors, ErrInterrupted exits with ExitInterrupted;
// ErrFailed (the failures were printed by batch.Run) with 1 and nothing
// more printed; ErrOptions, ErrShard, ErrFormat and ErrStdinInput, which
// come from the command line, and ErrExists (an output is in the way:
// the command line must say --resume or --overwrite), with 2.
func ExitCode(tool string, err error, stderr io.Writer) int {
	var help *Help
	switch {
	case err == nil:
		return 0
	case errors.As(err, &help):
		// A command run without Dispatch: its usage still gets printed.
		fmt.Fprint(stderr, help.Text)
		return 0
	case errors.Is(err, ErrUsage):
		if msg := strings.TrimPrefix(err.Error(), ErrUsage.Error()+": "); msg != ErrUsage.Error() {
			fmt.Fprintf(stderr, "%s: %s\n", tool, msg)
		}
		var bad *flagError
		if errors.As(err, &bad) {
			fmt.Fprintf(stderr, "Run '%s %s -h' for its flags and examples.\n", tool, bad.cmd)
		}
		return 2
	case errors.Is(err, ErrReported), errors.Is(err, batch.ErrFailed):
		return 1
	case errors.Is(err, batch.ErrInterrupted):
		fmt.Fprintf(stderr, "%s: %v\n", tool, err)
		return ExitInterrupted
	case errors.Is(err, batch.ErrOptions), errors.Is(err, batch.ErrShard),
		errors.Is(err, batch.ErrFormat), errors.Is(err, batch.ErrStdinInput),
		errors.Is(err, batch.ErrExists):
		fmt.Fprintf(stderr, "%s: %v\n", tool, err)
		return 2
	default:
		fmt.Fprintf(stderr, "%s: %v\n", tool, err)
		return 1
	}
}

// NewFlagSet returns a flag set that writes to stderr and whose usage is
// head, then every flag with its default, then examples.
func NewFlagSet(name, head, examples string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), head)
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), examples)
	}
	return fs
}

// Parse parses args, flags and positional arguments interleaved as GNU
// tools take them: "asr transcribe talk.wav -format json" sets -format,
// and "--" ends the flags, so that "asr transcribe -- -x.wav" names a
// file "-x.wav". Afterwards fs.Args() are the positional arguments in
// their order. "-" is positional (standard input).
//
// -h, -help or --help stop the command: Parse returns false and a *Help
// error carrying the usage text, which Dispatch prints to standard output
// (the command then succeeds), so that "asr transcribe -h | less" works.
// A bad flag is a usage error: ExitCode prints the flag package's
// message and a line on where help is, not the whole usage.
func Parse(fs *flag.FlagSet, args []string) (ok bool, err error) {
	out := fs.Output()
	var buf strings.Builder
	fs.SetOutput(&buf)
	positional, err := parseInterleaved(fs, args)
	fs.SetOutput(out)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return false, &Help{Text: buf.String()}
		}
		// The flag package's message, and where help is: the whole
		// usage would scroll the message away.
		return false, &flagError{cmd: fs.Name(), err: err}
	}
	// Leave the positional arguments in fs.Args(); "--" keeps any that
	// look like flags from being parsed again.
	if err := fs.Parse(append([]string{"--"}, positional...)); err != nil {
		return false, ErrUsage
	}
	return true, nil
}

// parseInterleaved parses the flags before, between and after the
// positional arguments, which it returns; everything after "--" is
// positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	positional := []string{}
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" && !isFlagValue(fs, args[:used-1]) {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	return positional, nil
}

// isFlagValue reports whether the argument after args is the value of
// the flag args end with ("-o --" writes to a file named "--"), rather
// than the end of the flags.
func isFlagValue(fs *flag.FlagSet, args []string) bool {
	if len(args) == 0 {
		return false
	}
	name := strings.TrimLeft(args[len(args)-1], "-")
	if !strings.HasPrefix(args[len(args)-1], "-") || strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, isBool := f.Value.(interface{ IsBoolFlag() bool })
	return !isBool || !b.IsBoolFlag()
}

// flagError is the usage error of a flag the flag package refused, in
// the command cmd.
type flagError struct {
	cmd string
	err error
}

func (e *flagError) Error() string   { return e.err.Error() }
func (e *flagError) Unwrap() []error { return []error{ErrUsage, e.err} }

// commandsHint is the line that follows an unknown command.
func commandsHint(tool string) string {
	return fmt.Sprintf("Run '%s -h' for the commands.", tool)
}

// Help is the "error" of -h: the command's usage, which belongs on
// standard output with exit status 0 (Dispatch prints it so).
type Help struct{ Text string }

func (h *Help) Error() string { return "help requested" }

// Examples returns the example command lines of a help text: the indented
// lines under its "Example" heading that start with the tool's name, up to
// the next heading (an unindented line, such as "Recipes:" for command
// lines that need data the tests do not have).
func Examples(tool, help string) []string {
	_, tail, ok := strings.Cut(help, "Example")
	if !ok {
		return nil
	}
	var out []string
	for i, line := range strings.Split(tail, "\n") {
		if i > 0 && line != "" && line[0] != ' ' && line[0] != '\t' {
			break
		}
		if line = strings.TrimSpace(line); strings.HasPrefix(line, tool+" ") {
			out = append(out, line)
		}
	}
	return out
}

// ExampleArgs splits an example command line into the tool's arguments,
// dropping the tool name and any shell redirection, and resolving
// arguments under testdata/ and models/ against the repository root, so tests can run
// the examples from a package directory.
func ExampleArgs(line, root string) []string {
	line, _, _ = strings.Cut(line, " >")
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return nil
	}
	args := fields[1:]
	for i, a := range args {
		if strings.HasPrefix(a, "testdata/") || strings.HasPrefix(a, "models/") {
			args[i] = filepath.Join(root, a)
		}
	}
	return args
}

// A Command runs one subcommand with its arguments (after the name).
type Command func(args []string, stdin io.Reader, stdout, stderr io.Writer) error

// Dispatch runs the subcommand args[0] of tool. With no arguments it prints
// usage to stderr and fails with a usage error; "-h", "help" and friends
// print usage to stdout; "version" prints the tool's name and what version
// returns (called only then: it may look at files, such as the models); an
// unknown name prints usage and fails with a usage error naming it.
func Dispatch(tool, usage string, version func() string, commands map[string]Command, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ErrUsage
	}
	switch name := args[0]; name {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 && name == "help" {
			// "asr help transcribe" is "asr transcribe -h".
			cmd, ok := commands[args[1]]
			if !ok {
				return Usagef("help: unknown command %q\n%s", args[1], commandsHint(tool))
			}
			return printHelp(cmd([]string{"-h"}, stdin, stdout, stderr), stdout)
		}
		fmt.Fprint(stdout, usage)
		return nil
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, tool, version())
		return nil
	default:
		cmd, ok := commands[name]
		if !ok {
			return Usagef("unknown command %q\n%s", name, commandsHint(tool))
		}
		return printHelp(cmd(args[1:], stdin, stdout, stderr), stdout)
	}
}

// printHelp prints the usage a command returned as its *Help error to
// stdout, and returns the other errors.
func printHelp(err error, stdout io.Writer) error {
	var h *Help
	if errors.As(err, &h) {
		_, err := fmt.Fprint(stdout, h.Text)
		return err
	}
	return err
}
