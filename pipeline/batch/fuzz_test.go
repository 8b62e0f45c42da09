package batch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRecordCodecs: any record survives encoding as exactly one line
// and decodes to itself, up to what the format cannot hold (invalid
// UTF-8 in JSON, line breaks in CSV), which key reports identically.
func FuzzRecordCodecs(f *testing.F) {
	f.Add("a.wav", "hello", "", "m", 0.5)
	f.Add("t\tab\\n", "new\nline\r", "err,\"q\"", "", 1e-6)
	f.Add("\xff\xfe", "\u2028", "\\", "=1", 0.0)
	f.Fuzz(func(t *testing.T, path, text, errStr, model string, secs float64) {
		if path == "" || secs != secs || secs < 0 || secs > 1e12 {
			return
		}
		for _, format := range []string{FormatJSONL, FormatTSV, FormatCSV} {
			c := codecFor(format)
			r := Record{Path: path, Text: text, Error: errStr, Model: model, Seconds: secs, Started: "2026-01-01T00:00:00.000Z"}
			line, err := c.encode(nil, &r)
			if err != nil {
				t.Fatalf("%s: encode: %v", format, err)
			}
			if bytes.IndexByte(line, '\n') != len(line)-1 {
				t.Fatalf("%s: %q is not one line", format, line)
			}
			got, err := c.decode(line[:len(line)-1])
			if err != nil {
				t.Fatalf("%s: decode %q: %v", format, line, err)
			}
			if got.Path != key(c, path) {
				t.Fatalf("%s: path %q came back as %q, key says %q", format, path, got.Path, key(c, path))
			}
			exact := format == FormatTSV ||
				format == FormatJSONL && utf8.ValidString(text) && utf8.ValidString(errStr) && utf8.ValidString(model) ||
				format == FormatCSV && !strings.ContainsAny(text+errStr+model, "\r\n")
			if exact && (got.Text != text || got.Error != errStr || got.Model != model || got.Seconds != secs) {
				t.Fatalf("%s: %+v came back as %+v", format, r, got)
			}
		}
	})
}

// FuzzResume: resuming any file either refuses it, leaving it untouched,
// or leaves complete records only, one per path, none of them failures.
func FuzzResume(f *testing.F) {
	f.Add(byte(0), []byte(`{"path":"a","text":"x"}`+"\n"+`{"path":"b","text":"","error":"e"}`+"\n"+`{"path":"a","text":"y"}`+"\n"+`{"pa`))
	f.Add(byte(1), []byte("path\ttext\terror\tmodel\tseconds\tstarted\na\tx\t\t\t1\t\nb\t\te\t\t\t\nc\t"))
	f.Add(byte(2), []byte("path,text,error,model,seconds,started\n\"a\",x,,,1,\n\"b"))
	f.Add(byte(0), []byte("\n"))
	f.Add(byte(1), []byte("path\tte"))
	f.Fuzz(func(t *testing.T, which byte, data []byte) {
		format := []string{FormatJSONL, FormatTSV, FormatCSV}[int(which)%3]
		path := filepath.Join(t.TempDir(), "r."+format)
		if err := os.WriteFile(path, data, 0o666); err != nil {
			t.Fatal(err)
		}
		out, res, err := openOutput(path, codecFor(format), true, false, 0)
		if err != nil {
			if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
				t.Fatalf("refused (%v) but changed the file from %q to %q", err, data, after)
			}
			return
		}
		if err := out.close(); err != nil {
			t.Fatal(err)
		}
		after, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		_, tail, err := scan(bytes.NewReader(after), codecFor(format), path, func(_ []byte, r *Record) error {
			if seen[r.Path] || r.Failed() {
				t.Fatalf("after resume: %+v (seen before: %v)", r, seen[r.Path])
			}
			seen[r.Path] = true
			return nil
		})
		if err != nil || tail != 0 {
			t.Fatalf("after resume %q: %v, tail %d", after, err, tail)
		}
		if len(seen) != len(res.done) {
			t.Fatalf("%d records left, %d inputs counted done", len(seen), len(res.done))
		}
	})
}

// FuzzSidecarPath: a sidecar path, when there is one, is never the input,
// lies below the output directory when one is given, and ends in the
// extension.
func FuzzSidecarPath(f *testing.F) {
	f.Add("corpus", "corpus/a/b.wav", "out", "txt")
	f.Add(".", "../x.wav", "out", "srt")
	f.Add("/", "/etc/passwd", "", "txt")
	f.Add("d", "d/x.txt", "d", "txt")
	f.Fuzz(func(t *testing.T, root, input, outDir, ext string) {
		p, err := SidecarPath(root, input, outDir, ext)
		if err != nil {
			return
		}
		if filepath.Clean(p) == filepath.Clean(input) {
			t.Fatalf("SidecarPath(%q, %q, %q, %q) = %q: the input", root, input, outDir, ext, p)
		}
		if !strings.HasSuffix(p, "."+ext) {
			t.Fatalf("SidecarPath(%q, %q, %q, %q) = %q: wrong extension", root, input, outDir, ext, p)
		}
		if outDir != "" {
			rel, err := filepath.Rel(outDir, p)
			if err != nil || !filepath.IsLocal(rel) {
				t.Fatalf("SidecarPath(%q, %q, %q, %q) = %q: outside %q", root, input, outDir, ext, p, outDir)
			}
		}
	})
}
