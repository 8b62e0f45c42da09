package whisper

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/attend-go/attend/models/safetensors"
)

// Parity with an independent PyTorch forward of Whisper
// (bench/whisper-ref/whisper_ref.py, written from openai/whisper's
// model.py) on generated models of seeds and shapes the bundle does not
// have: the real tiny and base shapes. It needs a python3 with torch and
// numpy (Debian: apt-get install python3-torch python3-numpy) and skips
// without one.

// torchPython returns a Python interpreter that imports torch and numpy:
// $ATTEND_TORCH_PYTHON, else /usr/bin/python3 (Debian's, where
// python3-torch installs), else python3 on the PATH. It skips the test
// when none does.
func torchPython(t *testing.T) string {
	t.Helper()
	var tried []string
	for _, p := range []string{os.Getenv("ATTEND_TORCH_PYTHON"), "/usr/bin/python3", "python3"} {
		if p == "" {
			continue
		}
		path, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		tried = append(tried, path)
		if exec.Command(path, "-c", "import torch, numpy").Run() == nil {
			return path
		}
	}
	t.Skipf("no python3 with torch and numpy (tried %v): install Debian's python3-torch and python3-numpy, or set ATTEND_TORCH_PYTHON", tried)
	return ""
}

// refScript returns the path of bench/whisper-ref/whisper_ref.py.
func refScript(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", "..", "bench", "whisper-ref", "whisper_ref.py")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no reference script: %v", err)
	}
	return p
}

// torchCases are the generated models checked against PyTorch: the
// bundle's shape, the real tiny.en shape and the real (multilingual) base shape, with seeds of
// their own.
var torchCases = []struct {
	name string
	dims Dims
	seed uint64
}{
	{"bundle-shape", bundleShape, 8086},
	{"tiny.en", tinyDims, 31337},
	{"base", func() Dims { d := baseDims; d.NVocab = 51865; return d }(), 271828},
}

// torchSampleLen is the most tokens greedy decoding samples in these
// tests (a handful keeps them fast).
const torchSampleLen = 12

// TestTorchReferenceParity generates a model, runs the PyTorch reference
// on it and on a random log-mel window, and checks attend's network
// against it:
//
//   - the encoder output within 1e-3 of its scale (max |Δ| / max |ref|);
//   - teacher-forced along the reference's greedy path (decoding from the
//     reference's audio features, as the bundle's decoding tests do, so
//     that the decoder is judged on its own): at every step the
//     reference's top-5 ids are ours in the same order (up to swaps of
//     logits closer than 1e-3) and our logits of them within 1e-3;
//   - free-running greedy decoding without timestamps (Decode, with
//     SuppressBlank and the default suppressed tokens): identical tokens
//     up to the first reference step whose top-2 margin is below 1e-3;
//   - against the reference run in float64, attend's encoder and its
//     logits from its own encoder no further than PyTorch float32's.
//
// Measured (bundle shape / tiny.en / base): encoder 8.6e-6 / 3.3e-5 /
// 7.0e-5 of its scale; teacher-forced logits within 9.5e-6 / 5.0e-5 /
// 1.2e-4; all 12 greedy tokens identical. From our own encoder's
// features the logits move by 7.3e-5 / 1.2e-3 / 3.6e-3: the random
// weights amplify float32 rounding, as the float64 run shows (from it,
// attend 5.7e-5 / 9.0e-4 / 2.1e-3, PyTorch float32 8.4e-5 / 1.5e-3 /
// 3.8e-3).
func TestTorchReferenceParity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PyTorch on tiny- and base-shaped models")
	}
	python := torchPython(t)
	script := refScript(t)
	for _, tc := range torchCases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "base" && os.Getenv("ATTEND_TORCH_FULL") == "" {
				t.Skip("the base shape takes two minutes of PyTorch: set ATTEND_TORCH_FULL=1")
			}
			dir := t.TempDir()
			g := generateModel(tc.dims, tc.seed)
			model := filepath.Join(dir, "model.safetensors")
			if err := safetensors.WriteFile(model, g.safetensorsFile(false, true), safetensors.F32); err != nil {
				t.Fatal(err)
			}
			mel := randomMel(tc.dims, tc.seed)
			in := filepath.Join(dir, "in.safetensors")
			melFile := &safetensors.File{Kind: "whisper-ref-input",
				Tensors: []safetensors.Tensor{{Name: "mel", Shape: []int{tc.dims.NMels, 2 * tc.dims.NAudioCtx}, Data: mel}}}
			if err := safetensors.WriteFile(in, melFile, safetensors.F32); err != nil {
				t.Fatal(err)
			}
			tok, err := NewTokenizer(tc.dims)
			if err != nil {
				t.Fatal(err)
			}
			prompt, err := tok.SOTSequenceIncludingNoTimestamps("en", "transcribe")
			if err != nil {
				t.Fatal(err)
			}
			cfg := torchConfig(tok, prompt)
			cfgPath := filepath.Join(dir, "in.json")
			js, _ := json.Marshal(cfg)
			if err := os.WriteFile(cfgPath, js, 0o644); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			refEnc, ref := runReference(t, python, script, dir, "", model, in, cfgPath)
			t.Logf("PyTorch reference ran in %v", time.Since(start).Round(time.Millisecond))

			m, err := Load(model)
			if err != nil {
				t.Fatal(err)
			}
			enc, err := m.Encode(mel)
			if err != nil {
				t.Fatal(err)
			}
			if d := relMaxDiff(enc.Data, refEnc); d > 1e-3 {
				t.Errorf("encoder output differs by %.3g of its scale", d)
			} else {
				t.Logf("encoder: max difference %.3g of its scale", d)
			}

			audio := &AudioFeatures{Data: refEnc, Frames: tc.dims.NAudioCtx, Width: tc.dims.NAudioState}
			checkTeacherForced(t, m, audio, prompt, ref)
			own := checkTeacherForcedQuiet(m, enc, prompt, ref)
			t.Logf("teacher-forced from our own encoder's features: max logit difference %.3g", own)

			opts := DefaultDecodingOptions()
			opts.Language, opts.WithoutTimestamps, opts.SampleLen = "en", true, torchSampleLen
			res, err := Decode(m, TokenizerText(tok), audio, opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			tie := ref.firstNearTie()
			diverge := -1
			for i := 0; i < max(len(res.Tokens), len(ref.Tokens)); i++ {
				if i >= len(res.Tokens) || i >= len(ref.Tokens) || res.Tokens[i] != ref.Tokens[i] {
					diverge = i
					break
				}
			}
			switch {
			case diverge < 0:
				t.Logf("greedy: all %d tokens identical %v", len(ref.Tokens), ref.Tokens)
			case diverge >= tie:
				t.Logf("greedy: tokens identical up to step %d, past the reference's near-tie at step %d", diverge, tie)
			default:
				t.Errorf("greedy tokens diverge at step %d: %v, reference %v (first near-tie at step %d)", diverge, res.Tokens, ref.Tokens, tie)
			}

			// The same in float64: how far attend's and PyTorch's float32 are
			// from the exact answer, the encoder and the logits along the
			// float64 path from each one's own encoder. attend may be no less
			// accurate than PyTorch (4× its error at most, and 2e-5 of the
			// scale for the encoder).
			exactEnc, exact := runReference(t, python, script, dir, "float64", model, in, cfgPath)
			oursEnc, torchEnc := relMaxDiff(enc.Data, exactEnc), relMaxDiff(refEnc, exactEnc)
			oursLogits := checkTeacherForcedQuiet(m, enc, prompt, exact)
			torchLogits := maxTop5Diff(ref, exact)
			t.Logf("from float64: encoder %.3g (PyTorch float32 %.3g) of its scale; logits along its path %.3g (PyTorch float32 %.3g, %d steps)",
				oursEnc, torchEnc, oursLogits, torchLogits, len(exact.RawTop5IDs))
			if oursEnc > max(4*torchEnc, 2e-5) {
				t.Errorf("encoder %.3g from float64, PyTorch float32 %.3g", oursEnc, torchEnc)
			}
			if oursLogits > max(4*torchLogits, 1e-4) {
				t.Errorf("logits %.3g from float64, PyTorch float32 %.3g", oursLogits, torchLogits)
			}
		})
	}
}

// runReference runs the reference script in dir on the model, the input
// window and the decoding config, computing in dtype ("" for float32,
// "float64"), and returns its encoder output and greedy decoding.
func runReference(t *testing.T, python, script, dir, dtype, model, in, cfg string) ([]float32, refDecoding) {
	t.Helper()
	outST, outJS := filepath.Join(dir, "out"+dtype+".safetensors"), filepath.Join(dir, "out"+dtype+".json")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, script, model, in, cfg, outST, outJS)
	cmd.Env = append(os.Environ(), "WHISPER_REF_DTYPE="+dtype)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	var ref refDecoding
	data, err := os.ReadFile(outJS)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	return readRefEncoder(t, outST), ref
}

// maxTop5Diff returns the largest difference between a's and b's top-5
// logits of the same ids over the steps where both followed the same path.
func maxTop5Diff(a, b refDecoding) float64 {
	var worst float64
	for step := range min(len(a.RawTop5IDs), len(b.RawTop5IDs)) {
		if step > 0 && (step > len(a.Tokens) || step > len(b.Tokens) || a.Tokens[step-1] != b.Tokens[step-1]) {
			break
		}
		for k, id := range b.RawTop5IDs[step] {
			if a.RawTop5IDs[step][k] == id {
				worst = max(worst, math.Abs(a.RawTop5Logits[step][k]-b.RawTop5Logits[step][k]))
			}
		}
	}
	return worst
}

// torchInput is the reference script's INPUT.json.
type torchInput struct {
	Prompt        []int `json:"prompt"`
	SampleLen     int   `json:"sample_len"`
	EOT           int   `json:"eot"`
	Suppress      []int `json:"suppress"`
	SuppressBlank []int `json:"suppress_blank"`
}

// torchConfig returns the reference's decoding rules as decoding.py
// makes them for suppress_tokens="-1" and suppress_blank=True: the
// non-speech symbols and the task, start and no-speech specials at every
// step; " " and end of text at the first.
func torchConfig(tok *Tokenizer, prompt []int) torchInput {
	sp := TokenizerText(tok).Specials()
	suppress := append(tok.NonSpeechTokens(), sp.Transcribe, sp.Translate, sp.SOT, sp.SOTPrev, sp.SOTLM, sp.NoSpeech)
	return torchInput{Prompt: prompt, SampleLen: torchSampleLen, EOT: sp.EOT, Suppress: suppress,
		SuppressBlank: append(tok.Encode(" "), sp.EOT)}
}

func readRefEncoder(t *testing.T, path string) []float32 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	r, err := safetensors.NewReader(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return mustFloats(t, r, "encoder")
}

// teacherForcedRows returns our raw logits at each of the reference's
// steps: the rows after the prompt and each reference token.
func teacherForcedRows(m *Model, audio *AudioFeatures, prompt []int, ref refDecoding) ([][]float32, error) {
	seq := append(append([]int(nil), prompt...), ref.Tokens...)
	rows, err := m.NewDecoder(audio, nil).Forward(seq)
	if err != nil {
		return nil, err
	}
	steps := len(ref.RawTop5IDs)
	if len(prompt)-1+steps > len(rows) {
		return nil, fmt.Errorf("%d reference steps for %d tokens", steps, len(seq))
	}
	return rows[len(prompt)-1 : len(prompt)-1+steps], nil
}

// checkTeacherForced checks the reference's top-5 ids and logits at
// every step of its greedy path.
func checkTeacherForced(t *testing.T, m *Model, audio *AudioFeatures, prompt []int, ref refDecoding) {
	t.Helper()
	rows, err := teacherForcedRows(m, audio, prompt, ref)
	if err != nil {
		t.Fatal(err)
	}
	var worst float64
	for step, row := range rows {
		ids, want := ref.RawTop5IDs[step], ref.RawTop5Logits[step]
		got := topK(row, len(ids))
		for k, id := range ids {
			d := math.Abs(float64(row[id]) - want[k])
			worst = max(worst, d)
			if d > 1e-3 {
				t.Errorf("step %d: logit of token %d is %.6f, reference %.6f", step, id, row[id], want[k])
			}
			if got[k] != id && math.Abs(float64(row[got[k]])-want[k]) > 1e-3 {
				t.Errorf("step %d: top-%d token %d (%.6f), reference %d (%.6f)", step, k+1, got[k], row[got[k]], id, want[k])
			}
		}
	}
	t.Logf("teacher-forced over %d steps: top-5 ids agree, max logit difference %.3g", len(rows), worst)
}

// checkTeacherForcedQuiet returns the largest difference of the
// reference's top-5 logits along its path (for the figures only).
func checkTeacherForcedQuiet(m *Model, audio *AudioFeatures, prompt []int, ref refDecoding) float64 {
	rows, err := teacherForcedRows(m, audio, prompt, ref)
	if err != nil {
		return math.NaN()
	}
	var worst float64
	for step, row := range rows {
		for k, id := range ref.RawTop5IDs[step] {
			worst = max(worst, math.Abs(float64(row[id])-ref.RawTop5Logits[step][k]))
		}
	}
	return worst
}

// TestTorchReferenceMatchesBundle verifies the reference script itself:
// on the bundle's small-en model (its Hugging Face file renamed to
// openai/whisper's names) and openai/whisper's own log-mel of jfk.wav,
// the script must reproduce openai/whisper's encoder output (within 1e-4
// of its scale; 1.4e-5 measured) and its greedy decoding without
// timestamps over the first 32 steps: the tokens and top-5 ids, and the
// top-5 logits within 1e-3 (the bound; 1.1e-4 measured).
func TestTorchReferenceMatchesBundle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PyTorch")
	}
	python := torchPython(t)
	script := refScript(t)
	hfFile, err := os.Open(bundle(t, "small-en.hf.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer hfFile.Close()
	st, _ := hfFile.Stat()
	hf, err := safetensors.NewReader(hfFile, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	var js struct {
		Dims  Dims                                  `json:"dims"`
		Clips map[string]map[string]json.RawMessage `json:"clips"`
	}
	referenceJSON(t, "small-en", &js)
	var kind refKind
	if err := json.Unmarshal(js.Clips["jfk"]["f16"], &kind); err != nil {
		t.Fatal(err)
	}
	want := kind.GreedyNoTimestamps

	dir := t.TempDir()
	dimsJS, _ := json.Marshal(js.Dims)
	model := &safetensors.File{Kind: "whisper-test", Extra: map[string]string{"whisper_dims": string(dimsJS)}}
	for _, name := range generateModel(js.Dims, 0).names {
		info, ok := hf.Info(hfName(name))
		if !ok {
			t.Fatalf("the bundle's Hugging Face file has no %s", hfName(name))
		}
		v := mustFloats(t, hf, hfName(name))
		if name == "encoder.positional_embedding" {
			// The file holds the sinusoids rounded to float16; openai/whisper's
			// reference ran on its float32 buffer.
			v = sinusoids(js.Dims.NAudioCtx, js.Dims.NAudioState)
		}
		model.Tensors = append(model.Tensors, safetensors.Tensor{Name: name, Shape: info.Shape, Data: v})
	}
	modelPath := filepath.Join(dir, "model.safetensors")
	if err := safetensors.WriteFile(modelPath, model, safetensors.F32); err != nil {
		t.Fatal(err)
	}
	ref := referenceTensors(t, "small-en")
	in := filepath.Join(dir, "in.safetensors")
	if err := safetensors.WriteFile(in, &safetensors.File{Kind: "whisper-ref-input", Tensors: []safetensors.Tensor{
		{Name: "mel", Shape: []int{js.Dims.NMels, 2 * js.Dims.NAudioCtx}, Data: mustFloats(t, ref, "jfk.mel")}}}, safetensors.F32); err != nil {
		t.Fatal(err)
	}
	tok, err := NewTokenizer(js.Dims)
	if err != nil {
		t.Fatal(err)
	}
	cfg := torchConfig(tok, kind.Prompt)
	cfg.SampleLen = 32
	cfgPath := filepath.Join(dir, "in.json")
	data, _ := json.Marshal(cfg)
	if err := os.WriteFile(cfgPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	gotEnc, got := runReference(t, python, script, dir, "", modelPath, in, cfgPath)
	if d := relMaxDiff(gotEnc, mustFloats(t, ref, "jfk.encoder")); d > 1e-4 {
		t.Errorf("the script's encoder output differs from openai/whisper's by %.3g of its scale", d)
	} else {
		t.Logf("encoder: %.3g of its scale from openai/whisper's", d)
	}
	tie := want.firstNearTie()
	var worst float64
	for step := range got.RawTop5IDs {
		if step >= tie {
			break
		}
		for k, id := range want.RawTop5IDs[step] {
			if got.RawTop5IDs[step][k] != id {
				t.Errorf("step %d: top-%d id %d, openai/whisper %d", step, k+1, got.RawTop5IDs[step][k], id)
			}
			worst = max(worst, math.Abs(got.RawTop5Logits[step][k]-want.RawTop5Logits[step][k]))
		}
		if step < len(got.Tokens) && got.Tokens[step] != want.Tokens[step] {
			t.Errorf("step %d: token %d, openai/whisper %d", step, got.Tokens[step], want.Tokens[step])
		}
	}
	if worst > 1e-3 {
		t.Errorf("top-5 logits differ from openai/whisper's by up to %.3g", worst)
	}
	t.Logf("%d steps (first near-tie at %d): tokens and top-5 ids as openai/whisper's, logits within %.3g", len(got.RawTop5IDs), tie, worst)
}
