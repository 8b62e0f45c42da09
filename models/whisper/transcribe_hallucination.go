package whisper

import (
	"math"
	"strings"
)

// transcribe()'s hallucination_silence_threshold: with word timestamps, a
// segment whose first words look anomalous (improbable, under 0.133 s or
// over 2 s) and that silence surrounds is taken for a hallucination — the
// window is cut before it and decoding resumes there.

// hallucinationPunctuation is transcribe()'s fixed punctuation list, whose
// words do not count when scoring a segment.
const hallucinationPunctuation = "\"'“¿([{-\"'.。,，!！?？:：”)]}、"

// wordAnomalyScore is transcribe()'s word_anomaly_score.
func wordAnomalyScore(w Word) float64 {
	duration := w.End - w.Start
	score := 0.0
	if w.Probability < 0.15 {
		score += 1
	}
	if duration < 0.133 {
		score += (0.133 - duration) * 15
	}
	if duration > 2.0 {
		score += duration - 2.0
	}
	return score
}

// isSegmentAnomaly is transcribe()'s is_segment_anomaly over the first
// eight words that are not punctuation.
func isSegmentAnomaly(s *Segment) bool {
	if s == nil || len(s.Words) == 0 {
		return false
	}
	var words []Word
	for _, w := range s.Words {
		if !strings.Contains(hallucinationPunctuation, w.Word) {
			words = append(words, w)
		}
	}
	words = words[:min(8, len(words))]
	score := 0.0
	for _, w := range words {
		score += wordAnomalyScore(w)
	}
	return score >= 3 || score+0.01 >= float64(len(words))
}

// nextWordsSegment returns the first segment with words, or nil.
func nextWordsSegment(segs []Segment) *Segment {
	for i := range segs {
		if len(segs[i].Words) > 0 {
			return &segs[i]
		}
	}
	return nil
}

// skipHallucinations applies the threshold to a window's segments (after
// word timing): it may move t.seek, drop the segments from a suspected
// hallucination on, or report that the whole window is to be skipped
// (resuming after its leading silence).
func (t *transcription) skipHallucinations(current []Segment, threshold float64, previousSeek, segmentSize int, timeOffset, windowEnd, segmentDuration float64, singleTimestampEnding bool) ([]Segment, bool) {
	if !singleTimestampEnding {
		if end, ok := lastWordEnd(current); ok && end > timeOffset {
			if windowEnd-end > threshold {
				t.seek = int(math.RoundToEven(end * melFramesPerSecond))
			} else {
				t.seek = previousSeek + segmentSize
			}
		}
	}

	// If the first segment might be a hallucination, skip leading silence.
	if first := nextWordsSegment(current); first != nil && isSegmentAnomaly(first) {
		if gap := first.Start - timeOffset; gap > threshold {
			t.seek = previousSeek + int(math.RoundToEven(gap*melFramesPerSecond))
			return nil, true
		}
	}

	// Skip silence before any possible hallucination that is surrounded
	// by silence or more hallucinations.
	contentDuration := float64(t.content*melHopLength) / audioSampleRate
	lastEnd := t.lastSpeechTimestamp
	for si := range current {
		s := &current[si]
		if len(s.Words) == 0 {
			continue
		}
		if isSegmentAnomaly(s) {
			next := nextWordsSegment(current[si+1:])
			nextStart := timeOffset + segmentDuration
			if next != nil {
				nextStart = next.Words[0].Start
			}
			silenceBefore := s.Start-lastEnd > threshold || s.Start < threshold || s.Start-timeOffset < 2.0
			silenceAfter := nextStart-s.End > threshold || isSegmentAnomaly(next) || windowEnd-s.End < 2.0
			if silenceBefore && silenceAfter {
				t.seek = int(math.RoundToEven(math.Max(timeOffset+1, s.Start) * melFramesPerSecond))
				if contentDuration-s.End < threshold {
					t.seek = t.content
				}
				return current[:si], false
			}
		}
		lastEnd = s.End
	}
	return current, false
}
