package audio

import (
	"fmt"
	"math"
)

// G711Law names one of the two companding laws of ITU-T G.711, the 8-bit,
// 8 kHz (64 kbit/s) codec of the telephone network: µ-law in North
// America and Japan, A-law elsewhere.
type G711Law int

const (
	MuLaw G711Law = iota // µ-law (µ = 255), 14-bit range
	ALaw                 // A-law (A = 87.6), 13-bit range
)

func (l G711Law) String() string {
	switch l {
	case MuLaw:
		return "µ-law"
	case ALaw:
		return "A-law"
	}
	return fmt.Sprintf("G711Law(%d)", int(l))
}

// G711 passes samples through a G.711 encoder and decoder in place: each
// sample in [-1, 1] becomes the 16-bit value the reference decoder gives
// for the byte the reference encoder (Sun's g711.c, linear2ulaw and
// linear2alaw) writes for it. The quantization step grows with the level,
// about 38 dB of signal-to-quantization-noise ratio over a wide range, as
// over a digital telephone line. It is the codec half of a telephone
// channel; the band limit (resampling to 8 kHz) is the caller's.
func G711(samples []float32, law G711Law) error {
	var (
		encode func(int) byte
		table  *[256]float32
	)
	switch law {
	case MuLaw:
		encode, table = linearToMuLaw, &muLawTable
	case ALaw:
		encode, table = linearToALaw, &aLawTable
	default:
		return fmt.Errorf("audio: %v is not a G.711 law", law)
	}
	for i, x := range samples {
		v := math.Round(float64(x) / scale16)
		v = max(-32768, min(32767, v))
		samples[i] = table[encode(int(v))]
	}
	return nil
}

// linearToMuLaw encodes a 16-bit sample as a µ-law byte: the 14-bit
// sample (an arithmetic shift, so negative values round down) gives a
// magnitude, clipped to 8159 and biased by 33, written as the segment
// (3 bits: where its leading one lies) and the 4 bits after the leading
// one, with the sign in the top bit; the byte is stored inverted.
func linearToMuLaw(pcm int) byte {
	const bias, clip = 0x21, 8159
	pcm >>= 2
	mask := byte(0xFF)
	if pcm < 0 {
		pcm, mask = -pcm, 0x7F
	}
	pcm = min(pcm, clip) + bias
	seg := 0
	for seg < 8 && pcm > 0x40<<seg-1 {
		seg++
	}
	if seg == 8 {
		return 0x7F ^ mask
	}
	return (byte(seg)<<4 | byte(pcm>>(seg+1))&0x0F) ^ mask
}

// aLawSegmentEnds are the upper ends of A-law's eight segments on the
// 13-bit magnitude.
var aLawSegmentEnds = [8]int{0x1F, 0x3F, 0x7F, 0xFF, 0x1FF, 0x3FF, 0x7FF, 0xFFF}

// linearToALaw encodes a 16-bit sample as an A-law byte: the 13-bit
// magnitude's segment (3 bits) and 4 bits of it within the segment, with
// the sign in the top bit and the even bits inverted (XOR 0x55).
func linearToALaw(pcm int) byte {
	pcm >>= 3
	mask := byte(0xD5)
	if pcm < 0 {
		mask, pcm = 0x55, -pcm-1
	}
	seg := 0
	for seg < 8 && pcm > aLawSegmentEnds[seg] {
		seg++
	}
	if seg == 8 {
		return 0x7F ^ mask
	}
	a := byte(seg) << 4
	if seg < 2 {
		a |= byte(pcm>>1) & 0x0F
	} else {
		a |= byte(pcm>>seg) & 0x0F
	}
	return a ^ mask
}
