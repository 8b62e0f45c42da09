package whisper

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

// referenceFile is the part of the bundle's NAME.reference.json that the
// tokenizer tests read: token lists with the texts openai/whisper decoded.
type referenceFile struct {
	Dims  Dims `json:"dims"`
	Clips map[string]map[string]json.RawMessage
}

type referenceDecode struct {
	Tokens []int  `json:"tokens"`
	Text   string `json:"text"`
}

type referenceKind struct {
	Prompt             []int           `json:"prompt"`
	GreedyNoTimestamps referenceDecode `json:"greedy_notimestamps"`
	GreedyTimestamps   referenceDecode `json:"greedy_timestamps"`
	Beam5NoTimestamps  referenceDecode `json:"beam5_notimestamps"`
	Transcribe         struct {
		Text     string            `json:"text"`
		Segments []referenceDecode `json:"segments"`
	} `json:"transcribe"`
}

// loadReference reads whisper/NAME.reference.json, skipping without the
// shared data.
func loadReference(t *testing.T, name string) referenceFile {
	t.Helper()
	path, err := shareddata.Lookup("whisper/" + name + ".reference.json")
	if err != nil {
		t.Skip(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ref referenceFile
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	return ref
}

// TestDecodeReference checks Decode against every token list of the
// reference bundle and the text openai/whisper decoded from it
// (decode()'s texts are stripped, transcribe()'s segments are not), and
// the prompts against SOTSequenceIncludingNoTimestamps.
func TestDecodeReference(t *testing.T) {
	for _, name := range []string{"small-en", "small-v3"} {
		t.Run(name, func(t *testing.T) {
			ref := loadReference(t, name)
			tok := newTestTokenizer(t, ref.Dims)
			lists := 0
			for clip, kinds := range ref.Clips {
				for kind, raw := range kinds {
					if kind == "file" || kind == "seconds" {
						continue
					}
					var k referenceKind
					if err := json.Unmarshal(raw, &k); err != nil {
						t.Fatalf("%s %s: %v", clip, kind, err)
					}
					where := clip + " " + kind
					prompt, err := tok.SOTSequenceIncludingNoTimestamps("en", "transcribe")
					if err != nil || !slices.Equal(prompt, k.Prompt) {
						t.Errorf("%s: prompt %v, want %v (%v)", where, prompt, k.Prompt, err)
					}
					for dec, r := range map[string]referenceDecode{"greedy_notimestamps": k.GreedyNoTimestamps, "greedy_timestamps": k.GreedyTimestamps, "beam5_notimestamps": k.Beam5NoTimestamps} {
						if got := stripPython(tok.Decode(r.Tokens)); got != r.Text {
							t.Errorf("%s %s: Decode = %q, want %q", where, dec, got, r.Text)
						}
						lists++
					}
					var all []int
					for i, s := range k.Transcribe.Segments {
						if got := tok.Decode(s.Tokens); got != s.Text {
							t.Errorf("%s segment %d: Decode = %q, want %q", where, i, got, s.Text)
						}
						all = append(all, s.Tokens...)
						lists++
					}
					if got := tok.Decode(all); got != k.Transcribe.Text {
						t.Errorf("%s transcribe: Decode = %q, want %q", where, got, k.Transcribe.Text)
					}
				}
			}
			if lists == 0 {
				t.Fatal("no token lists in the reference")
			}
			t.Logf("%d token lists decode as openai/whisper decoded them", lists)
		})
	}
}

// ggmlVocab reads the hyper-parameters and vocabulary of a whisper.cpp
// ggml file (magic, 11 int32 hyper-parameters, the mel filters, then
// n_vocab tokens as a uint32 length and bytes), as a test's stand-in for
// the ggml reader.
func ggmlVocab(b []byte) (Dims, [][]byte, error) {
	var d Dims
	if len(b) < 4+44+8 || binary.LittleEndian.Uint32(b) != 0x67676d6c {
		return d, nil, fmt.Errorf("not a ggml file")
	}
	h := make([]int, 11)
	for i := range h {
		h[i] = int(int32(binary.LittleEndian.Uint32(b[4+4*i:])))
	}
	d = Dims{NVocab: h[0], NAudioCtx: h[1], NAudioState: h[2], NAudioHead: h[3], NAudioLayer: h[4],
		NTextCtx: h[5], NTextState: h[6], NTextHead: h[7], NTextLayer: h[8], NMels: h[9]}
	off := 48
	nMel, nFFT := int(binary.LittleEndian.Uint32(b[off:])), int(binary.LittleEndian.Uint32(b[off+4:]))
	off += 8 + 4*nMel*nFFT
	if off+4 > len(b) {
		return d, nil, fmt.Errorf("truncated mel filters")
	}
	n := int(binary.LittleEndian.Uint32(b[off:]))
	off += 4
	tokens := make([][]byte, 0, n)
	for range n {
		if off+4 > len(b) {
			return d, nil, fmt.Errorf("truncated vocabulary")
		}
		l := int(binary.LittleEndian.Uint32(b[off:]))
		off += 4
		if off+l > len(b) {
			return d, nil, fmt.Errorf("truncated token")
		}
		tokens = append(tokens, b[off:off+l])
		off += l
	}
	return d, tokens, nil
}

// TestTokenizerFromGGMLVocab builds tokenizers from the vocabularies that
// whisper.cpp's files store (with and without a stored <|endoftext|>)
// and checks they are the bundled vocabularies token for token.
func TestTokenizerFromGGMLVocab(t *testing.T) {
	for _, tc := range []struct {
		file   string
		stored int
	}{
		{"for-tests-ggml-tiny.en.bin", 50257},
		{"for-tests-ggml-tiny.bin", 50257},
		{"for-tests-ggml-large.bin", 50257},
		{"small-en.ggml-f16.bin", 50256},
		{"small-v3.ggml-f16.bin", 50257},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path, err := shareddata.Lookup("whisper/" + tc.file)
			if err != nil {
				t.Skip(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d, tokens, err := ggmlVocab(b)
			if err != nil {
				t.Fatal(err)
			}
			if len(tokens) != tc.stored {
				t.Errorf("file stores %d tokens, want %d", len(tokens), tc.stored)
			}
			fromFile, err := NewTokenizerFromVocab(d, tokens)
			if err != nil {
				t.Fatal(err)
			}
			bundled := newTestTokenizer(t, d)
			if fromFile.EOT != bundled.EOT || fromFile.TimestampBegin != bundled.TimestampBegin || fromFile.Len() != d.NVocab {
				t.Fatalf("EOT %d, TimestampBegin %d, %d tokens; bundled %d, %d", fromFile.EOT, fromFile.TimestampBegin, fromFile.Len(), bundled.EOT, bundled.TimestampBegin)
			}
			for id := range fromFile.Len() {
				if string(fromFile.TokenBytes(id)) != string(bundled.TokenBytes(id)) {
					t.Fatalf("token %d: file %q, bundled %q", id, fromFile.TokenBytes(id), bundled.TokenBytes(id))
				}
			}
			if got := fromFile.Encode(" Hello world"); !slices.Equal(got, bundled.Encode(" Hello world")) {
				t.Errorf("Encode differs: %v", got)
			}
		})
	}
}

func TestNewTokenizerFromVocabErrors(t *testing.T) {
	bundled := newTestTokenizer(t, englishDims)
	base := make([][]byte, bundled.EOT)
	for i := range base {
		base[i] = bundled.TokenBytes(i)
	}
	dup := slices.Clone(base)
	dup[300] = dup[301]
	noByte := slices.Clone(base)
	noByte[0] = []byte("!!x")
	for _, tc := range []struct {
		name   string
		d      Dims
		tokens [][]byte
	}{
		{"too few", englishDims, base[:1000]},
		{"too many", englishDims, append(slices.Clone(base), make([][]byte, 2000)...)},
		{"duplicate", englishDims, dup},
		{"missing byte", englishDims, noByte},
		{"english vocabulary for a multilingual model", multilingualDims, base},
		{"bad n_vocab", Dims{NVocab: 52000}, base},
	} {
		if _, err := NewTokenizerFromVocab(tc.d, tc.tokens); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestNewTokenizerFromVocabCustom checks that a vocabulary other than
// openai/whisper's is used as given: two tokens swapped swap their ids.
func TestNewTokenizerFromVocabCustom(t *testing.T) {
	bundled := newTestTokenizer(t, englishDims)
	tokens := make([][]byte, bundled.EOT)
	for i := range tokens {
		tokens[i] = bundled.TokenBytes(i)
	}
	a, b := bundled.Encode(" Hello")[0], bundled.Encode(" world")[0]
	tokens[a], tokens[b] = tokens[b], tokens[a]
	custom, err := NewTokenizerFromVocab(englishDims, tokens)
	if err != nil {
		t.Fatal(err)
	}
	if got := custom.Decode([]int{b, a}); got != " Hello world" {
		t.Errorf("Decode = %q", got)
	}
	if got := custom.Encode("x world"); !slices.Equal(got, []int{bundled.Encode("x")[0], a}) {
		t.Errorf("Encode = %v, want [x %d]", got, a)
	}
}
