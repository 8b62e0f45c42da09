package audio

// The live endpointer (SegmentOptions.EndSilence). Over a live source the
// decided probabilities lag the audio by the detector's 1 s of context,
// and a segment's end is known SpeechPad + MinNoSpeech after that: about
// 1.5 s after the cut. Live transcription wants the end of an utterance
// within half a second, as whisper.cpp's stream VAD mode and Kaldi's
// endpointing rules (trailing silence after the best path's last word)
// give it. The detector's provisional probability of a frame
// (VAD.Provisional) lacks only the context it has not heard: for a frame
// 240 ms or more in the past its ±240 ms window is whole and only the
// noise floor's ±1 s is short, so after EndSilence of non-speech the
// provisional end of the speech is nearly always the decided one.
// liveCut cuts there, where the whole recording would be cut (SpeechPad
// after the last speech frame), when it sees that much non-speech.

// liveCut returns the next segment the live endpointer can cut now from
// the buffer's start: the NoSpeech stretch before the provisional speech
// (padded as maskFrames pads), then the speech segment that ends at the
// first pause of MinNoSpeech (padded) frames, or at the padded end of its
// last speech frame once EndSilence of non-speech follows that frame.
// ok is false when neither is known yet, the stream has ended (the
// decided path takes it from there), or the speech runs past MaxLength
// (cut by the decided path, as over a whole recording).
func (sg *Segmenter) liveCut() (Segment, bool) {
	start, end, ok := sg.liveBounds(sg.endFrames)
	if !ok {
		return Segment{}, false
	}
	if start > 0 {
		// The quiet before the speech, only now that its end is known:
		// the onset's provisional probabilities then have all the
		// context they lacked when it was heard. The next call returns
		// the speech.
		q := Segment{Rate: sg.rate, Start: sg.offset, NoSpeech: true}
		sg.extendQuiet(&q, start)
		return q, true
	}
	if end < sg.liveEnd {
		sg.cutInPause = true // a sentence cut: the rest is speech
	} else {
		sg.cutInPause = false
	}
	sg.inLead = false
	seg := Segment{
		Samples:           append([]float32(nil), sg.buf[:end]...),
		Rate:              sg.rate,
		Start:             sg.offset,
		End:               sg.offset + end,
		SpeechProbability: sg.liveProbability,
	}
	sg.drop(end)
	sg.liveFloor = sg.offset / VADHop
	sg.vad.Forget(sg.offset/VADHop - sg.padFrames - 1)
	return seg, true
}

// Tentative returns the speech segment the live endpointer
// (SegmentOptions.EndSilence) will return next if the non-speech now
// after it goes on to EndSilence, as sample indices of the recording
// [start, end), as soon as its samples have arrived: SpeechPad of
// non-speech after its last speech frame. A live transcriber can decode
// it while the endpointer waits and commit the result when that segment
// comes (the same Start and End). ok is false when there is none: no
// endpointer, no speech, speech still going on, or the end of the
// stream.
func (sg *Segmenter) Tentative() (start, end int, ok bool) {
	if sg.vad == nil || sg.endFrames == 0 {
		return 0, 0, false
	}
	s, e, ok := sg.liveBounds(sg.padFrames + 1)
	return sg.offset + s, sg.offset + e, ok
}

// liveBounds returns where, in samples from the buffer's start, the
// speech segment the live endpointer cuts starts and ends, with endFrames
// frames of non-speech after its last speech frame, and sets
// sg.liveEnd (its end before any sentence cut) and sg.liveProbability
// (its highest provisional probability).
func (sg *Segmenter) liveBounds(endFrames int) (start, end int, ok bool) {
	if !sg.waiting || sg.eof || sg.err != nil {
		return 0, 0, false
	}
	hop := VADHop
	v := sg.vad
	f0 := sg.offset / hop
	n := min(v.Analyzed()-f0, len(sg.buf)/hop) // frames measured from the buffer's start
	lo := max(v.Forgotten(), sg.liveFloor, f0-sg.padFrames)
	if n <= 0 || lo > f0 {
		return 0, 0, false
	}
	// prov[j-lo] is frame j's provisional probability, j in [lo, f0+n).
	sg.prov = sg.prov[:0]
	last := -1 // the last provisional speech frame, from f0
	for j := lo; j < f0+n; j++ {
		p := v.Provisional(j)
		sg.prov = append(sg.prov, p)
		if p > v.threshold && j >= f0 {
			last = j - f0
		}
	}
	speech := func(k int) bool { // frame f0+k, k in [lo−f0, n)
		j := f0 + k - lo
		return j >= 0 && k < n && sg.prov[j] > v.threshold
	}
	// The padded mask, as maskFrames computes it on decided frames.
	sg.mask = sg.mask[:0]
	for k := range n {
		near, any := false, false
		for d := -sg.padFrames; d <= sg.padFrames; d++ {
			if speech(k + d) {
				any = true
				near = near || (d >= -sg.noisePad && d <= sg.noisePad)
			}
		}
		sg.mask = append(sg.mask, any && (near || sg.prov[f0+k-lo] > 0))
	}
	first := 0
	if !sg.cutInPause && !sg.inLead {
		for first < n && !sg.mask[first] {
			first++
		}
		if first == n {
			return 0, 0, false // no speech yet: the decided path drops the quiet
		}
		if sg.offset == 0 && first < sg.gapFrames {
			start = 0 // a short lead-in belongs to the speech after it
		} else {
			start = first
		}
	}
	for first < n && !sg.mask[first] { // the lead-in before the speech is no pause
		first++
	}
	cut := -1
	for k := first; k < n && cut < 0; k++ {
		if sg.mask[k] {
			continue
		}
		run := k
		for run < n && !sg.mask[run] {
			run++
		}
		switch {
		case run-k >= sg.gapFrames && run < n:
			cut = k + min(sg.marginFrames, (run-k)/2) // a pause, as speechEnd cuts it
		case run == n && last >= 0 && n-1-last >= endFrames:
			cut = k // the end of the speech: the margin is not heard yet
		}
		k = run
	}
	if cut <= start || (cut-start)*hop > sg.max {
		return 0, 0, false
	}
	if start > 0 {
		return start * hop, cut * hop, true
	}
	end = cut * hop
	sg.liveEnd = end
	if c, ok := sg.sentenceCut(end); ok {
		end = c
	}
	sg.liveProbability = 0
	for _, p := range sg.prov[f0-lo : f0-lo+(end+hop-1)/hop] { // decided or provisional
		sg.liveProbability = max(sg.liveProbability, float64(p))
	}
	return 0, end, true
}
