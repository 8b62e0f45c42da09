package audio

// ITU-T G.711 companded 8-bit telephony samples, decoded through 256-entry
// tables to the 16-bit linear values of the reference decoder (Sun's
// g711.c) and scaled by 2^-15: µ-law spans ±32124/32768, A-law
// ±32256/32768.
var aLawTable, muLawTable = g711Tables()

func g711Tables() (alaw, mulaw [256]float32) {
	for i := range 256 {
		alaw[i] = float32(aLawLinear(byte(i))) * scale16
		mulaw[i] = float32(muLawLinear(byte(i))) * scale16
	}
	return alaw, mulaw
}

// muLawLinear expands a µ-law byte (stored inverted) to 16-bit linear:
// magnitude ((mantissa<<3) + 0x84) << exponent, less the bias 0x84.
func muLawLinear(u byte) int {
	u = ^u
	t := (int(u&0x0F)<<3 + 0x84) << (u >> 4 & 7)
	if u&0x80 != 0 {
		return 0x84 - t
	}
	return t - 0x84
}

// aLawLinear expands an A-law byte (even bits inverted) to 16-bit linear.
func aLawLinear(a byte) int {
	a ^= 0x55
	t := int(a&0x0F) << 4
	switch seg := a >> 4 & 7; seg {
	case 0:
		t += 8
	case 1:
		t += 0x108
	default:
		t = (t + 0x108) << (seg - 1)
	}
	if a&0x80 != 0 {
		return t
	}
	return -t
}

func g711(dst []float32, src []byte, table *[256]float32) {
	for i, b := range src[:len(dst)] {
		dst[i] = table[b]
	}
}
