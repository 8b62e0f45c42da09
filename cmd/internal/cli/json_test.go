package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"strings"
	"testing"
)

func TestWriteJSON(t *testing.T) {
	type report struct {
		Path    string  `json:"path"`
		Seconds float64 `json:"seconds"`
	}
	tests := []struct {
		name string
		v    any
		want string // "" for an error
	}{
		{name: "struct", v: report{"a.wav", 1.5}, want: `{"path":"a.wav","seconds":1.5}` + "\n"},
		{name: "HTML characters kept", v: map[string]string{"caption": "a <unk> & a dog"}, want: `{"caption":"a <unk> & a dog"}` + "\n"},
		{name: "newline escaped", v: []string{"two\nlines"}, want: `["two\nlines"]` + "\n"},
		{name: "NaN", v: map[string]float64{"wer": math.NaN()}},
		{name: "infinity", v: report{Seconds: math.Inf(1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := WriteJSON(&buf, tc.v)
			if tc.want == "" {
				var unsupported *json.UnsupportedValueError
				if !errors.As(err, &unsupported) || buf.Len() != 0 {
					t.Errorf("error %v, output %q; want an unsupported value error and no output", err, buf.String())
				}
				return
			}
			if err != nil || buf.String() != tc.want {
				t.Errorf("got %q, %v; want %q", buf.String(), err, tc.want)
			}
		})
	}
}

func TestJSONFlag(t *testing.T) {
	var help bytes.Buffer
	fs := NewFlagSet("cmd", "", "", &help)
	asJSON := JSONFlag(fs)
	if err := fs.Parse([]string{"-json"}); err != nil || !*asJSON {
		t.Fatalf("-json parsed as %v, %v", *asJSON, err)
	}
	fs.Usage()
	if !strings.Contains(help.String(), "-json\n    \t"+JSONUsage) {
		t.Errorf("help %q lacks -json with %q", help.String(), JSONUsage)
	}
}

func ExampleWriteJSON() {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := JSONFlag(fs)
	_ = fs.Parse([]string{"-json"})
	result := struct {
		Model  string `json:"model"`
		Params int    `json:"params"`
	}{"tiny.safetensors", 5120}
	if *asJSON {
		_ = WriteJSON(os.Stdout, result)
	}
	// Output:
	// {"model":"tiny.safetensors","params":5120}
}
