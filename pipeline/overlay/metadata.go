package overlay

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"

	"github.com/attend-go/attend/pipeline/batch"
)

// marker is the "Software" text of every figure this package writes: Dir
// replaces an existing file only if it carries it.
const marker = "attend caption overlay"

var (
	pngSignature = []byte("\x89PNG\r\n\x1a\n")
	errEncoded   = errors.New("overlay: unexpected encoder output")
)

// pngIHDREnd is where the chunk after IHDR starts: the signature (8), then
// IHDR's length (4), type (4), 13 bytes of data and CRC (4).
const pngIHDREnd = 8 + 4 + 4 + 13 + 4

// withPNGText inserts an iTXt chunk (UTF-8, uncompressed, no language)
// per keyword–text pair right after IHDR, where readers look first.
func withPNGText(file []byte, texts [][2]string) ([]byte, error) {
	if len(file) < pngIHDREnd || !bytes.HasPrefix(file, pngSignature) || string(file[12:16]) != "IHDR" {
		return nil, errEncoded
	}
	out := make([]byte, 0, len(file)+256)
	out = append(out, file[:pngIHDREnd]...)
	for _, kt := range texts {
		// keyword NUL, compression flag 0, method 0, language "" NUL,
		// translated keyword "" NUL, text.
		data := append([]byte(kt[0]), 0, 0, 0, 0, 0)
		data = append(data, kt[1]...)
		out = appendPNGChunk(out, "iTXt", data)
	}
	return append(out, file[pngIHDREnd:]...), nil
}

func appendPNGChunk(out []byte, typ string, data []byte) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	start := len(out)
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
}

// gifHeaderEnd returns where the blocks of a GIF start: after the header
// (6), the logical screen descriptor (7) and the global color table.
func gifHeaderEnd(file []byte) (int, bool) {
	if len(file) < 13 || (string(file[:6]) != "GIF89a" && string(file[:6]) != "GIF87a") {
		return 0, false
	}
	end := 13
	if flags := file[10]; flags&0x80 != 0 {
		end += 3 << (flags&7 + 1)
	}
	return end, end <= len(file)
}

// withGIFComment inserts a comment extension before the first block.
func withGIFComment(file []byte, text string) ([]byte, error) {
	end, ok := gifHeaderEnd(file)
	if !ok || string(file[:6]) != "GIF89a" {
		return nil, errEncoded
	}
	out := make([]byte, 0, len(file)+len(text)+8)
	out = append(out, file[:end]...)
	out = append(out, 0x21, 0xfe)
	for rest := []byte(text); len(rest) > 0; {
		n := min(len(rest), 255)
		out = append(out, byte(n))
		out = append(out, rest[:n]...)
		rest = rest[n:]
	}
	out = append(out, 0)
	return append(out, file[end:]...), nil
}

// withJPEGComment inserts a comment segment (COM) right after the start
// of image, cut to the 65,533 bytes a segment holds.
func withJPEGComment(file []byte, text string) ([]byte, error) {
	if len(file) < 2 || file[0] != 0xff || file[1] != 0xd8 {
		return nil, errEncoded
	}
	text = text[:min(len(text), 65533)]
	out := make([]byte, 0, len(file)+len(text)+4)
	out = append(out, 0xff, 0xd8, 0xff, 0xfe, byte((len(text)+2)>>8), byte(len(text)+2))
	out = append(out, text...)
	return append(out, file[2:]...), nil
}

// IsFigure reports whether a file starting with head (its first 1 KB
// suffice) is a figure this package wrote: a PNG whose first chunk after
// IHDR is the "Software" iTXt with the marker, or a GIF whose first block
// or a JPEG whose first segment is a comment starting with it.
func IsFigure(head []byte) bool {
	if len(head) >= 6+len(marker) && head[0] == 0xff && head[1] == 0xd8 && head[2] == 0xff && head[3] == 0xfe {
		return string(head[6:6+len(marker)]) == marker
	}
	if bytes.HasPrefix(head, pngSignature) {
		want := appendPNGChunk(nil, "iTXt", append([]byte("Software\x00\x00\x00\x00\x00"), marker...))
		return len(head) >= pngIHDREnd+len(want) && bytes.Equal(head[pngIHDREnd:pngIHDREnd+len(want)], want)
	}
	end, ok := gifHeaderEnd(head)
	if !ok {
		return false
	}
	b := head[end:]
	return len(b) >= 3+len(marker) && b[0] == 0x21 && b[1] == 0xfe &&
		int(b[2]) >= len(marker) && string(b[3:3+len(marker)]) == marker
}

// AcceptImage selects the images of a directory walk (for
// batch.CollectOptions.Accept): batch.IsImage's files, except the figures
// of this package, so that a run over a directory that holds the figures
// of an earlier run does not draw figures of figures.
func AcceptImage(path string, head []byte) bool {
	return batch.IsImage(path, head) && !IsFigure(head)
}
