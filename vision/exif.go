package vision

import "encoding/binary"

// JPEG markers used while looking for the EXIF segment.
const (
	markerSOI  = 0xd8
	markerEOI  = 0xd9
	markerSOS  = 0xda
	markerAPP1 = 0xe1
	markerTEM  = 0x01
	markerRST0 = 0xd0
	markerRST7 = 0xd7
)

// exifOrientationTag is the TIFF tag holding the orientation (EXIF 2.32,
// section 4.6.4 A, tag 0x0112 "Orientation", type SHORT, count 1).
const exifOrientationTag = 0x0112

// jpegOrientation returns the EXIF orientation of a JPEG from its leading
// bytes, or orientNormal if there is none or it cannot be read. It only
// reads inside data and never fails: a broken EXIF block must not make an
// otherwise good photo undecodable.
//
// It walks the marker segments from SOI up to the first SOS and reads the
// first APP1 segment whose payload starts with "Exif\x00\x00".
func jpegOrientation(data []byte) orientation {
	if len(data) < 2 || data[0] != 0xff || data[1] != markerSOI {
		return orientNormal
	}
	p := 2
	for p+1 < len(data) {
		if data[p] != 0xff {
			return orientNormal // not at a marker: not a JPEG we understand
		}
		m := data[p+1]
		p += 2
		switch {
		case m == 0xff: // fill byte: the marker code comes later
			p--
			continue
		case m == markerSOI || m == markerTEM || markerRST0 <= m && m <= markerRST7:
			continue // markers without a length
		case m == markerEOI || m == markerSOS:
			return orientNormal // EXIF must precede the image data
		}
		if p+2 > len(data) {
			return orientNormal
		}
		n := int(binary.BigEndian.Uint16(data[p:])) // includes its own 2 bytes
		if n < 2 || p+n > len(data) {
			return orientNormal
		}
		seg := data[p+2 : p+n]
		p += n
		if m == markerAPP1 && len(seg) >= 6 && string(seg[:6]) == "Exif\x00\x00" {
			return exifOrientation(seg[6:])
		}
	}
	return orientNormal
}

// exifOrientation reads the orientation tag from IFD0 of the TIFF structure
// that an EXIF APP1 segment carries after its "Exif\0\0" header:
//
//	bytes 0-1  "II" (little-endian) or "MM" (big-endian)
//	bytes 2-3  42
//	bytes 4-7  offset of IFD0 from the start of the TIFF structure
//	IFD0       2-byte entry count, then 12-byte entries:
//	           tag(2) type(2) count(4) value-or-offset(4)
//
// A SHORT that fits in 4 bytes is stored left-justified in the value field,
// so its bytes are the first two of the field in either byte order.
// Anything malformed, or a value outside 1..8, yields orientNormal.
func exifOrientation(tiff []byte) orientation {
	if len(tiff) < 8 {
		return orientNormal
	}
	var bo binary.ByteOrder
	switch string(tiff[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return orientNormal
	}
	if bo.Uint16(tiff[2:]) != 42 {
		return orientNormal
	}
	ifd := uint64(bo.Uint32(tiff[4:]))
	if ifd < 8 || ifd+2 > uint64(len(tiff)) {
		return orientNormal
	}
	count := uint64(bo.Uint16(tiff[ifd:]))
	const typeShort = 3
	for i := uint64(0); i < count; i++ {
		e := ifd + 2 + 12*i
		if e+12 > uint64(len(tiff)) {
			return orientNormal
		}
		entry := tiff[e : e+12]
		if bo.Uint16(entry) != exifOrientationTag {
			continue
		}
		if bo.Uint16(entry[2:]) != typeShort || bo.Uint32(entry[4:]) != 1 {
			return orientNormal
		}
		if v := bo.Uint16(entry[8:]); v >= 1 && v <= 8 {
			return orientation(v)
		}
		return orientNormal
	}
	return orientNormal
}
