package batch

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Record is one input's line in a combined output.
//
// JSONL (one JSON object per line; "result" only in JSONL):
//
//	{"path":"corpus/a.wav","model":"asr-default","started":"2026-01-02T15:04:05.123Z","seconds":0.412,"text":"hello world","result":{...}}
//	{"path":"corpus/b.wav","model":"asr-default","started":"2026-01-02T15:04:05.130Z","seconds":0.001,"text":"","error":"corpus/b.wav: audio: empty input"}
//
// TSV and CSV have a header row and the columns path, text, error,
// model, seconds, started. In TSV a backslash, tab, newline or carriage
// return inside a field is written \\, \t, \n, \r; in CSV fields are
// quoted as RFC 4180 says, and line breaks inside a field become spaces,
// so that in every format one record is exactly one line.
type Record struct {
	Path    string          `json:"path"`
	Model   string          `json:"model,omitempty"`
	Started string          `json:"started,omitempty"` // RFC 3339, UTC, milliseconds
	Seconds float64         `json:"seconds"`           // time in the processor
	Text    string          `json:"text"`              // the flat result
	Result  json.RawMessage `json:"result,omitempty"`  // the structured result
	Error   string          `json:"error,omitempty"`   // why the input failed
	// Truncated and Warnings are Result's (JSONL only).
	Truncated bool     `json:"truncated,omitempty"`
	Warnings  []string `json:"warnings,omitempty"`
}

// Failed reports whether the record is a failure.
func (r *Record) Failed() bool { return r.Error != "" }

// The combined output formats.
const (
	FormatJSONL = "jsonl"
	FormatTSV   = "tsv"
	FormatCSV   = "csv"
)

// ErrFormat marks an unknown output format name.
var ErrFormat = errors.New("batch: unknown format")

// FormatOf returns the combined output format for a file name: explicit
// when it is not empty, else from the extension (.tsv, .csv; anything
// else, .jsonl and .ndjson included, is JSONL).
func FormatOf(path, explicit string) (string, error) {
	if explicit != "" {
		switch f := strings.ToLower(explicit); f {
		case FormatJSONL, FormatTSV, FormatCSV:
			return f, nil
		case "ndjson":
			return FormatJSONL, nil
		}
		return "", fmt.Errorf("%w %q (want jsonl, tsv or csv)", ErrFormat, explicit)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".tsv":
		return FormatTSV, nil
	case ".csv":
		return FormatCSV, nil
	}
	return FormatJSONL, nil
}

// codec encodes records as lines and decodes them back.
type codec interface {
	// header returns the header line with its newline, or nil.
	header() []byte
	// encode appends r as one line ending in '\n' to dst.
	encode(dst []byte, r *Record) ([]byte, error)
	// decode parses one line without its '\n'.
	decode(line []byte) (Record, error)
}

func codecFor(format string) codec {
	switch format {
	case FormatTSV:
		return tsvCodec{}
	case FormatCSV:
		return csvCodec{}
	}
	return jsonlCodec{}
}

// key returns path as it reads back from a record, the identity resume
// and merge compare: JSON replaces invalid UTF-8, CSV line breaks.
func key(c codec, path string) string {
	line, err := c.encode(nil, &Record{Path: path})
	if err != nil {
		return path
	}
	r, err := c.decode(line[:len(line)-1])
	if err != nil {
		return path
	}
	return r.Path
}

type jsonlCodec struct{}

func (jsonlCodec) header() []byte { return nil }

func (jsonlCodec) encode(dst []byte, r *Record) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil { // Encode ends the line
		return dst, err
	}
	return buf.Bytes(), nil
}

func (jsonlCodec) decode(line []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		return r, err
	}
	if r.Path == "" {
		return r, errors.New(`no "path"`)
	}
	return r, nil
}

// columns are the TSV and CSV columns, in order.
var columns = []string{"path", "text", "error", "model", "seconds", "started"}

func row(r *Record) []string {
	return []string{r.Path, r.Text, r.Error, r.Model, strconv.FormatFloat(r.Seconds, 'f', -1, 64), r.Started}
}

func fromRow(f []string) (Record, error) {
	if len(f) != len(columns) {
		return Record{}, fmt.Errorf("%d fields, want %d", len(f), len(columns))
	}
	r := Record{Path: f[0], Text: f[1], Error: f[2], Model: f[3], Started: f[5]}
	if r.Path == "" {
		return r, errors.New("empty path")
	}
	if f[4] != "" {
		s, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			return r, fmt.Errorf("seconds %q: not a number", f[4])
		}
		r.Seconds = s
	}
	return r, nil
}

type tsvCodec struct{}

func (tsvCodec) header() []byte { return []byte(strings.Join(columns, "\t") + "\n") }

func (tsvCodec) encode(dst []byte, r *Record) ([]byte, error) {
	for i, f := range row(r) {
		if i > 0 {
			dst = append(dst, '\t')
		}
		dst = append(dst, tsvEscaper.Replace(f)...)
	}
	return append(dst, '\n'), nil
}

var tsvEscaper = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)

func (tsvCodec) decode(line []byte) (Record, error) {
	fields := strings.Split(string(line), "\t")
	for i, f := range fields {
		u, err := tsvUnescape(f)
		if err != nil {
			return Record{}, err
		}
		fields[i] = u
	}
	return fromRow(fields)
}

func tsvUnescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i++; i == len(s) {
			return "", errors.New(`a field ends in a lone \`)
		}
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		default:
			return "", fmt.Errorf(`unknown escape \%c`, s[i])
		}
	}
	return b.String(), nil
}

type csvCodec struct{}

func (csvCodec) header() []byte { return []byte(strings.Join(columns, ",") + "\n") }

var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

func (csvCodec) encode(dst []byte, r *Record) ([]byte, error) {
	f := row(r)
	for i := range f {
		f[i] = lineBreaks.Replace(f[i])
	}
	buf := bytes.NewBuffer(dst)
	w := csv.NewWriter(buf)
	if err := w.Write(f); err != nil {
		return dst, err
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

func (csvCodec) decode(line []byte) (Record, error) {
	rd := csv.NewReader(bytes.NewReader(line))
	rd.FieldsPerRecord = -1
	f, err := rd.Read()
	if err != nil {
		return Record{}, err
	}
	if _, err := rd.Read(); err == nil {
		return Record{}, errors.New("more than one record on the line")
	}
	return fromRow(f)
}
