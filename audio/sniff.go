package audio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// Format is an audio file format that Open and Decode recognise.
type Format int

// The formats this package decodes. FormatUnknown is the zero value.
const (
	FormatUnknown   Format = iota
	FormatWAV              // RIFF/WAVE, RF64 and BW64
	FormatFLAC             // native FLAC, optionally behind an ID3v2 tag
	FormatOggVorbis        // Vorbis in an Ogg container
	FormatMP3              // MPEG-1/2 Layer III, optionally behind an ID3v2 tag
)

// String returns the format's common name, e.g. "Ogg Vorbis".
func (f Format) String() string {
	switch f {
	case FormatWAV:
		return "WAV"
	case FormatFLAC:
		return "FLAC"
	case FormatOggVorbis:
		return "Ogg Vorbis"
	case FormatMP3:
		return "MP3"
	case FormatUnknown:
		return "unknown"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// SniffLen is the number of bytes after any ID3v2 tags that Sniff needs
// for a certain answer: enough for an Ogg page header with a full segment
// table and for the largest MPEG audio frame plus the next frame's header.
// Fewer bytes still identify every format, with a weaker check of MP3.
const SniffLen = 2048

// Sniff identifies the format of a file from its first bytes, never from its
// name. header should hold the first SniffLen bytes of the file, or the whole
// file if it is shorter.
//
// Magic numbers: "RIFF"/"RF64"/"BW64" with form type "WAVE"; "fLaC"; "OggS"
// whose first packet is a Vorbis identification header; an MPEG audio frame
// header (11-bit sync, valid version, layer, bitrate and rate) at the first
// byte, confirmed by the next frame's header when header reaches it. An
// ID3v2 tag is skipped and the bytes after it are sniffed; when the tag runs
// past the end of header, Sniff answers FormatMP3, by far the most common
// case (Open skips the tag in the file itself and so always knows).
//
// Recognised but unsupported encodings (Ogg Opus, FLAC in Ogg, MPEG Layer
// I/II, AIFF, MP4, ...) and anything else give an error wrapping ErrFormat
// that says what was seen.
func Sniff(header []byte) (Format, error) {
	for range maxID3Tags {
		n, ok := id3v2Size(header)
		if !ok {
			break
		}
		if n >= len(header) {
			return FormatMP3, nil
		}
		header = header[n:]
	}
	return sniffBody(header)
}

// sniffBody identifies the format of bytes that do not start with an ID3v2
// tag.
func sniffBody(b []byte) (Format, error) {
	switch {
	case len(b) == 0:
		return FormatUnknown, formatErrorf("empty input")
	case hasPrefix(b, "RIFF"), hasPrefix(b, "RF64"), hasPrefix(b, "BW64"):
		if len(b) < 12 {
			return FormatUnknown, formatErrorf("%s header truncated to %d bytes", b[:4], len(b))
		}
		if form := b[8:12]; string(form) != "WAVE" {
			if looksLikeText(b[:min(len(b), 512)]) {
				return FormatUnknown, formatErrorf("unrecognised format: %s", describeBytes(b))
			}
			return FormatUnknown, formatErrorf("%s file of type %q, not WAVE", b[:4], form)
		}
		return FormatWAV, nil
	case hasPrefix(b, "fLaC"):
		return FormatFLAC, nil
	case hasPrefix(b, "OggS"):
		return sniffOgg(b)
	}
	if h, ok := parseMPEGHeader(b); ok {
		return sniffMPEG(b, h)
	}
	return FormatUnknown, formatErrorf("unrecognised format: %s", describeBytes(b))
}

// sniffOgg identifies the codec of an Ogg stream from its first packet.
//
// An Ogg page header is 27 bytes; byte 26 counts the lacing values that
// follow, and the first packet starts right after them (RFC 3533, section 6).
func sniffOgg(b []byte) (Format, error) {
	if len(b) < 27 {
		return FormatUnknown, formatErrorf("Ogg page header truncated to %d bytes", len(b))
	}
	start := 27 + int(b[26])
	if len(b) < start+8 {
		return FormatUnknown, formatErrorf("Ogg first packet truncated (%d bytes, need %d)", len(b), start+8)
	}
	p := b[start:]
	switch {
	case hasPrefix(p, "\x01vorbis"):
		return FormatOggVorbis, nil
	case hasPrefix(p, "OpusHead"):
		return FormatUnknown, formatErrorf("Ogg Opus is not supported (only Ogg Vorbis)")
	case hasPrefix(p, "\x7fFLAC"):
		return FormatUnknown, formatErrorf("FLAC in Ogg is not supported (only native FLAC and Ogg Vorbis)")
	case hasPrefix(p, "Speex   "):
		return FormatUnknown, formatErrorf("Ogg Speex is not supported (only Ogg Vorbis)")
	}
	return FormatUnknown, formatErrorf("Ogg stream with an unsupported codec (first packet starts %q)", p[:8])
}

// sniffMPEG accepts an MPEG audio frame header at b[0] when it is Layer III
// of MPEG-1 or MPEG-2 (what the MP3 decoder handles) and, if b reaches that
// far, the next frame starts with a compatible header. The second check
// keeps random binary data that happens to start with a sync word out.
func sniffMPEG(b []byte, h mpegHeader) (Format, error) {
	if next := h.frameLen(); next > 0 && len(b) >= next+4 {
		h2, ok := parseMPEGHeader(b[next:])
		if !ok || h2.version != h.version || h2.layer != h.layer || h2.rate != h.rate {
			return FormatUnknown, formatErrorf("unrecognised format: %s (an MPEG audio frame header not followed by another at byte %d)",
				describeBytes(b), next)
		}
	}
	if err := h.supported(); err != nil {
		return FormatUnknown, err
	}
	return FormatMP3, nil
}

// maxID3Tags bounds how many stacked ID3v2 tags are skipped.
const maxID3Tags = 8

// id3v2Size returns the total size of the ID3v2 tag at the start of b:
// a 10-byte header ("ID3", version, revision, flags, 28-bit synchsafe size),
// the tag body, and a 10-byte footer when flag bit 4 is set (ID3v2.4,
// section 3.1).
func id3v2Size(b []byte) (int, bool) {
	if len(b) < 10 || !hasPrefix(b, "ID3") || b[3] == 0xFF || b[4] == 0xFF {
		return 0, false
	}
	for _, c := range b[6:10] {
		if c >= 0x80 {
			return 0, false
		}
	}
	n := 10 + (int(b[6])<<21 | int(b[7])<<14 | int(b[8])<<7 | int(b[9]))
	if b[5]&0x10 != 0 {
		n += 10
	}
	return n, true
}

// otherFormats names common non-audio or unsupported files by their magic
// bytes at offset 0 (or 4 for MP4), for clearer errors.
var otherFormats = []struct {
	offset int
	magic  string
	name   string
}{
	{0, "FORM", "AIFF (not supported)"},
	{4, "ftyp", "MP4/M4A (not supported)"},
	{0, "\x1aE\xdf\xa3", "Matroska/WebM (not supported)"},
	{0, "#!AMR", "AMR (not supported)"},
	{0, "caff", "Core Audio Format (not supported)"},
	{0, "wvpk", "WavPack (not supported)"},
	{0, "MAC ", "Monkey's Audio (not supported)"},
	{0, "\x89PNG", "a PNG image"},
	{0, "\xff\xd8\xff", "a JPEG image"},
	{0, "GIF8", "a GIF image"},
	{0, "%PDF", "a PDF document"},
	{0, "PK\x03\x04", "a ZIP archive"},
	{0, "\x1f\x8b", "gzip-compressed data"},
}

// describeBytes says in a few words what b looks like: a known non-audio
// format, text (quoted), or the first bytes in hex.
func describeBytes(b []byte) string {
	for _, o := range otherFormats {
		if len(b) >= o.offset+len(o.magic) && string(b[o.offset:o.offset+len(o.magic)]) == o.magic {
			return "looks like " + o.name
		}
	}
	const show = 24
	head := b[:min(len(b), show)]
	if looksLikeText(b[:min(len(b), 512)]) {
		return fmt.Sprintf("looks like text, not audio: %q", head)
	}
	return fmt.Sprintf("first bytes % x", head)
}

// looksLikeText reports whether b is valid UTF-8 (a rune cut at the end is
// allowed) without control characters other than tab, CR, LF and FF.
func looksLikeText(b []byte) bool {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			return len(b) < utf8.UTFMax && !utf8.FullRune(b)
		}
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f' || r == 0x7f {
			return false
		}
		b = b[size:]
	}
	return true
}

func hasPrefix(b []byte, s string) bool { return bytes.HasPrefix(b, []byte(s)) }

// le16 and le32 read little-endian integers.
func le16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }
func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
