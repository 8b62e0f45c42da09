package batch

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

func TestRecordRoundTrip(t *testing.T) {
	tricky := []string{
		"plain", "", "tab\there", "new\nline", "cr\rlf\r\n", `back\slash\n`, `"quoted", comma`,
		"ünïcödé ✓", " leading space", "=SUM(A1)", "<html> & co",
	}
	for _, format := range []string{FormatJSONL, FormatTSV, FormatCSV} {
		c := codecFor(format)
		for _, s := range tricky {
			r := Record{Path: "p/" + s, Text: s, Error: s, Model: s, Seconds: 1.25, Started: "2026-01-02T03:04:05.678Z"}
			line, err := c.encode(nil, &r)
			if err != nil {
				t.Fatalf("%s: encode %q: %v", format, s, err)
			}
			if bytes.Count(line, []byte("\n")) != 1 || line[len(line)-1] != '\n' {
				t.Fatalf("%s: %q is not one line: %q", format, s, line)
			}
			got, err := c.decode(line[:len(line)-1])
			if err != nil {
				t.Fatalf("%s: decode %q: %v", format, line, err)
			}
			want := r
			if format == FormatCSV { // line breaks become spaces
				want.Path, want.Text, want.Error, want.Model = lineBreaks.Replace(r.Path), lineBreaks.Replace(s), lineBreaks.Replace(s), lineBreaks.Replace(s)
			}
			if got.Path != want.Path || got.Text != want.Text || got.Error != want.Error || got.Model != want.Model || got.Seconds != want.Seconds || got.Started != want.Started {
				t.Errorf("%s: %+v came back as %+v", format, want, got)
			}
			if k := key(c, r.Path); k != got.Path {
				t.Errorf("%s: key(%q) = %q, want %q", format, r.Path, k, got.Path)
			}
		}
	}
}

func TestRecordJSONL(t *testing.T) {
	r := Record{Path: "a.wav", Model: "m", Started: "2026-01-02T03:04:05.678Z", Seconds: 0.5, Text: "a <b>", Result: json.RawMessage(`{"k":1}`)}
	line, err := jsonlCodec{}.encode(nil, &r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"path":"a.wav","model":"m","started":"2026-01-02T03:04:05.678Z","seconds":0.5,"text":"a <b>","result":{"k":1}}` + "\n"
	if string(line) != want {
		t.Errorf("got  %s\nwant %s", line, want)
	}
}

func TestFormatOf(t *testing.T) {
	tests := []struct{ path, explicit, want string }{
		{"r.jsonl", "", FormatJSONL},
		{"r.TSV", "", FormatTSV},
		{"r.csv", "", FormatCSV},
		{"results", "", FormatJSONL},
		{"-", "", FormatJSONL},
		{"r.csv", "tsv", FormatTSV},
		{"r", "NDJSON", FormatJSONL},
	}
	for _, tc := range tests {
		if got, err := FormatOf(tc.path, tc.explicit); err != nil || got != tc.want {
			t.Errorf("FormatOf(%q, %q) = %q, %v; want %q", tc.path, tc.explicit, got, err, tc.want)
		}
	}
	if _, err := FormatOf("r", "xml"); !errors.Is(err, ErrFormat) {
		t.Errorf("FormatOf xml: %v, want ErrFormat", err)
	}
}
