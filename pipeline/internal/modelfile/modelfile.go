// Package modelfile reads the model file a tool's -model flag names, with
// errors a person can act on. pipeline/speechmodel and pipeline/captioning load
// their models through it.
package modelfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/attend-go/attend/models/safetensors"
)

// kindNames says what each kind of attend model is and which tool uses
// it, for errors about a model given to the wrong tool.
var kindNames = map[string]string{
	"asr":     "a speech recognition model (for asr)",
	"asr-lm":  "a character language model (for asr's language-model option)",
	"caption": "an image captioning model (for caption)",
}

// Sentinels for files of other formats that people pass as a model by
// mistake; the commands add which flag takes them.
var (
	ErrEncoderFile       = errors.New("a TensorFlow Lite model, such as the image encoder")
	ErrLanguageModelFile = errors.New("a language model (ARPA text, gzip or a Sphinx .lm.bin)")
)

// Read reads the attend model file at path (a -model flag) that
// should hold a model of kind, with errors a person can act on: a file
// that is not a model at all says so and names the file, rather than
// reporting a header length read from its first bytes, and a model of
// another kind (the other tool's) says which it is. A damaged model file
// keeps the safetensors package's detailed error.
func Read(path, kind string) (*safetensors.File, error) {
	f, err := safetensors.ReadFile(path)
	if err != nil {
		if errors.Is(err, safetensors.ErrCorrupt) {
			if why, other := notSafetensors(path); why != "" {
				return nil, &modelFileError{safetensors.ErrCorrupt, other, fmt.Sprintf(
					"%s is not an attend model file: %s; attend models are the .safetensors files that train, average and export write", path, why)}
			}
		}
		return nil, err
	}
	if f.Kind != kind {
		what, ok := kindNames[f.Kind]
		if !ok {
			what = fmt.Sprintf("a model of kind %q", f.Kind)
		}
		return nil, &modelFileError{safetensors.ErrKind, nil, fmt.Sprintf("%s is %s, not %s", path, what, kindNames[kind])}
	}
	return f, nil
}

// notSafetensors says why the file at path is not a safetensors file at
// all, or returns "" when it looks like one (damaged or not); other is
// ErrEncoderFile or ErrLanguageModelFile when the file is one of those.
func notSafetensors(path string) (why string, other error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", nil
	}
	defer fh.Close() // read-only
	head := make([]byte, 9)
	n, err := io.ReadFull(fh, head)
	st, serr := fh.Stat()
	switch {
	case n == 0:
		return "it is empty", nil
	case err != nil || serr != nil:
		return "it is too short to be one", nil
	}
	length := binary.LittleEndian.Uint64(head[:8])
	if length > uint64(st.Size()) || head[8] != '{' {
		other := sniffKind(head)
		if other == errZip {
			return "it is not a safetensors file (it is a zip archive, as PyTorch saves)", nil
		}
		if other != nil {
			return fmt.Sprintf("it is not a safetensors file (it is %v)", other), other
		}
		return "it is not a safetensors file", nil
	}
	if _, err := safetensors.NewReader(fh, st.Size()); err == nil {
		return "it is a safetensors file without attend's metadata (attend.kind)", nil
	}
	return "", nil
}

var errZip = errors.New("a zip archive")

// sniffKind names a few formats people pass by mistake.
func sniffKind(head []byte) error {
	switch {
	case len(head) >= 8 && bytes.Equal(head[4:8], []byte("TFL3")):
		return ErrEncoderFile
	case bytes.HasPrefix(head, []byte("PK")):
		return errZip
	case bytes.HasPrefix(head, []byte("\\data")), bytes.HasPrefix(head, []byte("\x1f\x8b")), bytes.HasPrefix(head, []byte("Trie Lang")):
		return ErrLanguageModelFile
	}
	return nil
}

// modelFileError is an error of Read: a message for people that
// wraps the safetensors package's sentinel for callers.
type modelFileError struct {
	sentinel error
	other    error // ErrEncoderFile, ErrLanguageModelFile or nil
	msg      string
}

func (e *modelFileError) Error() string { return e.msg }
func (e *modelFileError) Unwrap() []error {
	if e.other == nil {
		return []error{e.sentinel}
	}
	return []error{e.sentinel, e.other}
}
