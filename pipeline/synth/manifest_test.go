package synth

import (
	"bytes"
	"strings"
	"testing"
)

func TestWriteManifest(t *testing.T) {
	var buf bytes.Buffer
	err := WriteManifest(&buf, []Entry{
		{"wav/000000.wav", "the cat sat", "espeak-ng/en-us+klatt"},
		{"wav/000002.wav", "it's late", "flite/slt"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "path\ttext\tspeaker\nwav/000000.wav\tthe cat sat\tespeak-ng/en-us+klatt\nwav/000002.wav\tit's late\tflite/slt\n"
	if buf.String() != want {
		t.Errorf("manifest:\n%s\nwant:\n%s", buf.String(), want)
	}
	err = WriteManifest(&buf, []Entry{{"a.wav", "two\tcolumns", "x/y"}})
	if err == nil || !strings.Contains(err.Error(), "row 1") {
		t.Errorf("a tab in the text: %v, want an error naming row 1", err)
	}
}
