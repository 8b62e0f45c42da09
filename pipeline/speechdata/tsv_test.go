package speechdata

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadTSV(t *testing.T) {
	tests := []struct {
		name, content string
		want          []Utterance // paths relative to the manifest's directory
	}{
		{
			name:    "no header",
			content: "a.wav\thello world\nsub/b.wav\tgood night\n",
			want: []Utterance{
				{ID: "a.wav", Path: "a.wav", Text: "hello world"},
				{ID: "sub/b.wav", Path: "sub/b.wav", Text: "good night"},
			},
		},
		{
			name:    "no header, extra columns ignored",
			content: "a.wav\thello\t0001\tm\n",
			want:    []Utterance{{ID: "a.wav", Path: "a.wav", Text: "hello"}},
		},
		{
			name:    "header with speaker and extra columns",
			content: "path\ttext\tspeaker\tgender\tage\na.wav\tWE CALL IT BEAR\t0001\tm\t6\n",
			want:    []Utterance{{ID: "a.wav", Path: "a.wav", Text: "WE CALL IT BEAR", Speaker: "0001"}},
		},
		{
			name:    "header columns in another order, with id",
			content: "path\tspeaker\tid\ttext\na.wav\tspk\tutt1\thi\n",
			want:    []Utterance{{ID: "utt1", Path: "a.wav", Text: "hi", Speaker: "spk"}},
		},
		{
			name:    "empty id falls back to the path",
			content: "path\ttext\tspeaker\tid\na.wav\thi\t\t\n",
			want:    []Utterance{{ID: "a.wav", Path: "a.wav", Text: "hi"}},
		},
		{
			name:    "BOM, CRLF and blank lines",
			content: "\uFEFFpath\ttext\r\n\r\na.wav\thi there\r\n  \n",
			want:    []Utterance{{ID: "a.wav", Path: "a.wav", Text: "hi there"}},
		},
		{
			name:    "empty text is kept",
			content: "a.wav\t\n",
			want:    []Utterance{{ID: "a.wav", Path: "a.wav"}},
		},
		{
			name:    "absolute path kept",
			content: "/data/a.wav\thi\n",
			want:    []Utterance{{ID: "/data/a.wav", Path: "/data/a.wav", Text: "hi"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "m.tsv")
			writeFiles(t, dir, map[string]string{"m.tsv": tt.content})
			got, err := Read(file)
			if err != nil {
				t.Fatal(err)
			}
			want := slices.Clone(tt.want)
			for i := range want {
				want[i].Path = resolve(dir, want[i].Path)
			}
			if !slices.Equal(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestReadTSVErrors(t *testing.T) {
	tests := []struct {
		name, content string
		sentinel      error
		msg           string // the error must contain it
	}{
		{"empty file", "", ErrEmpty, "m.tsv: no utterances"},
		{"header only", "path\ttext\n", ErrEmpty, "no utterances"},
		{"one field", "a.wav\thi\nb.wav\n", ErrSyntax, "m.tsv:2: malformed line: 1 tab-separated fields, want at least 2 (path, text)"},
		{"missing speaker column in a row", "path\ttext\tspeaker\na.wav\thi\n", ErrSyntax, "m.tsv:2: malformed line: 2 tab-separated fields, want at least 3 (path, text, speaker)"},
		{"empty path", "\thi\n", ErrSyntax, "m.tsv:1: malformed line: empty path"},
		{"header without text", "path\ttranscript\na.wav\thi\n", ErrSyntax, "m.tsv:1: malformed line: header \"path\\ttranscript\" has no text column"},
		{"header names a column twice", "path\ttext\ttext\n", ErrSyntax, "header names column \"text\" twice"},
		{"duplicate path", "a.wav\thi\nb.wav\tho\n\na.wav\thu\n", ErrDuplicateID, "m.tsv:4: duplicate utterance id \"a.wav\", first at "},
		{"duplicate id", "path\ttext\tid\na.wav\thi\tu1\nb.wav\tho\tu1\n", ErrDuplicateID, "m.tsv:3: duplicate utterance id \"u1\""},
		{"line too long", "a.wav\t" + strings.Repeat("x", maxLine) + "\n", ErrSyntax, "m.tsv:1: malformed line: line longer than 16 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"m.tsv": tt.content})
			_, err := Read(filepath.Join(dir, "m.tsv"))
			if !errors.Is(err, tt.sentinel) {
				t.Fatalf("error %v, want %v", err, tt.sentinel)
			}
			if !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), "speechdata: ") {
				t.Errorf("error %q, want it to start with \"speechdata: \" and contain %q", err, tt.msg)
			}
		})
	}
}

func TestReadMissing(t *testing.T) {
	_, err := Read(filepath.Join(t.TempDir(), "nope.tsv"))
	if err == nil || !strings.Contains(err.Error(), "nope.tsv") || !strings.HasPrefix(err.Error(), "speechdata: ") {
		t.Fatalf("error %v, want one naming nope.tsv", err)
	}
}

func TestWriteTSVRoundTrip(t *testing.T) {
	dir := t.TempDir()
	utts := []Utterance{
		{ID: "84-121123-0000", Path: filepath.Join(dir, "a.flac"), Text: "GO DO YOU HEAR", Speaker: "84"},
		{ID: "u2", Path: filepath.Join(dir, "sub", "b.wav"), Text: "  spaced  text ", Speaker: ""},
		{ID: "u3", Path: filepath.Join(dir, "c.ogg"), Text: "", Speaker: "s"},
		{ID: "path", Path: filepath.Join(dir, "path"), Text: "ünïcödé ’ text", Speaker: "x y"},
	}
	var buf bytes.Buffer
	if err := WriteTSV(&buf, utts); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(buf.String(), "\n"); first != "path\ttext\tspeaker\tid" {
		t.Errorf("header %q", first)
	}
	file := filepath.Join(dir, "out.tsv")
	writeFiles(t, dir, map[string]string{"out.tsv": buf.String()})
	got, err := Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, utts) {
		t.Errorf("round trip\n got  %+v\nwant %+v", got, utts)
	}
}

func TestWriteTSVErrors(t *testing.T) {
	tests := []struct {
		name     string
		utts     []Utterance
		sentinel error
		msg      string
	}{
		{"tab in text", []Utterance{{ID: "a", Path: "a.wav", Text: "x\ty"}}, ErrUnwritable, `utterance 0 (id "a"): cannot be written as TSV: text "x\ty" holds a tab or line break`},
		{"newline in speaker", []Utterance{{ID: "a", Path: "a.wav"}, {ID: "b", Path: "b.wav", Speaker: "s\n"}}, ErrUnwritable, `utterance 1 (id "b"): cannot be written as TSV: speaker`},
		{"carriage return in path", []Utterance{{ID: "a", Path: "a\r.wav"}}, ErrUnwritable, "path"},
		{"empty path", []Utterance{{ID: "a"}}, ErrUnwritable, "empty path"},
		{"duplicate id", []Utterance{{ID: "a", Path: "1.wav"}, {ID: "a", Path: "2.wav"}}, ErrDuplicateID, `utterances 0 and 1: duplicate utterance id "a"`},
		{"empty id duplicates a path", []Utterance{{ID: "1.wav", Path: "x.wav"}, {Path: "1.wav"}}, ErrDuplicateID, `"1.wav"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := WriteTSV(&buf, tt.utts)
			if !errors.Is(err, tt.sentinel) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("error %v, want %v containing %q", err, tt.sentinel, tt.msg)
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %d bytes before failing", buf.Len())
			}
		})
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteTSVWriterError(t *testing.T) {
	err := WriteTSV(failWriter{}, []Utterance{{ID: "a", Path: "a.wav"}})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("error %v, want the writer's", err)
	}
}
