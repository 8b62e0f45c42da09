package audio

// The WAV parser is this package's own. go-audio/wav v1.1.0 (a dependency,
// used by the tests as a reference decoder for integer PCM) cannot be made
// robust from outside: it allocates buffers of the size a LIST or fmt chunk
// header claims (up to 4 GiB from an 8-byte header), ignores read errors on
// chunk sizes, counts a data chunk's pad byte as a sample, scales 8-bit
// data as if it were signed, and has no IEEE float or A-law/µ-law decoding.

import (
	"encoding/binary"
	"fmt"
	"io"
)

// wavEncoding is how one sample is stored in the data chunk.
type wavEncoding int

const (
	wavPCM   wavEncoding = iota // linear PCM: unsigned 8-bit, signed otherwise
	wavFloat                    // IEEE 754 float
	wavALaw                     // ITU-T G.711 A-law, 8 bits
	wavMuLaw                    // ITU-T G.711 µ-law, 8 bits
)

// Format tags of the fmt chunk (RFC 2361, mmreg.h).
const (
	tagPCM        = 0x0001
	tagFloat      = 0x0003
	tagALaw       = 0x0006
	tagMuLaw      = 0x0007
	tagExtensible = 0xFFFE
)

// wavTagNames names unsupported format tags that turn up in practice.
var wavTagNames = map[uint16]string{
	0x0002: "Microsoft ADPCM",
	0x0011: "IMA ADPCM",
	0x0031: "GSM 6.10",
	0x0050: "MPEG Layer I/II",
	0x0055: "MPEG Layer III",
	0x0092: "Dolby AC-3",
	0x1610: "AAC",
	0xF1AC: "FLAC",
}

// ksSubformatTail is bytes 2..15 of every KSDATAFORMAT_SUBTYPE GUID whose
// first two bytes are a format tag (00000001-0000-0010-8000-00aa00389b71
// is PCM).
const ksSubformatTail = "\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"

// wavHeader is what a WAV file's header says about its samples.
type wavHeader struct {
	encoding   wavEncoding
	channels   int
	rate       int
	sampleSize int   // bytes per sample (the container: 1, 2, 3, 4 or 8)
	dataStart  int64 // offset of the first sample
	dataSize   int64 // bytes of sample data present in the file
	truncated  bool  // the data chunk declares more bytes than the file holds
}

func (h *wavHeader) frameSize() int64 { return int64(h.channels) * int64(h.sampleSize) }

// wavSizeUnknown is the data chunk size that streaming writers leave when
// they cannot go back to fill it in.
const wavSizeUnknown = 0xFFFFFFFF

// readWAVHeader parses the RIFF (or RF64/BW64) chunk structure of r, which
// holds size bytes, up to the start of the data chunk.
//
// Chunks other than fmt, data and ds64 (LIST, fact, bext, JUNK, ...) are
// skipped, in any order, each with its pad byte when its size is odd. A
// data chunk declaring more bytes than the file holds, or the size
// 0xFFFFFFFF, is taken to end at the end of the file: a recorder that was
// cut off leaves such a header, and its samples are still good.
func readWAVHeader(r io.ReadSeeker, size int64) (wavHeader, error) {
	var h wavHeader
	var riff [12]byte
	if err := readFull(r, riff[:], "RIFF header"); err != nil {
		return h, err
	}
	rf64 := string(riff[:4]) == "RF64" || string(riff[:4]) == "BW64"
	var ds64Data int64 = -1 // data size from the ds64 chunk
	haveFmt := false
	pos := int64(12)
	for {
		var ck [8]byte
		if err := readFull(r, ck[:], "chunk header"); err != nil {
			if err == errNoChunk {
				if !haveFmt {
					return h, formatErrorf("WAV: no fmt chunk")
				}
				return h, formatErrorf("WAV: no data chunk")
			}
			return h, err
		}
		id, n := string(ck[:4]), int64(le32(ck[4:]))
		body := pos + 8
		switch id {
		case "fmt ":
			if err := h.parseFmt(r, n); err != nil {
				return h, err
			}
			haveFmt = true
		case "ds64":
			if !rf64 {
				break
			}
			var b [24]byte
			if n < 24 {
				return h, formatErrorf("WAV: ds64 chunk of %d bytes, need 24", n)
			}
			if err := readFull(r, b[:], "ds64 chunk"); err != nil {
				return h, err
			}
			ds64Data = int64(min(binary.LittleEndian.Uint64(b[8:]), 1<<62))
		case "data":
			if !haveFmt {
				return h, formatErrorf("WAV: data chunk before the fmt chunk")
			}
			if rf64 && n == wavSizeUnknown && ds64Data >= 0 {
				n = ds64Data
			}
			h.dataStart = body
			h.truncated = n != wavSizeUnknown && n > size-body
			h.dataSize = max(min(n, size-body), 0)
			h.dataSize -= h.dataSize % h.frameSize()
			return h, nil
		}
		pos = body + n + n&1
		if _, err := r.Seek(pos, io.SeekStart); err != nil {
			return h, fmt.Errorf("audio: WAV: seeking to chunk at byte %d: %w", pos, err)
		}
	}
}

// parseFmt reads a fmt chunk of n bytes (WAVEFORMATEX, or
// WAVEFORMATEXTENSIBLE when the tag is 0xFFFE) and validates it. The
// redundant byte-rate and block-align fields are not used: the sample
// container is the bits per sample rounded up to whole bytes.
func (h *wavHeader) parseFmt(r io.Reader, n int64) error {
	if n < 16 {
		return formatErrorf("WAV: fmt chunk of %d bytes, need at least 16", n)
	}
	var b [40]byte
	k := min(n, int64(len(b)))
	if err := readFull(r, b[:k], "fmt chunk"); err != nil {
		return err
	}
	tag := le16(b[0:])
	channels := int(le16(b[2:]))
	rate := le32(b[4:])
	bits := int(le16(b[14:]))
	if tag == tagExtensible {
		if k < 40 || le16(b[16:]) < 22 {
			return formatErrorf("WAV: WAVE_FORMAT_EXTENSIBLE fmt chunk of %d bytes, need 40", n)
		}
		guid := b[24:40]
		if string(guid[2:]) != ksSubformatTail {
			return formatErrorf("WAV: WAVE_FORMAT_EXTENSIBLE with unknown sub-format GUID % x", guid)
		}
		tag = le16(guid)
	}
	switch tag {
	case tagPCM:
		h.encoding = wavPCM
		if bits < 1 || bits > 32 {
			return formatErrorf("WAV: PCM with %d bits per sample, need 1 to 32", bits)
		}
	case tagFloat:
		h.encoding = wavFloat
		if bits != 32 && bits != 64 {
			return formatErrorf("WAV: IEEE float with %d bits per sample, need 32 or 64", bits)
		}
	case tagALaw, tagMuLaw:
		h.encoding = wavALaw
		if tag == tagMuLaw {
			h.encoding = wavMuLaw
		}
		if bits != 8 {
			return formatErrorf("WAV: G.711 with %d bits per sample, need 8", bits)
		}
	default:
		name := wavTagNames[tag]
		if name == "" {
			name = "unknown"
		}
		return formatErrorf("WAV: format tag 0x%04x (%s) is not supported; supported are PCM, IEEE float, A-law and µ-law", tag, name)
	}
	if channels < 1 {
		return formatErrorf("WAV: fmt chunk declares %d channels", channels)
	}
	if rate < MinRate || rate > MaxRate {
		return formatErrorf("WAV: sample rate %d Hz outside the supported [%d, %d] Hz", rate, MinRate, MaxRate)
	}
	h.channels, h.rate, h.sampleSize = channels, int(rate), (bits+7)/8
	return nil
}

// errNoChunk is readFull's answer when the input ends exactly where a new
// chunk would start.
var errNoChunk = formatErrorf("WAV: no more chunks")

// readFull reads len(b) bytes of the named part of the header. Running out
// of input is a malformed (truncated) file; any other failure is returned
// as is.
func readFull(r io.Reader, b []byte, what string) error {
	n, err := io.ReadFull(r, b)
	switch {
	case err == nil:
		return nil
	case err == io.EOF && what == "chunk header":
		return errNoChunk
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return formatErrorf("WAV: %s truncated (%d of %d bytes)", what, n, len(b))
	}
	return fmt.Errorf("audio: reading WAV %s: %w", what, err)
}
