package speech

import (
	"time"

	"github.com/attend-go/attend/models/whisper"
)

// stagedNetwork is a Whisper network that counts the encoder's windows
// and time and the tokens the decoders run, for Stages. One serves one
// transcription at a time (a Decoder's).
type stagedNetwork struct {
	whisper.Network
	encode  time.Duration
	windows int
	tokens  int
}

func (n *stagedNetwork) Encode(mel []float32) (*whisper.AudioFeatures, error) {
	start := time.Now()
	a, err := n.Network.Encode(mel)
	n.encode += time.Since(start)
	n.windows++
	return a, err
}

func (n *stagedNetwork) NewDecoder(a *whisper.AudioFeatures, recordCrossQK bool) whisper.TextDecoder {
	return &stagedDecoder{TextDecoder: n.Network.NewDecoder(a, recordCrossQK), n: n}
}

// stagedDecoder counts the tokens it runs.
type stagedDecoder struct {
	whisper.TextDecoder
	n *stagedNetwork
}

func (d *stagedDecoder) Forward(tokens []int) ([][]float32, error) {
	d.n.tokens += len(tokens)
	return d.TextDecoder.Forward(tokens)
}

func (d *stagedDecoder) Clone() whisper.TextDecoder {
	return &stagedDecoder{TextDecoder: d.TextDecoder.Clone(), n: d.n}
}
