package whisper

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Dimensions of the three vocabulary layouts (only NVocab matters to the
// tokenizer).
var (
	englishDims      = Dims{NMels: 80, NVocab: 51864}
	multilingualDims = Dims{NMels: 80, NVocab: 51865}
	largeV3Dims      = Dims{NMels: 128, NVocab: 51866}
)

func newTestTokenizer(t testing.TB, d Dims) *Tokenizer {
	t.Helper()
	tok, err := NewTokenizer(d)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestSpecialTokenIDs checks the special tokens' ids against
// openai/whisper's numbering for the three layouts.
func TestSpecialTokenIDs(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    Dims
		// EOT, SOT, en, Translate, Transcribe, SOTLM, SOTPrev, NoSpeech, NoTimestamps, TimestampBegin
		want      [10]int
		languages int
	}{
		{"english", englishDims, [10]int{50256, 50257, 50258, 50357, 50358, 50359, 50360, 50361, 50362, 50363}, 99},
		{"multilingual", multilingualDims, [10]int{50257, 50258, 50259, 50358, 50359, 50360, 50361, 50362, 50363, 50364}, 99},
		{"large-v3", largeV3Dims, [10]int{50257, 50258, 50259, 50359, 50360, 50361, 50362, 50363, 50364, 50365}, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok := newTestTokenizer(t, tc.d)
			en, _ := tok.LanguageToken("en")
			got := [10]int{tok.EOT, tok.SOT, en, tok.Translate, tok.Transcribe, tok.SOTLM, tok.SOTPrev, tok.NoSpeech, tok.NoTimestamps, tok.TimestampBegin}
			if got != tc.want {
				t.Errorf("ids %v, want %v", got, tc.want)
			}
			if len(tok.Languages) != tc.languages || tok.Len() != tc.d.NVocab {
				t.Errorf("%d languages, %d tokens; want %d, %d", len(tok.Languages), tok.Len(), tc.languages, tc.d.NVocab)
			}
			for _, c := range []struct {
				id   int
				text string
			}{
				{tok.EOT, "<|endoftext|>"}, {tok.SOT, "<|startoftranscript|>"}, {en, "<|en|>"},
				{tok.SOT + 1 + len(tok.Languages) - 1, "<|" + tok.Languages[len(tok.Languages)-1] + "|>"},
				{tok.Translate, "<|translate|>"}, {tok.Transcribe, "<|transcribe|>"},
				{tok.SOTLM, "<|startoflm|>"}, {tok.SOTPrev, "<|startofprev|>"}, {tok.NoSpeech, "<|nospeech|>"},
				{tok.NoTimestamps, "<|notimestamps|>"}, {tok.TimestampBegin, "<|0.00|>"},
				{tok.TimestampBegin + 54, "<|1.08|>"}, {tok.TimestampBegin + 1500, "<|30.00|>"},
			} {
				if got := string(tok.TokenBytes(c.id)); got != c.text {
					t.Errorf("TokenBytes(%d) = %q, want %q", c.id, got, c.text)
				}
			}
			if tok.TokenBytes(-1) != nil || tok.TokenBytes(tok.Len()) != nil {
				t.Error("TokenBytes outside the vocabulary is not nil")
			}
		})
	}
}

func TestLanguages(t *testing.T) {
	v3 := newTestTokenizer(t, largeV3Dims)
	multi := newTestTokenizer(t, multilingualDims)
	if id, ok := v3.LanguageToken("yue"); !ok || id != 50358 {
		t.Errorf("large-v3 yue token = %d, %v; want 50358", id, ok)
	}
	if _, ok := multi.LanguageToken("yue"); ok {
		t.Error("a 99-language model has a yue token")
	}
	for _, tc := range []struct {
		token int
		code  string
		ok    bool
	}{{50259, "en", true}, {50260, "zh", true}, {50357, "su", true}, {50358, "", false}, {50258, "", false}} {
		if code, ok := multi.LanguageCode(tc.token); code != tc.code || ok != tc.ok {
			t.Errorf("LanguageCode(%d) = %q, %v; want %q, %v", tc.token, code, ok, tc.code, tc.ok)
		}
	}
	for _, tc := range []struct{ in, code string }{
		{"en", "en"}, {"English", "en"}, {"castilian", "es"}, {"Mandarin", "zh"}, {"haitian creole", "ht"}, {"yue", "yue"}, {"klingon", ""},
	} {
		if code, ok := LookupLanguage(tc.in); code != tc.code || ok != (tc.code != "") {
			t.Errorf("LookupLanguage(%q) = %q, %v; want %q", tc.in, code, ok, tc.code)
		}
	}
	if name, ok := LanguageName("de"); name != "german" || !ok {
		t.Errorf("LanguageName(de) = %q, %v", name, ok)
	}
	if got := multi.LanguageTokens(); len(got) != 99 || got[0] != 50259 || got[98] != 50357 {
		t.Errorf("LanguageTokens = %d tokens from %d to %d", len(got), got[0], got[len(got)-1])
	}
}

func TestSOTSequence(t *testing.T) {
	en := newTestTokenizer(t, englishDims)
	multi := newTestTokenizer(t, multilingualDims)
	v3 := newTestTokenizer(t, largeV3Dims)
	for _, tc := range []struct {
		name           string
		tok            *Tokenizer
		language, task string
		want           []int
		wantErr        bool
	}{
		{"english-only ignores language and task", en, "de", "translate", []int{50257}, false},
		{"multilingual en transcribe", multi, "en", "transcribe", []int{50258, 50259, 50359}, false},
		{"multilingual by name", multi, "German", "translate", []int{50258, 50261, 50358}, false},
		{"no language", multi, "", "transcribe", []int{50258, 50359}, false},
		{"nothing", multi, "", "", []int{50258}, false},
		{"large-v3 yue", v3, "yue", "transcribe", []int{50258, 50358, 50360}, false},
		{"yue before large-v3", multi, "cantonese", "transcribe", nil, true},
		{"unknown language", multi, "xx", "transcribe", nil, true},
		{"unknown task", multi, "en", "summarize", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.tok.SOTSequence(tc.language, tc.task)
			if (err != nil) != tc.wantErr || !slices.Equal(got, tc.want) {
				t.Fatalf("SOTSequence(%q, %q) = %v, %v; want %v (error %v)", tc.language, tc.task, got, err, tc.want, tc.wantErr)
			}
			if err != nil {
				return
			}
			withNT, _ := tc.tok.SOTSequenceIncludingNoTimestamps(tc.language, tc.task)
			if !slices.Equal(withNT, append(tc.want, tc.tok.NoTimestamps)) {
				t.Errorf("SOTSequenceIncludingNoTimestamps = %v", withNT)
			}
		})
	}
}

// TestEncodeGPT2 checks Encode against ids that tiktoken's own tests and
// GPT-2 give (tests/test_encoding.py's test_simple and
// test_simple_repeated).
func TestEncodeGPT2(t *testing.T) {
	tok := newTestTokenizer(t, englishDims)
	for _, tc := range []struct {
		text string
		want []int
	}{
		{"hello world", []int{31373, 995}},
		{"Hello world", []int{15496, 995}},
		{" Hello world", []int{18435, 995}},
		{"Hello, world!", []int{15496, 11, 995, 0}},
		{"hello <|endoftext|>", []int{31373, 1279, 91, 437, 1659, 5239, 91, 29}},
		{"0", []int{15}},
		{"00", []int{405}},
		{"000", []int{830}},
		{"0000", []int{2388}},
		{"00000", []int{20483}},
		{"000000", []int{10535}},
		{"0000000", []int{24598}},
		{"00000000", []int{8269}},
		{"000000000", []int{10535, 830}},
		{"0000000000", []int{8269, 405}},
		{"00000000000", []int{8269, 830}},
		{"000000000000", []int{8269, 2388}},
		{"0000000000000", []int{8269, 20483}},
		{"00000000000000", []int{8269, 10535}},
		{"000000000000000", []int{8269, 24598}},
		{"0000000000000000", []int{25645}},
		{"00000000000000000", []int{8269, 10535, 830}},
		{"", []int{}},
	} {
		if got := tok.Encode(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("Encode(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// roundTripTexts are texts that must come back unchanged from
// Decode(Encode(text)).
var roundTripTexts = []string{
	"hello", "hello ", "hello  ", " hello", " hello ", " hello  ", "hello world",
	"请考试我的软件！12345", "다람쥐 헌 쳇바퀴에 타고파", "Ça va? Très bien, merci — à bientôt.",
	"naïve café résumé", "e\u0301te\u0301", "日本語のテキスト、句読点。", "Привет, мир!", "مرحبا بالعالم",
	"emoji 😀👍🏽 family 👨‍👩‍👧 flags 🇫🇷", "  leading", "trailing\n\n", "\n\n\n", "\t tabs\t\tand  spaces   ",
	"a\u00a0b\u3000c\u2028d", "it's they'll we've I'm she'd 'twas", "$100.00 + 3.5% = ???",
	"<|endoftext|> is text here", strings.Repeat("ha", 300), strings.Repeat(" ", 70) + "x",
	strings.Repeat("x", 1000), strings.Repeat("😀", 40), "\x00\x01\x7f",
}

func TestRoundTrip(t *testing.T) {
	for _, d := range []Dims{englishDims, multilingualDims} {
		tok := newTestTokenizer(t, d)
		for _, text := range roundTripTexts {
			ids := tok.Encode(text)
			for _, id := range ids {
				if id < 0 || id >= tok.EOT {
					t.Fatalf("Encode(%q) gave id %d outside the base vocabulary", text, id)
				}
			}
			if got := tok.Decode(ids); got != text {
				t.Errorf("n_vocab %d: Decode(Encode(%q)) = %q", d.NVocab, text, got)
			}
		}
	}
}

// TestRoundTripBytes checks that arbitrary bytes, not UTF-8, survive
// Encode and the tokens' bytes.
func TestRoundTripBytes(t *testing.T) {
	tok := newTestTokenizer(t, multilingualDims)
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(256))
			if r.IntN(3) == 0 {
				b[i] = " a'\n"[r.IntN(4)]
			}
		}
		if got := tok.appendBytes(nil, tok.Encode(string(b)), true); string(got) != string(b) {
			t.Fatalf("bytes %q came back as %q", b, got)
		}
	}
}

// TestMultilingualEncoding checks what openai/whisper's tests check of
// the multilingual vocabulary (tests/test_tokenizer.py): Korean round
// trips on both vocabularies in fewer multilingual tokens.
func TestMultilingualEncoding(t *testing.T) {
	en := newTestTokenizer(t, englishDims)
	multi := newTestTokenizer(t, multilingualDims)
	const text = "다람쥐 헌 쳇바퀴에 타고파"
	g, m := en.Encode(text), multi.Encode(text)
	if en.Decode(g) != text || multi.Decode(m) != text {
		t.Fatal("Korean does not round-trip")
	}
	if len(g) <= len(m) {
		t.Errorf("GPT-2 takes %d tokens, multilingual %d: want more for GPT-2", len(g), len(m))
	}
	t.Logf("multilingual Encode(%q) = %v, Encode(%q) = %v", "Hello world", multi.Encode("Hello world"), " Hello world", multi.Encode(" Hello world"))
}

// TestDecodePythonReplacement checks that invalid UTF-8 decodes as
// Python's bytes.decode("utf-8", errors="replace") (values from CPython).
func TestDecodePythonReplacement(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"\xe4\xb8A", "\ufffdA"},
		{"\xe0\x80", "\ufffd\ufffd"},
		{"\xed\xa0\x80", "\ufffd\ufffd\ufffd"},
		{"\xf0\x9f\x98", "\ufffd"},
		{"\xf4\x90\x80\x80", "\ufffd\ufffd\ufffd\ufffd"},
		{"\xc0\xaf", "\ufffd\ufffd"},
		{"\xff", "\ufffd"},
		{"a\xf0\x9f\x98\x80\xf0\x9f", "a\U0001f600\ufffd"},
		{"\xe4\xb8\xe4\xb8\xad", "\ufffd\u4e2d"},
		{"\xef\xbf\xbd", "\ufffd"},
		{"\xf1\x80\x80\xe1\x80\xc2", "\ufffd\ufffd\ufffd"},
	} {
		if got := decodeUTF8Replace([]byte(tc.in)); got != tc.want {
			t.Errorf("decodeUTF8Replace(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDecodeTimestamps(t *testing.T) {
	tok := newTestTokenizer(t, englishDims)
	ids := []int{tok.SOT, tok.TimestampBegin, 15496, 995, tok.TimestampBegin + 54, tok.EOT, -3, 1 << 30}
	if got, want := tok.Decode(ids), "<|startoftranscript|>Hello world<|endoftext|>"; got != want {
		t.Errorf("Decode = %q, want %q", got, want)
	}
	if got, want := tok.DecodeWithTimestamps(ids), "<|startoftranscript|><|0.00|>Hello world<|1.08|><|endoftext|>"; got != want {
		t.Errorf("DecodeWithTimestamps = %q, want %q", got, want)
	}
}
