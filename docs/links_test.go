package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// pages returns README.md and docs/*.md, relative to this directory.
func pages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no pages in docs/")
	}
	slices.Sort(docs)
	return append([]string{filepath.Join("..", "README.md")}, docs...)
}

// prose returns a Markdown page without its fenced code blocks (their
// lines left empty, so that line numbers stay) and its headings.
func prose(md string) (text string, headings []string) {
	lines := strings.Split(md, "\n")
	inFence := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
			lines[i] = ""
			continue
		}
		if inFence {
			lines[i] = ""
			continue
		}
		if h := strings.TrimLeft(l, "#"); len(h) < len(l) && len(l)-len(h) <= 6 && strings.HasPrefix(h, " ") {
			headings = append(headings, strings.TrimSpace(h))
		}
	}
	return strings.Join(lines, "\n"), headings
}

// anchor returns the id GitHub gives a heading: lower case, letters,
// digits, spaces, hyphens and underscores kept, spaces made hyphens.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the ids of a page's headings, with GitHub's -1, -2, …
// for repeated ones.
func anchors(headings []string) map[string]bool {
	ids := map[string]bool{}
	seen := map[string]int{}
	for _, h := range headings {
		id := anchor(h)
		if n := seen[id]; n > 0 {
			seen[id]++
			id += "-" + string(rune('0'+n))
		} else {
			seen[id] = 1
		}
		ids[id] = true
	}
	return ids
}

var linkRE = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<(?:img|a)\s[^>]*(?:src|href)="([^"]+)"`)

// links returns the targets of a page's Markdown links and images and of
// its <img src> and <a href>, with the line of each.
func links(text string) (targets []string, lines []int) {
	for _, m := range linkRE.FindAllStringSubmatchIndex(text, -1) {
		lo, hi := m[2], m[3]
		if lo < 0 {
			lo, hi = m[4], m[5]
		}
		targets = append(targets, text[lo:hi])
		lines = append(lines, 1+strings.Count(text[:lo], "\n"))
	}
	return targets, lines
}

// TestLinksResolve checks that every relative link of README.md and
// docs/*.md names an existing file or directory and, when it has an
// #anchor into a Markdown page, a heading of that page.
func TestLinksResolve(t *testing.T) {
	ids := map[string]map[string]bool{} // page path → heading ids
	texts := map[string]string{}
	for _, p := range pages(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text, headings := prose(string(data))
		texts[p], ids[filepath.Clean(p)] = text, anchors(headings)
	}
	checked := 0
	for _, p := range pages(t) {
		targets, lines := links(texts[p])
		for i, target := range targets {
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			path, frag, _ := strings.Cut(target, "#")
			dest := p
			if path != "" {
				dest = filepath.Join(filepath.Dir(p), filepath.FromSlash(path))
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s:%d: link %q: %v", p, lines[i], target, err)
					continue
				}
			}
			if frag == "" || !strings.HasSuffix(dest, ".md") {
				continue
			}
			known, ok := ids[filepath.Clean(dest)]
			if !ok {
				data, err := os.ReadFile(dest)
				if err != nil {
					t.Fatal(err)
				}
				_, headings := prose(string(data))
				known = anchors(headings)
				ids[filepath.Clean(dest)] = known
			}
			if !known[frag] {
				t.Errorf("%s:%d: link %q: %s has no heading #%s", p, lines[i], target, dest, frag)
			}
		}
	}
	t.Logf("%d relative links checked", checked)
	if checked < 50 {
		t.Errorf("checked %d relative links; the extraction broke", checked)
	}
}

// TestEveryPageLinkedFromReadme checks that README.md links to every page
// of docs/, so that none is an orphan.
func TestEveryPageLinkedFromReadme(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := prose(string(readme))
	targets, _ := links(text)
	for _, p := range pages(t)[1:] {
		want := "docs/" + p
		if !slices.ContainsFunc(targets, func(s string) bool { return strings.Split(s, "#")[0] == want }) {
			t.Errorf("README.md does not link to %s", want)
		}
	}
}

// maxReadmeLines bounds README.md: it is the front door (what attend is,
// set-up, a screen of examples per tool, where to read more); the rest
// belongs in docs/ (issue 32).
const maxReadmeLines = 300

func TestReadmeIsShort(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readme), "\n"); n > maxReadmeLines {
		t.Errorf("README.md has %d lines, over %d: move detail to a page of docs/ and link it", n, maxReadmeLines)
	}
}
