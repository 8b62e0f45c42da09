package clitest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A DocCommand is one command line of a tool as the documentation shows
// it, in a fenced code block or an inline code span.
type DocCommand struct {
	Page string   // the page, relative to the repository root (README.md, docs/speech.md)
	Line int      // the line the command starts on, from 1
	Args []string // the arguments after the tool's name, unquoted
}

func (c DocCommand) String() string {
	return c.Page + ":" + strconv.Itoa(c.Line) + ": " + strings.Join(c.Args, " ")
}

// DocPages returns the documentation pages under the repository root:
// README.md, then docs/*.md in name order.
func DocPages(t testing.TB, root string) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(pages)
	return append([]string{filepath.Join(root, "README.md")}, pages...)
}

// DocCommands returns every command line of tool (asr, caption) in the
// documentation pages under root: in the shell, YAML and untyped fenced
// code blocks (comments dropped, lines ending in a backslash joined, a
// leading "$ " prompt allowed) and in the inline code spans of the prose.
// A command is the tool's name, or "go run ./cmd/TOOL", at the start of a
// line or after a space, quote, parenthesis or shell operator; its
// arguments end at the end of the line, a pipe, a redirection, a semicolon,
// "&&", or the quote that opened it (`'asr merge -o out.jsonl a b'`).
// Lines naming the tool with no arguments are left out.
func DocCommands(t testing.TB, root, tool string) []DocCommand {
	t.Helper()
	start := regexp.MustCompile(`(^|[\s'"(;|&])(go run \./cmd/)?` + regexp.QuoteMeta(tool) + `(\s|$)`)
	var out []DocCommand
	for _, path := range DocPages(t, root) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := filepath.Rel(root, path)
		page = filepath.ToSlash(page)
		for _, s := range shellSnippets(string(data)) {
			for _, m := range start.FindAllStringSubmatchIndex(s.text, -1) {
				var quote byte
				if m[3] > m[2] && (s.text[m[2]] == '\'' || s.text[m[2]] == '"') {
					quote = s.text[m[2]]
				}
				args := shellWords(s.text[m[1]:], quote)
				if len(args) > 0 {
					line := s.line + strings.Count(s.text[:m[1]], "\n")
					out = append(out, DocCommand{Page: page, Line: line, Args: args})
				}
			}
		}
	}
	return out
}

// snippet is shell text from a page and the line it starts on.
type snippet struct {
	text string
	line int
}

// shellSnippets returns the shell lines of a Markdown page's code blocks
// (comments dropped, continuations joined) and its inline code spans.
func shellSnippets(md string) []snippet {
	var out []snippet
	lines := strings.Split(md, "\n")
	var para []string // prose of the current paragraph
	paraStart := 0
	flush := func() {
		out = append(out, inlineCode(strings.Join(para, "\n"), paraStart)...)
		para = nil
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		fence, lang, ok := fenceOpen(line)
		if !ok {
			if strings.TrimSpace(line) == "" {
				flush()
			} else {
				if para == nil {
					paraStart = i + 1
				}
				para = append(para, line)
			}
			continue
		}
		flush()
		shell := lang == "" || lang == "sh" || lang == "bash" || lang == "shell" || lang == "yaml"
		var cur strings.Builder
		curLine := 0
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != fence; i++ {
			if !shell {
				continue
			}
			l := stripComment(lines[i])
			if cur.Len() == 0 {
				curLine = i + 1
				l = strings.TrimPrefix(strings.TrimSpace(l), "$ ")
			}
			if strings.HasSuffix(strings.TrimRight(l, " \t"), `\`) {
				cur.WriteString(strings.TrimSuffix(strings.TrimRight(l, " \t"), `\`))
				cur.WriteString(" ")
				continue
			}
			cur.WriteString(l)
			out = append(out, snippet{text: cur.String(), line: curLine})
			cur.Reset()
		}
	}
	flush()
	return out
}

// fenceOpen reports whether line opens a fenced code block, and returns
// the fence that closes it and the block's language.
func fenceOpen(line string) (fence, lang string, ok bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "```") {
		return "", "", false
	}
	return "```", strings.TrimSpace(strings.TrimLeft(t, "`")), true
}

// inlineCode returns the code spans of a paragraph, each with its line.
func inlineCode(para string, first int) []snippet {
	var out []snippet
	for rest, off := para, 0; ; {
		i := strings.IndexByte(rest, '`')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(rest[i+1:], '`')
		if j < 0 {
			return out
		}
		code := rest[i+1 : i+1+j]
		line := first + strings.Count(para[:off+i], "\n")
		out = append(out, snippet{text: strings.Join(strings.Fields(code), " "), line: line})
		off += i + j + 2
		rest = rest[i+j+2:]
	}
}

// stripComment drops a shell comment: a # at the start of the line or
// after a blank, outside quotes.
func stripComment(line string) string {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return line[:i]
		}
	}
	return line
}

// shellWords splits s into words as a shell would (quotes removed,
// backslash escapes inside double quotes and outside quotes honoured),
// up to the end, a closing quote when the command started inside one
// (quote), or an operator: |, ;, &&, ), <, or a redirection (>, 2>).
func shellWords(s string, quote byte) []string {
	var words []string
	var w strings.Builder
	inWord := false
	end := func() {
		if inWord {
			words = append(words, w.String())
		}
		w.Reset()
		inWord = false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == quote:
			end()
			return words
		case c == ' ' || c == '\t' || c == '\n':
			end()
		case c == '|' || c == ';' || c == ')' || c == '<' || c == '>' || (c == '&' && i+1 < len(s) && s[i+1] == '&'):
			if c == '>' && w.String() == "2" {
				w.Reset()
				inWord = false
			}
			end()
			return words
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
			inWord = true
		case c == '\'' || c == '"':
			k := strings.IndexByte(s[i+1:], c)
			if k < 0 {
				k = len(s) - i - 1
			}
			w.WriteString(strings.ReplaceAll(s[i+1:i+1+k], `\`, ""))
			inWord = true
			i += k + 1
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	end()
	return words
}

// HelpFlags returns the names of the flags a command's help text lists
// under "Flags:" (the lines "  -name ..." that package flag prints), with
// h and help, which every command takes.
func HelpFlags(help string) map[string]bool {
	flags := map[string]bool{"h": true, "help": true}
	_, list, _ := strings.Cut(help, "\nFlags:\n")
	for _, line := range strings.Split(list, "\n") {
		if rest, ok := strings.CutPrefix(line, "  -"); ok {
			name, _, _ := strings.Cut(rest, " ")
			flags[name] = true
		}
	}
	return flags
}

// UnknownFlags returns the flags in args (-name, --name, -name=value;
// not "-", negative numbers or anything after "--") that flags lacks.
func UnknownFlags(flags map[string]bool, args []string) []string {
	var bad []string
	for _, a := range args {
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' || (a[1] >= '0' && a[1] <= '9') || a[1] == '.' {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if !flags[name] {
			bad = append(bad, a)
		}
	}
	return bad
}
