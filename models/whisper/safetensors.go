package whisper

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/attend-go/attend/models/safetensors"
)

// hfNames maps Hugging Face transformers' WhisperForConditionalGeneration
// names (after the "model." prefix) to openai/whisper's.
var hfNames = []struct{ hf, openai string }{
	{"encoder.embed_positions.weight", "encoder.positional_embedding"},
	{"encoder.layer_norm.", "encoder.ln_post."},
	{"decoder.embed_tokens.weight", "decoder.token_embedding.weight"},
	{"decoder.embed_positions.weight", "decoder.positional_embedding"},
	{"decoder.layer_norm.", "decoder.ln."},
	{".layers.", ".blocks."},
	{".self_attn_layer_norm.", ".attn_ln."},
	{".encoder_attn_layer_norm.", ".cross_attn_ln."},
	{".final_layer_norm.", ".mlp_ln."},
	{".self_attn.", ".attn."},
	{".encoder_attn.", ".cross_attn."},
	{".q_proj.", ".query."},
	{".k_proj.", ".key."},
	{".v_proj.", ".value."},
	{".out_proj.", ".out."},
	{".fc1.", ".mlp.0."},
	{".fc2.", ".mlp.2."},
}

// openaiName returns the openai/whisper name of a Hugging Face tensor name.
func openaiName(hf string) string {
	s := strings.TrimPrefix(hf, "model.")
	for _, r := range hfNames {
		s = strings.Replace(s, r.hf, r.openai, 1)
	}
	return s
}

// safetensorsSource reads tensors from a safetensors file with either
// naming (openai/whisper's own, or transformers').
type safetensorsSource struct {
	r     *safetensors.Reader
	names map[string]string // openai name → name in the file
}

func (s *safetensorsSource) tensor(name string) ([]float32, []int, error) {
	fname, ok := s.names[name]
	if !ok {
		return nil, nil, fmt.Errorf("whisper: the safetensors file has no tensor for %q", name)
	}
	info, _ := s.r.Info(fname)
	v, err := s.r.Float32s(fname)
	if err != nil {
		return nil, nil, fmt.Errorf("whisper: %w", err)
	}
	return v, info.Shape, nil
}

// LoadSafetensors loads a Whisper checkpoint from a safetensors file with
// Hugging Face transformers' tensor names (model.encoder.layers.0.self_attn.q_proj.weight, …)
// or openai/whisper's (encoder.blocks.0.attn.query.weight, …). The
// dimensions come from the file's __metadata__ "whisper_dims" (JSON, as
// ModelDimensions), else from a transformers config.json beside the file,
// else from the tensor shapes, with 64-wide heads as in every released
// model.
func LoadSafetensors(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("whisper: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("whisper: %w", err)
	}
	r, err := safetensors.NewReader(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("whisper: %s: %w", path, err)
	}
	src := &safetensorsSource{r: r, names: map[string]string{}}
	for _, t := range r.Tensors() {
		src.names[openaiName(t.Name)] = t.Name
	}
	d, err := safetensorsDims(path, r, src)
	if err != nil {
		return nil, fmt.Errorf("whisper: %s: %w", path, err)
	}
	m, err := newModel(d, src)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return m, nil
}

// safetensorsDims finds the dimensions of a safetensors checkpoint.
func safetensorsDims(path string, r *safetensors.Reader, src *safetensorsSource) (Dims, error) {
	var d Dims
	if js, ok := r.Metadata()["whisper_dims"]; ok {
		if err := json.Unmarshal([]byte(js), &d); err != nil {
			return d, fmt.Errorf("metadata whisper_dims: %w", err)
		}
		return d, d.Validate()
	}
	if data, err := os.ReadFile(filepath.Join(filepath.Dir(path), "config.json")); err == nil {
		var c struct {
			NumMelBins            int `json:"num_mel_bins"`
			MaxSourcePositions    int `json:"max_source_positions"`
			DModel                int `json:"d_model"`
			EncoderAttentionHeads int `json:"encoder_attention_heads"`
			EncoderLayers         int `json:"encoder_layers"`
			VocabSize             int `json:"vocab_size"`
			MaxTargetPositions    int `json:"max_target_positions"`
			DecoderAttentionHeads int `json:"decoder_attention_heads"`
			DecoderLayers         int `json:"decoder_layers"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			return d, fmt.Errorf("config.json beside it: %w", err)
		}
		d = Dims{NMels: c.NumMelBins, NAudioCtx: c.MaxSourcePositions, NAudioState: c.DModel, NAudioHead: c.EncoderAttentionHeads,
			NAudioLayer: c.EncoderLayers, NVocab: c.VocabSize, NTextCtx: c.MaxTargetPositions, NTextState: c.DModel,
			NTextHead: c.DecoderAttentionHeads, NTextLayer: c.DecoderLayers}
		return d, d.Validate()
	}
	return inferDims(src)
}

var blockIndex = regexp.MustCompile(`^(encoder|decoder)\.blocks\.(\d+)\.`)

// inferDims reads the dimensions off the tensor shapes; the head counts
// cannot be seen in them, so they are width/64, as in every released
// Whisper model.
func inferDims(src *safetensorsSource) (Dims, error) {
	shape := func(name string) []int {
		if f, ok := src.names[name]; ok {
			info, _ := src.r.Info(f)
			return info.Shape
		}
		return nil
	}
	conv, pos := shape("encoder.conv1.weight"), shape("encoder.positional_embedding")
	emb, tpos := shape("decoder.token_embedding.weight"), shape("decoder.positional_embedding")
	if len(conv) != 3 || len(pos) != 2 || len(emb) != 2 || len(tpos) != 2 {
		return Dims{}, fmt.Errorf("not a Whisper checkpoint: it lacks encoder.conv1, the positional embeddings or the token embedding (with transformers' or openai/whisper's names)")
	}
	d := Dims{NMels: conv[1], NAudioCtx: pos[0], NAudioState: pos[1], NVocab: emb[0], NTextCtx: tpos[0], NTextState: tpos[1]}
	for name := range src.names {
		if m := blockIndex.FindStringSubmatch(name); m != nil {
			var i int
			fmt.Sscan(m[2], &i)
			if m[1] == "encoder" {
				d.NAudioLayer = max(d.NAudioLayer, i+1)
			} else {
				d.NTextLayer = max(d.NTextLayer, i+1)
			}
		}
	}
	d.NAudioHead, d.NTextHead = max(1, d.NAudioState/64), max(1, d.NTextState/64)
	return d, d.Validate()
}
