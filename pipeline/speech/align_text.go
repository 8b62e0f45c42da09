package speech

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/internal/input"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// ErrNoText marks a text to align that holds no word once normalized.
var ErrNoText = errors.New("no words to align")

// AlignChunkLength is the longest chunk AlignStream forces a text through
// by default. Attention holds on to the audio over inputs as long as the
// utterances it was trained on (3.4 s on average for the default model,
// at most 16 s) and loses its place over longer ones, the more so across
// long pauses; on synthetic clips of 20 words (about 16 s), chunks of at
// most 8 s instead of transcription's 15 s keep 92.5% of word starts
// within 100 ms instead of 87–90% (asr timing -mode forced -clips 20
// -words 20 -chunk 8s or 15s, seeds 1 and 2).
const AlignChunkLength = 8 * time.Second

// Align returns the transcript of the audio file at path ("-": stdin)
// whose words are text's, with times from forced alignment (see
// AlignStream).
func (t *Transcriber) Align(path string, stdin io.Reader, text string) (*Transcript, error) {
	return withAudioFile(path, stdin, func(stream audio.Stream) (*Transcript, error) {
		return t.AlignStream(path, stream, text)
	})
}

// AlignStream times the words of a known text in decoded audio: subtitles
// for a script. The text is normalized (speechdata.Normalize) and forced
// through the speller (asr.Model.Align), and each character is placed at
// its frame on the best monotonic path through the attention weights and
// the CTC posteriors (decode.MonotonicFrames); word spans follow from
// the characters' frames as in transcription (wordTimes): a word starts at
// the start of its first character's encoder frame and ends at the end of
// its last one's. Search options do not apply.
//
// The transcript shows the script's own words: its Text is the script
// with white space collapsed, and each Word is a white-space separated
// word of it as written ("Dr.", "$5."), with the normalized words it was
// aligned as in Normalized ("dr", "five"); its time spans theirs, and a
// word that normalizes to nothing (a dash) is shown with a neighbour.
// ScriptScore says how well the script fits the audio (see
// MismatchScore). Times are rounded to milliseconds.
//
// Long audio is cut into chunks at pauses as Stream cuts it, but of at
// most AlignChunkLength unless the options' Segment.MaxLength says
// otherwise, and the text is shared out among the chunks by the most
// likely CTC alignment of the whole text to the whole recording
// (decode.CTCSplit: a word goes to the chunk that holds its middle
// character), after which the speller may move each boundary by up to
// two words to where it finds the text most likely (see settleShare; it
// forces at most 25 candidate texts through each chunk, about 0.15 s per
// 8 s chunk on one core). So audio of more than one chunk needs a model with a CTC
// head (else the error wraps asr.ErrNoCTC), and the whole recording is
// encoded before any word is timed. For an hour of speech that holds
// about 120 MB of encoder output and 200 MB of CTC scores at the cuts,
// and the split takes about a minute on top of the encoding (a second
// for ten minutes). A chunk that gets no word has an empty text; chunks
// are cut between words as written, never inside "1999".
func (t *Transcriber) AlignStream(path string, stream audio.Stream, text string) (*Transcript, error) {
	name := input.DisplayName(path)
	script := scriptWords(text)
	if len(script) == 0 {
		return nil, fmt.Errorf("%s: %w in %q", name, ErrNoText, text)
	}
	var words, shown []string
	for _, w := range script {
		words = append(words, strings.Join(w.norm, " "))
		shown = append(shown, w.text)
	}
	chunks, err := t.encodeChunks(name, stream)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	encs := make([]speechmodel.Encoding, len(chunks))
	for i, c := range chunks {
		encs[i] = c.enc
	}
	hyps, err := t.dec.Align(encs, words, &speechmodel.DecodeOptions{KeepAlignment: t.opts.KeepAlignment})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	tr := &Transcript{Path: path, Text: strings.Join(shown, " "), Chunks: []Chunk{}, Decode: time.Since(start).Seconds()}
	var logP float64
	var chars int
	for i, ec := range chunks {
		c := &timedChunk{Chunk: Chunk{Start: ec.start, End: ec.end}}
		c.fromHypothesis(hyps[i], ec.offset, t.opts.KeepAlignment)
		for j := range c.Words {
			c.Words[j].Start += ec.start
			c.Words[j].End += ec.start
		}
		for _, tok := range hyps[i].Tokens {
			if strings.TrimSpace(tok.Text) != "" {
				logP, chars = logP+float64(tok.LogProb), chars+1
			}
		}
		scriptChunk(&c.Chunk, &script)
		c.Start, c.End = roundMs(c.Start), roundMs(c.End)
		tr.Decode += ec.decode
		tr.Duration = c.End
		tr.Chunks = append(tr.Chunks, c.Chunk)
	}
	tr.ScriptScore = logP / float64(chars)
	tr.Decode = roundMs(tr.Decode)
	if t, ok := stream.(interface{ Truncated() bool }); ok {
		tr.Truncated = t.Truncated()
	}
	return tr, nil
}

// alignedChunk is one chunk of a recording encoded for forced alignment,
// kept until the text is shared out.
type alignedChunk struct {
	start, end float64 // seconds in the recording
	offset     float64 // of the audio encoded, in the chunk (see audible)
	enc        speechmodel.Encoding
	decode     float64 // seconds spent encoding it
}

// encodeChunks cuts a recording into chunks as Stream does, but without
// voice activity detection (the text says what is spoken: every chunk
// is aligned) and of at most AlignChunkLength by default, and encodes
// each.
func (t *Transcriber) encodeChunks(name string, stream audio.Stream) ([]*alignedChunk, error) {
	seg, err := t.segmenter(stream, t.opts.Segment, false, AlignChunkLength)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var (
		chunks  []*alignedChunk
		pending *audio.Segment // encoded once the next segment is seen
	)
	encode := func() error {
		start := time.Now()
		samples, offset, _ := audible(pending.Samples, pending.Rate)
		e, err := t.dec.Encode(samples)
		if err != nil {
			return fmt.Errorf("%s at %v: %w", name, pending.StartTime().Round(time.Millisecond), err)
		}
		chunks = append(chunks, &alignedChunk{start: pending.StartTime().Seconds(), end: pending.EndTime().Seconds(),
			offset: offset, enc: e, decode: time.Since(start).Seconds()})
		return nil
	}
	for {
		s, err := seg.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if pending != nil && len(s.Samples) < s.Rate/40 {
			// Only the last segment can be this short: too short to
			// featurize, it joins the one before.
			pending.Samples, pending.End = append(pending.Samples, s.Samples...), s.End
			continue
		}
		if pending != nil {
			if err := encode(); err != nil {
				return nil, err
			}
		}
		pending = &s
	}
	if pending == nil {
		return nil, fmt.Errorf("%s: %w", name, audio.ErrNoAudio)
	}
	if err := encode(); err != nil {
		return nil, err
	}
	return chunks, nil
}
