package captioning

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/vision"
)

// ErrWrongEncoder means that the image encoder given, or a feature cache,
// is not the one whose features the caption model was trained on: its
// captions would be noise.
var ErrWrongEncoder = errors.New("captioning: wrong image encoder")

// Every model file Train writes names, in its features note
// ("attend.features", featuresNote), the SHA-256 of the encoder file its
// features came from. The Captioner locates that encoder (by name, in the
// cache or from its URL, when it is a known one and no file is given) and
// refuses another.

// noteEncoderSHA returns the encoder SHA-256 recorded in a features note,
// or "" when the note has none (a model from before the note, or one
// written by other tools).
func noteEncoderSHA(note string) string {
	_, rest, ok := strings.Cut(note, "encoder_sha256 ")
	if !ok {
		return ""
	}
	sha, _, _ := strings.Cut(rest, " ")
	if len(sha) != 64 {
		return ""
	}
	if _, err := hex.DecodeString(sha); err != nil {
		return ""
	}
	return strings.ToLower(sha)
}

// OpenModelEncoder loads a caption model file as OpenModel does (the
// embedded default for "") and returns with it the hex SHA-256 of the
// encoder its features came from, as its features note records it (""
// when the file does not say): what EvalOptions.Encoder and the Captioner
// check a feature cache or an encoder file against.
func OpenModelEncoder(path string) (*caption.Model, string, error) { return openModel(path) }

// openModel is OpenModelEncoder.
func openModel(path string) (*caption.Model, string, error) {
	if path == "" {
		m, err := OpenModel("")
		return m, noteEncoderSHA(caption.DefaultExtra()[featuresKey]), err
	}
	f, err := readModelFile(path)
	if err != nil {
		return nil, "", err
	}
	m, err := modelFromTensors(f)
	return m, noteEncoderSHA(f.Extra[featuresKey]), err
}

// DefaultEncoder returns the known encoder whose features the embedded
// default model was trained on, as its features note names it
// (MobileNet-EdgeTPU today): the encoder that captioning with the default
// model locates, and downloads, when none is given. It reads the model
// file's header only. MobileNetV2, the encoder of models from before the
// note, when the note names none this tool knows.
func DefaultEncoder() *vision.KnownEncoder {
	if k := vision.FindEncoder(noteEncoderSHA(caption.DefaultExtra()[featuresKey])); k != nil {
		return k
	}
	return vision.MobileNetV2
}

// describeEncoder names an encoder by its SHA-256 for messages: the known
// encoder's title and file, or the bare digest.
func describeEncoder(sha string) string {
	if k := vision.FindEncoder(sha); k != nil {
		return k.String()
	}
	return "an encoder this tool does not know (SHA-256 " + sha[:12] + "…)"
}

// wrongEncoder is the error for an encoder file, or a cache's features,
// from the encoder whose SHA-256 is got where the model needs want. what
// says which ("the encoder file F is", "the feature cache F holds
// features of").
func wrongEncoder(what, got, want string) error {
	name := "that encoder"
	if k := vision.FindEncoder(want); k != nil {
		name = k.Name
	}
	fix := "give -encoder " + name + " (or its file)"
	switch {
	case strings.HasPrefix(what, "the feature cache"):
		fix = "extract the cache with caption features -encoder " + name
	case strings.HasPrefix(what, "the memory"):
		fix = "build the memory from a cache of its features (caption features -encoder " + name + ", then caption memory)"
	}
	return fmt.Errorf("%w: the caption model was trained on features of %s, but %s %s; %s, or use a caption model trained on features of the encoder you have",
		ErrWrongEncoder, describeEncoder(want), what, describeEncoder(got), fix)
}

// checkEncoderFile checks that the encoder file at path is the one the
// model needs (want, "" for any).
func checkEncoderFile(path, want string) error {
	if want == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("captioning: encoder: %w", err)
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != want {
		return wrongEncoder("the encoder file "+path+" is", got, want)
	}
	return nil
}
