package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// Registry collects a tool's subcommands, so that each command lives in its
// own file and registers itself from an init function:
//
//	func init() { commands.Add("transcribe", "turn speech into text", runTranscribe) }
//
// The usage text lists them in name order with their one-line summaries.
//
// Default names the command that runs when the first argument is not a
// command name (nor help or version): "caption photo.jpg" runs
// "caption describe photo.jpg", "asr talk.wav" runs "asr transcribe
// talk.wav". A first argument that is a plain word and no file ("asr
// transcrib") is an unknown command.
type Registry struct {
	Default   string
	commands  map[string]Command
	summaries map[string]string
}

// Add registers a command; a second command of the same name panics (a
// programming error caught by any test of the tool).
func (r *Registry) Add(name, summary string, c Command) {
	if r.commands == nil {
		r.commands, r.summaries = map[string]Command{}, map[string]string{}
	}
	if _, dup := r.commands[name]; dup {
		panic(fmt.Sprintf("cli: command %q registered twice", name))
	}
	r.commands[name], r.summaries[name] = c, summary
}

// Usage returns head, the command list (with "version" added) and tail.
func (r *Registry) Usage(head, tail string) string {
	names := make([]string, 0, len(r.commands)+1)
	for n := range r.commands {
		names = append(names, n)
	}
	names = append(names, "version")
	slices.Sort(names)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("\nCommands:\n\n")
	for _, n := range names {
		s := r.summaries[n]
		if n == "version" {
			s = "print the version"
		}
		fmt.Fprintf(&b, "\t%-*s  %s\n", width, n, s)
	}
	b.WriteString(tail)
	return b.String()
}

// Names returns the registered command names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.commands))
	for n := range r.commands {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Help returns a command's help text, as "-h" prints it (tests extract
// the examples from it).
func (r *Registry) Help(name string) string {
	var stdout, stderr strings.Builder
	if c, ok := r.commands[name]; ok {
		_ = printHelp(c([]string{"-h"}, strings.NewReader(""), &stdout, &stderr), &stdout)
	}
	return stdout.String() + stderr.String()
}

// Dispatch runs args through Dispatch with the registered commands.
func (r *Registry) Dispatch(tool, head, tail string, version func() string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if r.Default != "" && len(args) > 0 && r.commands[r.Default] != nil {
		switch a := args[0]; {
		case r.commands[a] != nil, a == "version", a == "help", a == "-h", a == "-help", a == "--help", a == "-version", a == "--version":
		case !strings.HasPrefix(a, "-") && !looksLikePath(a):
			// A word that names neither a command nor a file is a
			// mistyped command, not an input.
			return Usagef("unknown command %q, and no file of that name\n%s", a, commandsHint(tool))
		default:
			args = append([]string{r.Default}, args...)
		}
	}
	return Dispatch(tool, r.Usage(head, tail), version, r.commands, args, stdin, stdout, stderr)
}

// looksLikePath reports whether a first argument names an input rather
// than a mistyped command: it has a dot or a slash, or a file has that
// name.
func looksLikePath(arg string) bool {
	if strings.ContainsAny(arg, `./\`) {
		return true
	}
	_, err := os.Stat(arg)
	return err == nil
}
