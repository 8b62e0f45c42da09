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
// the buffer's start: a NoSpeech segment up to where the provisional
// speech (padded as maskFrames pads) begins, or the speech segment that
// ends at the first pause of MinNoSpeech (padded) frames, or at the
// padded end of its last speech frame once EndSilence of non-speech
// follows that frame. ok is false when neither is known yet, the stream
// has ended (the decided path takes it from there), or the speech runs
// past MaxLength (cut by the decided path, as over a whole recording).
func (sg *Segmenter) liveCut() (Segment, bool) {
	if !sg.waiting || sg.eof || sg.err != nil {
		return Segment{}, false
	}
	hop := VADHop
	v := sg.vad
	f0 := sg.offset / hop
	n := min(v.Analyzed()-f0, len(sg.buf)/hop) // frames measured from the buffer's start
	lo := max(v.Forgotten(), sg.liveFloor, f0-sg.padFrames)
	if n <= 0 || lo > f0 {
		return Segment{}, false
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
	start := 0
	if !sg.cutInPause && !sg.inLead {
		for start < n && !sg.mask[start] {
			start++
		}
		if start == n {
			return Segment{}, false // no speech yet: the decided path drops the quiet
		}
		if sg.offset == 0 && start < sg.gapFrames {
			start = 0 // a short lead-in belongs to the speech after it
		}
	}
	first := start // the lead-in before the speech is no pause
	for first < n && !sg.mask[first] {
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
		case run == n && last >= 0 && n-1-last >= sg.endFrames:
			cut = k // the end of the speech: the margin is not heard yet
		}
		k = run
	}
	if cut <= start || (cut-start)*hop > sg.max {
		return Segment{}, false
	}
	if start > 0 {
		// The quiet before the speech, only now: the onset's
		// provisional probabilities had all the context they lacked
		// when it was heard. The next call returns the speech.
		q := Segment{Rate: sg.rate, Start: sg.offset, NoSpeech: true}
		sg.extendQuiet(&q, start*hop)
		return q, true
	}
	end := cut * hop
	sg.cutInPause, sg.inLead = false, false
	if c, ok := sg.sentenceCut(end); ok {
		end = c
		sg.cutInPause = true
	}
	seg := Segment{
		Samples: append([]float32(nil), sg.buf[:end]...),
		Rate:    sg.rate,
		Start:   sg.offset,
		End:     sg.offset + end,
	}
	for _, p := range sg.prov[f0-lo : f0-lo+(end+hop-1)/hop] { // decided or provisional
		seg.SpeechProbability = max(seg.SpeechProbability, float64(p))
	}
	sg.drop(end)
	sg.liveFloor = sg.offset / hop
	sg.vad.Forget(sg.offset/hop - sg.padFrames - 1)
	return seg, true
}
