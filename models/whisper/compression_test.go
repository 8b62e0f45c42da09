package whisper

import (
	"encoding/json"
	"os"
	"testing"
)

// TestZlibLenMatchesCPython checks zlibLen against the lengths CPython's
// zlib.compress gave for the reference bundle's texts, random word salads
// and edge cases (testdata/zlib_lengths.json; regenerate with the Python
// snippet in its "generator" field's zlib version).
func TestZlibLenMatchesCPython(t *testing.T) {
	b, err := os.ReadFile("testdata/zlib_lengths.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Cases []struct {
			Text    string `json:"text"`
			ZlibLen int    `json:"zlib_len"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden.Cases) < 100 {
		t.Fatalf("only %d cases", len(golden.Cases))
	}
	bad := 0
	for i, c := range golden.Cases {
		if got := zlibLen([]byte(c.Text)); got != c.ZlibLen {
			bad++
			if bad <= 10 {
				t.Errorf("case %d (%d bytes): zlibLen = %d, CPython %d", i, len(c.Text), got, c.ZlibLen)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d lengths differ", bad, len(golden.Cases))
	}
}

func TestCompressionRatio(t *testing.T) {
	for _, tc := range []struct {
		text string
		want float64
	}{
		{"", 0},
		{"a", 1.0 / 9},
	} {
		if got := CompressionRatio(tc.text); got != tc.want {
			t.Errorf("CompressionRatio(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func BenchmarkCompressionRatio(b *testing.B) {
	text := []byte{}
	for len(text) < 1500 {
		text = append(text, " and so my fellow Americans ask not what your country can do for you"...)
	}
	s := string(text)
	b.ReportAllocs()
	for b.Loop() {
		CompressionRatio(s)
	}
}
