package synth

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/attend-go/attend/internal/atomicfile"
)

// wavHeaderSize is the size of the canonical header WriteWAV writes.
const wavHeaderSize = 44

// WriteWAV writes x as a mono 16-bit PCM WAV file at rate: the canonical
// 44-byte RIFF header (fmt chunk of 16 bytes, then data). Samples are
// scaled by 32767, rounded and clamped to [−32768, 32767].
func WriteWAV(w io.Writer, x []float32, rate int) error {
	data := 2 * len(x)
	if data > math.MaxUint32-36 {
		return fmt.Errorf("synth: wav: %d samples do not fit a WAV file", len(x))
	}
	var h [wavHeaderSize]byte
	copy(h[0:], "RIFF")
	binary.LittleEndian.PutUint32(h[4:], uint32(36+data))
	copy(h[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(h[16:], 16)
	binary.LittleEndian.PutUint16(h[20:], 1) // PCM
	binary.LittleEndian.PutUint16(h[22:], 1) // mono
	binary.LittleEndian.PutUint32(h[24:], uint32(rate))
	binary.LittleEndian.PutUint32(h[28:], uint32(2*rate))
	binary.LittleEndian.PutUint16(h[32:], 2)  // block align
	binary.LittleEndian.PutUint16(h[34:], 16) // bits per sample
	copy(h[36:], "data")
	binary.LittleEndian.PutUint32(h[40:], uint32(data))
	bw := bufio.NewWriter(w)
	bw.Write(h[:])
	var s [2]byte
	for _, v := range x {
		q := math.Round(float64(v) * 32767)
		q = min(max(q, -32768), 32767)
		binary.LittleEndian.PutUint16(s[:], uint16(int16(q)))
		bw.Write(s[:])
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("synth: wav: %w", err)
	}
	return nil
}

// writeFileAtomic writes a file (mode 0644) through a temporary file in
// the same directory, synced and renamed into place, so a reader (or a
// resumed run, even after a crash) never sees a partial file under the
// final name.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	return atomicfile.WriteFile(path, write, &atomicfile.Options{Perm: 0o644})
}

// wavSeconds returns the duration of a file WriteWAV wrote, from its size.
func wavSeconds(size int64) float64 {
	return float64(size-wavHeaderSize) / (2 * SampleRate)
}
