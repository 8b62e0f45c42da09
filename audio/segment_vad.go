package audio

import (
	"errors"
	"io"
)

// nextVAD is Next with voice activity detection (and, over a live
// source, the live endpointer: liveCut). The buffer always starts
// on a VAD frame boundary (sg.offset is a multiple of VADHop): every cut
// falls on one.
//
// A frame is speech in the mask when the VAD calls a frame within
// SpeechPad of it speech (within NoisePad for a frame of probability 0). From the buffer's start:
//
//   - a run of non-speech frames becomes a NoSpeech segment, its samples
//     dropped as they are read, so hours of silence cost no memory; a run
//     shorter than MinNoSpeech at the start of the recording is left to
//     the speech segment after it;
//   - otherwise a speech segment runs to the first gap of at least
//     MinNoSpeech (or the end of the stream, a shorter gap before it
//     included) if that is within MaxLength; if not, it is cut in the middle of the longest stretch
//     the VAD called non-speech (before padding) whose middle lies in the
//     SearchWindow before MaxLength, and failing that at the quietest
//     point there, as without a VAD. The next segment then starts at the
//     cut whatever the mask says, so segments stay contiguous.
func (sg *Segmenter) nextVAD() (Segment, error) {
	seg, err := sg.nextDecided()
	if errors.Is(err, ErrPending) && sg.endFrames > 0 {
		if live, ok := sg.liveCut(); ok {
			return live, nil
		}
	}
	return seg, err
}

// nextDecided is nextVAD on the detector's decided probabilities alone.
func (sg *Segmenter) nextDecided() (Segment, error) {
	hop := VADHop
	// Look-ahead: the VAD decides a frame 1 s after it, the mask of a
	// frame needs the decisions SpeechPad later, and telling a long gap
	// from a short one MinNoSpeech later.
	ahead := (vadFloorContext+sg.padFrames+sg.gapFrames+2)*hop + vadWindow
	var quiet *Segment // a NoSpeech run being read
	for {
		sg.fill(sg.max + ahead)
		end := sg.offset + len(sg.buf) // samples read
		if len(sg.buf) == 0 {
			if quiet != nil {
				return *quiet, nil
			}
			if sg.err != nil {
				return Segment{}, sg.err
			}
			if sg.waiting {
				return Segment{}, ErrPending
			}
			return Segment{}, io.EOF
		}
		done := sg.eof || sg.err != nil
		f0 := sg.offset / hop
		known := sg.maskFrames(f0, done) // mask[k] is frame f0+k
		if known == 0 && !done {         // only a live source gets here (ErrPending)
			if quiet != nil {
				return *quiet, nil
			}
			return Segment{}, ErrPending
		}
		if quiet != nil || (!sg.cutInPause && !sg.inLead && !sg.mask[0]) {
			run := 0
			for run < known && !sg.mask[run] {
				run++
			}
			startOfRecording := sg.offset == 0 && quiet == nil
			switch {
			case run == known && !done:
				// Non-speech to the end of what is known: drop it but the
				// margin the next speech segment may start with, read on.
				if sg.waiting && startOfRecording && run < sg.gapFrames {
					return Segment{}, ErrPending // it may be a lead-in
				}
				if quiet == nil {
					quiet = &Segment{Rate: sg.rate, Start: sg.offset, NoSpeech: true}
				}
				sg.extendQuiet(quiet, max(0, run-sg.marginFrames)*hop)
				if sg.waiting {
					// A live source: say what is known to be quiet now.
					if quiet.End == quiet.Start {
						return Segment{}, ErrPending
					}
					return *quiet, nil
				}
				continue
			case run < known && run < sg.gapFrames && startOfRecording:
				// A short lead-in belongs to the speech after it.
			default:
				n := min(run*hop, len(sg.buf))
				if run < known {
					// Speech follows: it keeps a margin of the gap.
					n = max(0, run-sg.marginFrames) * hop
					sg.inLead = true
				}
				if n == 0 && quiet == nil {
					break // the whole gap is the margin
				}
				if quiet == nil {
					quiet = &Segment{Rate: sg.rate, Start: sg.offset, NoSpeech: true}
				}
				sg.extendQuiet(quiet, n)
				return *quiet, nil
			}
		}
		if quiet != nil {
			return *quiet, nil
		}
		cut, ok := sg.speechEnd(known, done)
		if !ok && sg.waiting && len(sg.buf) < sg.max+ahead {
			// A live source: the speech may still end before MaxLength.
			return Segment{}, ErrPending
		}
		sg.cutInPause, sg.inLead = false, false
		if !ok {
			cut = sg.pauseCut()
			sg.cutInPause = true
		}
		cut = min(cut, end-sg.offset)
		if c, ok := sg.sentenceCut(cut); ok {
			cut = c
			sg.cutInPause = true
		}
		seg := Segment{
			Samples:           append([]float32(nil), sg.buf[:cut]...),
			Rate:              sg.rate,
			Start:             sg.offset,
			End:               sg.offset + cut,
			SpeechProbability: sg.maxProbability(sg.offset, sg.offset+cut),
		}
		sg.drop(cut)
		sg.vad.Forget(sg.offset/hop - sg.padFrames - 1)
		return seg, nil
	}
}

// extendQuiet drops n samples from the buffer into the NoSpeech segment q.
func (sg *Segmenter) extendQuiet(q *Segment, n int) {
	sg.drop(n)
	q.End = sg.offset
	q.SpeechProbability = max(q.SpeechProbability, sg.maxProbability(q.End-n, q.End))
	sg.vad.Forget(sg.offset/VADHop - sg.padFrames - 1)
}

// maskFrames fills sg.mask from frame f0 on with the padded speech mask,
// as far as it is known, and returns how many frames it holds: up to the
// end of the buffer at the end of the stream, else up to the last frame
// whose padding window the VAD has decided.
func (sg *Segmenter) maskFrames(f0 int, done bool) int {
	decided := sg.vad.Decided()
	n := decided - f0
	if !done {
		n -= sg.padFrames
	}
	n = max(0, n)
	sg.mask = sg.mask[:0]
	lo := max(sg.vad.Forgotten(), sg.liveFloor) // speech before a live cut pads nothing after it
	// Running counts of speech frames in the windows [k−pad, k+pad]
	// and [k−noisePad, k+noisePad]; the second is the one of frames with
	// probability 0 (steady noise or silence).
	count, near := 0, 0
	for j := max(lo, f0-sg.padFrames); j < min(decided, f0+sg.padFrames); j++ {
		if sg.vad.Speech(j) {
			count++
		}
	}
	for j := max(lo, f0-sg.noisePad); j < min(decided, f0+sg.noisePad); j++ {
		if sg.vad.Speech(j) {
			near++
		}
	}
	for k := f0; k < f0+n; k++ {
		if j := k + sg.padFrames; j < decided && sg.vad.Speech(j) {
			count++
		}
		if j := k + sg.noisePad; j < decided && sg.vad.Speech(j) {
			near++
		}
		sg.mask = append(sg.mask, count > 0 && (near > 0 || sg.vad.Probability(k) > 0))
		if j := k - sg.padFrames; j >= lo && sg.vad.Speech(j) {
			count--
		}
		if j := k - sg.noisePad; j >= lo && sg.vad.Speech(j) {
			near--
		}
	}
	return n
}

// speechEnd returns where the speech segment at the buffer's start ends:
// at the first gap of MinNoSpeech frames, or at the end of the stream,
// if that is within MaxLength. ok is false when the segment must be cut
// inside speech.
func (sg *Segmenter) speechEnd(known int, done bool) (cut int, ok bool) {
	hop := VADHop
	limit := sg.max / hop // frames
	first := 0            // the margin before the speech is no gap
	for first < known && !sg.mask[first] {
		first++
	}
	for k := first; k < known; k++ {
		if sg.mask[k] {
			continue
		}
		run := k
		for run < known && !sg.mask[run] {
			run++
		}
		if run == known && done && run-k < sg.gapFrames && known*hop <= sg.max+hop {
			return len(sg.buf), true // a short tail belongs to the speech before it
		}
		if run-k >= sg.gapFrames || (run == known && done) {
			if k <= limit {
				// End in the gap: a margin of it, at most half.
				tail := min(sg.marginFrames, (run-k)/2)
				return min(k+tail, limit) * hop, true
			}
			return 0, false
		}
		k = run
	}
	if done && known*hop <= sg.max+hop {
		return len(sg.buf), true // speech to the end of the stream
	}
	return 0, false
}

// pauseCut returns where to cut a speech segment longer than MaxLength:
// the middle of the longest run of frames the VAD called non-speech
// (before padding) whose middle falls within the SearchWindow before
// MaxLength, or the quietest point there (cutPoint) when the VAD saw no
// pause, rounded down to a frame.
func (sg *Segmenter) pauseCut() int {
	hop := VADHop
	lo, hi := (sg.max-sg.search)/hop, sg.max/hop
	bestLen, bestMid := sg.longestPause(sg.vad.Decided(), func(k, run int) bool {
		mid := (k + run) / 2
		return mid >= lo && mid <= hi
	})
	if bestLen > 0 && bestMid > 0 {
		return bestMid * hop
	}
	if len(sg.buf) <= sg.max {
		return len(sg.buf)
	}
	return max(hop, sg.cutPoint()/hop*hop)
}

// longestPause returns the length and middle of the longest run of frames
// the VAD called non-speech (before padding) that keep accepts, in frames
// from the buffer's start; runs end at frame end at the latest, and
// between runs of the same length the later wins. n is 0 when keep
// accepts none.
func (sg *Segmenter) longestPause(end int, keep func(k, run int) bool) (n, mid int) {
	f0 := sg.offset / VADHop
	end = min(end, sg.vad.Decided()-f0)
	for k := 0; k < end; {
		if sg.vad.Speech(f0 + k) {
			k++
			continue
		}
		run := k
		for run < end && !sg.vad.Speech(f0+run) {
			run++
		}
		if keep(k, run) && run-k >= n {
			n, mid = run-k, (k+run)/2
		}
		k = run
	}
	return n, mid
}

// maxProbability returns the highest VAD probability of the frames that
// overlap samples [from, to) and are still held.
func (sg *Segmenter) maxProbability(from, to int) float64 {
	var p float32
	lo := max(from/VADHop, sg.vad.Forgotten())
	hi := min((to+VADHop-1)/VADHop, sg.vad.Decided())
	for k := lo; k < hi; k++ {
		p = max(p, sg.vad.Probability(k))
	}
	return float64(p)
}
