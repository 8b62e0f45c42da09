package speechdata

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// tsvColumns are the column indices of a TSV manifest; -1 when absent.
type tsvColumns struct{ path, text, speaker, id int }

// need is the number of fields a row must have to hold every column.
func (c tsvColumns) need() int { return max(c.path, c.text, c.speaker, c.id) + 1 }

// readTSV reads a TSV manifest: path<TAB>text[<TAB>…] rows, with an
// optional header line whose first field is "path".
func readTSV(file string) ([]Utterance, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("speechdata: %w", err)
	}
	defer f.Close()
	return parseTSV(file, f)
}

// parseTSV reads a TSV manifest named file from r.
func parseTSV(file string, r io.Reader) ([]Utterance, error) {
	dir := filepath.Dir(file)
	cols := tsvColumns{path: 0, text: 1, speaker: -1, id: -1}
	var utts []Utterance
	ids := seen{}
	first := true
	err := scanLines(file, r, func(line int, text string) error {
		fields := strings.Split(text, "\t")
		if first {
			first = false
			if fields[0] == "path" {
				var err error
				cols, err = headerColumns(file, line, fields)
				return err
			}
		}
		if len(fields) < cols.need() {
			return lineError(file, line, ErrSyntax, "%d tab-separated fields, want at least %d (%s)",
				len(fields), cols.need(), cols.describe())
		}
		u := Utterance{Path: fields[cols.path], Text: fields[cols.text]}
		if u.Path == "" {
			return lineError(file, line, ErrSyntax, "empty path")
		}
		u.ID = u.Path
		if cols.id >= 0 && fields[cols.id] != "" {
			u.ID = fields[cols.id]
		}
		if cols.speaker >= 0 {
			u.Speaker = fields[cols.speaker]
		}
		if err := ids.add(u.ID, file, line); err != nil {
			return err
		}
		u.Path = resolve(dir, u.Path)
		utts = append(utts, u)
		return nil
	})
	return utts, err
}

// headerColumns reads a header line (its first field is "path"): it must
// name a text column; speaker and id columns are optional; other columns
// are ignored.
func headerColumns(file string, line int, fields []string) (tsvColumns, error) {
	cols := tsvColumns{path: 0, text: -1, speaker: -1, id: -1}
	named := map[string]*int{"text": &cols.text, "speaker": &cols.speaker, "id": &cols.id}
	for i, name := range fields[1:] {
		if p, ok := named[name]; ok {
			if *p >= 0 {
				return cols, lineError(file, line, ErrSyntax, "header names column %q twice", name)
			}
			*p = i + 1
		}
	}
	if cols.text < 0 {
		return cols, lineError(file, line, ErrSyntax, "header %q has no text column", strings.Join(fields, "\t"))
	}
	return cols, nil
}

// describe lists the column names in index order.
func (c tsvColumns) describe() string {
	names := make([]string, c.need())
	for i := range names {
		names[i] = "…"
	}
	for name, i := range map[string]int{"path": c.path, "text": c.text, "speaker": c.speaker, "id": c.id} {
		if i >= 0 {
			names[i] = name
		}
	}
	return strings.Join(names, ", ")
}

// WriteTSV writes utts as a TSV manifest with the header
// "path\ttext\tspeaker\tid", which Read reads back to the same utterances
// (an empty ID reads back as the path). Paths are written as they are:
// Read resolves relative ones against the manifest's directory, so write
// absolute paths, or paths relative to where the manifest will be.
//
// A field holding a tab, newline or carriage return and an empty path
// cannot be written (ErrUnwritable; nothing is escaped), nor can a
// duplicate id (ErrDuplicateID); nothing is written then.
func WriteTSV(w io.Writer, utts []Utterance) error {
	ids := make(map[string]int, len(utts))
	for i, u := range utts {
		id := cmp.Or(u.ID, u.Path)
		if j, dup := ids[id]; dup {
			return fmt.Errorf("speechdata: utterances %d and %d: %w %q", j, i, ErrDuplicateID, id)
		}
		ids[id] = i
		if u.Path == "" {
			return fmt.Errorf("speechdata: utterance %d (id %q): %w: empty path", i, u.ID, ErrUnwritable)
		}
		for _, f := range [...]struct{ name, value string }{
			{"path", u.Path}, {"text", u.Text}, {"speaker", u.Speaker}, {"id", u.ID},
		} {
			if strings.ContainsAny(f.value, "\t\n\r") {
				return fmt.Errorf("speechdata: utterance %d (id %q): %w: %s %q holds a tab or line break",
					i, u.ID, ErrUnwritable, f.name, f.value)
			}
		}
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("path\ttext\tspeaker\tid\n")
	for _, u := range utts {
		bw.WriteString(u.Path)
		bw.WriteByte('\t')
		bw.WriteString(u.Text)
		bw.WriteByte('\t')
		bw.WriteString(u.Speaker)
		bw.WriteByte('\t')
		bw.WriteString(u.ID)
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("speechdata: writing manifest: %w", err)
	}
	return nil
}
