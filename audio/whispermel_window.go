package audio

// Window returns the encoder's input for the window of n frames starting
// at frame start, as transcribe() cuts it: pad_or_trim(mel[:, start :
// start+n], 3000), Mels rows of WhisperWindowFrames values. Frames past
// n (at most 3000 are taken) or past the spectrogram's end are 0, the
// value pad_or_trim pads the already normalized spectrogram with. dst is
// reused when it has the capacity.
func (s *WhisperSpectrogram) Window(dst []float32, start, n int) []float32 {
	const width = WhisperWindowFrames
	size := s.Mels * width
	if cap(dst) < size {
		dst = make([]float32, size)
	}
	dst = dst[:size]
	start = min(max(start, 0), s.Frames)
	take := max(0, min(n, width, s.Frames-start))
	for m := range s.Mels {
		row := dst[m*width : (m+1)*width]
		from := m*s.Frames + start
		copy(row, s.Data[from:from+take])
		clear(row[take:])
	}
	return dst
}
