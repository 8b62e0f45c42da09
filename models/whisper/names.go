package whisper

// ReleasedName returns the name of OpenAI's released model whose
// dimensions d are ("tiny.en", "base", "large-v3", "large-v3-turbo", …),
// and false for other shapes (fine-tuned models keep their base's shape,
// and so its name). large-v1 and large-v2 have the same shape: it says
// "large-v2".
func (d Dims) ReleasedName() (string, bool) {
	if d.NAudioLayer != d.NTextLayer && !(d.NAudioLayer == 32 && d.NTextLayer == 4) {
		return "", false
	}
	var name string
	switch {
	case d.NAudioState == 384 && d.NAudioLayer == 4:
		name = "tiny"
	case d.NAudioState == 512 && d.NAudioLayer == 6:
		name = "base"
	case d.NAudioState == 768 && d.NAudioLayer == 12:
		name = "small"
	case d.NAudioState == 1024 && d.NAudioLayer == 24:
		name = "medium"
	case d.NAudioState == 1280 && d.NAudioLayer == 32 && d.NTextLayer == 4 && d.NMels == 128:
		return "large-v3-turbo", true
	case d.NAudioState == 1280 && d.NAudioLayer == 32 && d.NMels == 128:
		return "large-v3", true
	case d.NAudioState == 1280 && d.NAudioLayer == 32:
		return "large-v2", true
	default:
		return "", false
	}
	if !d.Multilingual() {
		name += ".en"
	}
	return name, true
}

// AlignmentHeadsFor returns the cross-attention heads word timing reads
// for a model of dims d: openai/whisper's list for a released shape,
// else every head of the last half of the decoder layers.
func AlignmentHeadsFor(d Dims) [][2]int {
	if name, ok := d.ReleasedName(); ok {
		if h, ok := AlignmentHeads(name); ok {
			return h
		}
	}
	return DefaultAlignmentHeads(d)
}
