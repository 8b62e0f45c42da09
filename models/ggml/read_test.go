package ggml

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/models/safetensors"
)

// Hyper-parameters of the real models behind whisper.cpp's header-only
// test files (openai/whisper's ModelDimensions for tiny, tiny.en, large).
var (
	tinyEn = Hyper{NVocab: 51864, NAudioCtx: 1500, NAudioState: 384, NAudioHead: 6, NAudioLayer: 4,
		NTextCtx: 448, NTextState: 384, NTextHead: 6, NTextLayer: 4, NMels: 80, FType: 1}
	tiny  = withVocab(tinyEn, 51865)
	large = Hyper{NVocab: 51865, NAudioCtx: 1500, NAudioState: 1280, NAudioHead: 20, NAudioLayer: 32,
		NTextCtx: 448, NTextState: 1280, NTextHead: 20, NTextLayer: 32, NMels: 80, FType: 1}
)

func withVocab(h Hyper, n int) Hyper { h.NVocab = n; return h }

// TestReadBundle reads every ggml file of the shared Whisper bundle and
// checks the hyper-parameters (against the reference's dims, or the real
// models' for the header-only files), the mel filters (against
// openai/whisper's mel_filters), the stored vocabulary (against the
// tiktoken files) and the tensors.
func TestReadBundle(t *testing.T) {
	tests := []struct {
		file      string
		ref       string // NAME.reference.json with the dims, or ""
		hyper     Hyper  // when ref is ""
		ftype     int
		tiktoken  string
		nVocab    int  // tokens stored
		lossy     bool // an old converter wrote non-UTF-8 tokens as U+FFFD
		last      string
		nTensors  int
		quantized Type
	}{
		{"small-en.ggml-f16.bin", "small-en", Hyper{}, 1, "gpt2.tiktoken", 50256, false, " gazed", 89, F16},
		{"small-en.ggml-q8_0.bin", "small-en", Hyper{}, 2007, "gpt2.tiktoken", 50256, false, " gazed", 89, Q8_0},
		{"small-en.ggml-q5_0.bin", "small-en", Hyper{}, 2008, "gpt2.tiktoken", 50256, false, " gazed", 89, Q5_0},
		{"small-v3.ggml-f16.bin", "small-v3", Hyper{}, 1, "multilingual.tiktoken", 50257, false, "", 89, F16},
		{"small-v3.ggml-q8_0.bin", "small-v3", Hyper{}, 2007, "multilingual.tiktoken", 50257, false, "", 89, Q8_0},
		{"small-v3.ggml-q5_0.bin", "small-v3", Hyper{}, 2008, "multilingual.tiktoken", 50257, false, "", 89, Q5_0},
		{"for-tests-ggml-tiny.en.bin", "", tinyEn, 1, "gpt2.tiktoken", 50257, true, "<|endoftext|>", 0, 0},
		{"for-tests-ggml-tiny.bin", "", tiny, 1, "multilingual.tiktoken", 50257, true, "", 0, 0},
		{"for-tests-ggml-large.bin", "", large, 1, "multilingual.tiktoken", 50257, true, "", 0, 0},
	}
	mel := melFilters(t)
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			f := bundleFile(t, tc.file)
			want := tc.hyper
			if tc.ref != "" {
				want = referenceDims(t, tc.ref)
			}
			want.FType = tc.ftype
			if f.Hyper != want {
				t.Errorf("Hyper = %+v, want %+v", f.Hyper, want)
			}
			if ft, ok := f.Hyper.FileType().TensorType(); !ok || (tc.nTensors > 0 && ft != tc.quantized) {
				t.Errorf("FileType %v stands for %v, want %v", f.Hyper.FileType(), ft, tc.quantized)
			}
			wantMel := mel[f.Hyper.NMels]
			if f.Filters.NMel != f.Hyper.NMels || f.Filters.NFFT != 201 || !reflect.DeepEqual(f.Filters.Data, wantMel) {
				t.Errorf("filters %d×%d differ from openai/whisper's mel_%d", f.Filters.NMel, f.Filters.NFFT, f.Hyper.NMels)
			}
			checkVocab(t, f.Vocab, tiktoken(t, tc.tiktoken), tc.nVocab, tc.lossy)
			if got := string(f.Vocab[len(f.Vocab)-1]); got != tc.last {
				t.Errorf("last stored token %q, want %q", got, tc.last)
			}
			if len(f.Tensors) != tc.nTensors {
				t.Fatalf("%d tensors, want %d", len(f.Tensors), tc.nTensors)
			}
			if tc.nTensors > 0 {
				checkTensors(t, f, tc.quantized)
			}
		})
	}
}

// checkTensors checks the layout convert-pt-to-ggml.py writes: ggml
// shapes are PyTorch's reversed, 2-D weights in the file's type, the rest
// f32 (conv weights f16).
func checkTensors(t *testing.T, f *File, weights Type) {
	h := f.Hyper
	shapes := []struct {
		name     string
		rowMajor []int
		typ      Type
	}{
		{"encoder.conv1.weight", []int{h.NAudioState, h.NMels, 3}, F16},
		{"encoder.conv1.bias", []int{h.NAudioState, 1}, F32},
		{"encoder.positional_embedding", []int{h.NAudioCtx, h.NAudioState}, F32},
		{"decoder.token_embedding.weight", []int{h.NVocab, h.NTextState}, weights},
		{"decoder.positional_embedding", []int{h.NTextCtx, h.NTextState}, F32},
		{"encoder.blocks.0.mlp.0.weight", []int{4 * h.NAudioState, h.NAudioState}, weights},
		{"decoder.blocks.1.cross_attn.key.weight", []int{h.NTextState, h.NTextState}, weights},
		{"decoder.ln.bias", []int{h.NTextState}, F32},
	}
	for _, s := range shapes {
		tn := f.Lookup(s.name)
		if tn == nil {
			t.Errorf("no tensor %q", s.name)
			continue
		}
		if !reflect.DeepEqual(tn.RowMajorShape(), s.rowMajor) || tn.Type != s.typ {
			t.Errorf("%s: %v %v (ne %v), want %v %v", s.name, tn.Type, tn.RowMajorShape(), tn.Shape, s.typ, s.rowMajor)
		}
		if tn.Rows()*tn.RowLen() != tn.Len() || len(tn.Row(tn.Rows()-1)) != tn.RowBytes() {
			t.Errorf("%s: %d rows of %d for %d elements", s.name, tn.Rows(), tn.RowLen(), tn.Len())
		}
	}
	if f.Lookup("decoder.blocks.0.attn.key.bias") != nil {
		t.Error("found a key bias: Whisper's key projections have none")
	}
	var prev int64
	for i := range f.Tensors {
		tn := &f.Tensors[i]
		if tn.Offset <= prev {
			t.Errorf("tensor %q at offset %d, after %d", tn.Name, tn.Offset, prev)
		}
		prev = tn.Offset
		if f.Lookup(tn.Name) != tn {
			t.Errorf("Lookup(%q) is not the tensor in the list", tn.Name)
		}
	}
}

// checkVocab compares the stored tokens with the tiktoken ranks: equal,
// or (lossy) U+FFFD where the rank's bytes are not valid UTF-8.
func checkVocab(t *testing.T, got, ranks [][]byte, n int, lossy bool) {
	t.Helper()
	if len(got) != n {
		t.Errorf("%d tokens stored, want %d", len(got), n)
	}
	replaced := 0
	for i := range min(len(got), len(ranks)) {
		switch {
		case bytes.Equal(got[i], ranks[i]):
		case lossy && !utf8.Valid(ranks[i]) && bytes.Contains(got[i], []byte("\ufffd")):
			replaced++
		default:
			t.Fatalf("token %d = %q, tiktoken rank %d is %q", i, got[i], i, ranks[i])
		}
	}
	if lossy && replaced == 0 {
		t.Error("no token written lossily: the test's premise is wrong")
	}
	for _, id := range []int{0, 220, 256} { // "!", " ", " t"
		if string(got[id]) != []string{0: "!", 220: " ", 256: " t"}[id] {
			t.Errorf("token %d = %q", id, got[id])
		}
	}
}

func referenceDims(t *testing.T, name string) Hyper {
	raw, err := os.ReadFile(shareddata.Path(t, "whisper/"+name+".reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Dims struct {
			NMels       int `json:"n_mels"`
			NAudioCtx   int `json:"n_audio_ctx"`
			NAudioState int `json:"n_audio_state"`
			NAudioHead  int `json:"n_audio_head"`
			NAudioLayer int `json:"n_audio_layer"`
			NVocab      int `json:"n_vocab"`
			NTextCtx    int `json:"n_text_ctx"`
			NTextState  int `json:"n_text_state"`
			NTextHead   int `json:"n_text_head"`
			NTextLayer  int `json:"n_text_layer"`
		} `json:"dims"`
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	d := ref.Dims
	return Hyper{NVocab: d.NVocab, NAudioCtx: d.NAudioCtx, NAudioState: d.NAudioState, NAudioHead: d.NAudioHead,
		NAudioLayer: d.NAudioLayer, NTextCtx: d.NTextCtx, NTextState: d.NTextState, NTextHead: d.NTextHead,
		NTextLayer: d.NTextLayer, NMels: d.NMels}
}

// melFilters returns openai/whisper's filterbanks by number of bins.
func melFilters(t *testing.T) map[int][]float32 {
	fh, err := os.Open(shareddata.Path(t, "whisper/mel_filters.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		t.Fatal(err)
	}
	r, err := safetensors.NewReader(fh, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	out := map[int][]float32{}
	for _, n := range []int{80, 128} {
		v, err := r.Float32s("mel_" + map[int]string{80: "80", 128: "128"}[n])
		if err != nil {
			t.Fatal(err)
		}
		out[n] = v
	}
	return out
}

// tiktoken returns the token bytes of a tiktoken file by rank.
func tiktoken(t *testing.T, name string) [][]byte {
	fh, err := os.Open(shareddata.Path(t, "whisper/"+name))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out [][]byte
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		b64, _, _ := strings.Cut(sc.Text(), " ")
		// Decode without padding: the empty token 50256 of the
		// multilingual file is written "=".
		tok, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(b64, "="))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tok)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
