package captioning

import (
	"fmt"

	"github.com/attend-go/attend/models/caption"
)

// OpenEnsemble opens the caption model files at paths ("" is the
// embedded default) as one caption.Ensemble, packed for captioning, and
// returns the hex SHA-256 of the encoder their features came from (""
// when none names one). The members must share the vocabulary, the grid
// and the encoder.
func OpenEnsemble(paths []string) (*caption.Ensemble, string, error) {
	var (
		ms      []*caption.Model
		encoder string
	)
	for i, p := range paths {
		m, sha, err := openModel(p)
		if err != nil {
			return nil, "", err
		}
		if p != "" { // the shared default comes packed
			m.PackForInference()
		}
		if i > 0 && sha != encoder {
			return nil, "", fmt.Errorf("%w: ensemble: %s was trained on features of %s, %s on features of %s: members must share the encoder",
				ErrWrongEncoder, nameOf(p), describeEncoder(sha), nameOf(paths[0]), describeEncoder(encoder))
		}
		encoder = sha
		ms = append(ms, m)
	}
	en, err := caption.NewEnsemble(ms...)
	if err != nil {
		return nil, "", fmt.Errorf("captioning: %w", err)
	}
	return en, encoder, nil
}

// nameOf names a model file for messages: "the embedded model" for "".
func nameOf(path string) string {
	if path == "" {
		return "the embedded model"
	}
	return path
}
