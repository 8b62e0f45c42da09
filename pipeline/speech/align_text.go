package speech

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/internal/input"
	"github.com/attend-go/attend/models/asr"
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
		words = append(words, w.norm...)
		shown = append(shown, w.text)
	}
	if _, err := t.Model.Vocab.Encode(strings.Join(words, " ")); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	chunks, err := t.encodeChunks(name, stream)
	if err != nil {
		return nil, err
	}
	counts, err := t.shareWords(chunks, words, scriptBoundaries(script))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	tr := &Transcript{Path: path, Text: strings.Join(shown, " "), Chunks: []Chunk{}}
	var logP float64
	var chars int
	for i, ec := range chunks {
		c, err := t.alignChunk(ec, words[:counts[i]])
		if err != nil {
			return nil, fmt.Errorf("%s at %.3f s: %w", name, ec.start, err)
		}
		words = words[counts[i]:]
		scriptChunk(&c.Chunk, &script)
		c.Start, c.End = roundMs(c.Start), roundMs(c.End)
		logP, chars = logP+c.scriptLogP, chars+c.scriptChars
		tr.Decode += c.decode
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

// encodedChunk is one chunk of a recording after the listener, kept
// until the text is shared out.
type encodedChunk struct {
	start, end float64 // seconds in the recording
	offset     float64 // of the audio encoded, in the chunk (see audible)
	enc        asr.Encoded
	features   []float32 // (frames, 80), kept with KeepAlignment
	frames     int
	decode     float64 // seconds spent on it so far
}

// encodeChunks cuts a recording into chunks as Stream does and runs the
// listener over each, keeping a copy of its output.
func (t *Transcriber) encodeChunks(name string, stream audio.Stream) ([]*encodedChunk, error) {
	so := t.opts.Segment
	if so.MaxLength == 0 {
		so.MaxLength = AlignChunkLength
	}
	so.VAD = nil // the text says what is spoken: every chunk is aligned
	seg, err := audio.NewSegmenter(stream, &so)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var (
		chunks  []*encodedChunk
		pending *audio.Segment // encoded once the next segment is seen
	)
	encode := func() error {
		c, err := t.encodeChunk(pending.Samples, pending.Rate)
		if err != nil {
			return fmt.Errorf("%s at %v: %w", name, pending.StartTime().Round(time.Millisecond), err)
		}
		c.start, c.end = pending.StartTime().Seconds(), pending.EndTime().Seconds()
		chunks = append(chunks, c)
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

// encodeChunk featurizes and encodes one chunk of audio.
func (t *Transcriber) encodeChunk(samples []float32, rate int) (*encodedChunk, error) {
	start := time.Now()
	samples, offset, _ := audible(samples, rate)
	f, err := t.fe.Compute(samples, rate)
	if err != nil {
		return nil, err
	}
	e, err := t.Model.Encode(&t.ws, f.Data, f.Frames)
	if err != nil {
		return nil, err
	}
	c := &encodedChunk{enc: *e, offset: offset}
	c.enc.Memory = slices.Clone(e.Memory[:e.T*e.D])
	if e.CTCLogProbs != nil {
		c.enc.CTCLogProbs = slices.Clone(e.CTCLogProbs[:e.T*t.Model.Vocab.Size()])
	}
	if t.opts.KeepAlignment {
		c.features, c.frames = slices.Clone(f.Data), f.Frames
	}
	c.decode = time.Since(start).Seconds()
	return c, nil
}

// alignChunk forces words through the speller over one encoded chunk and
// times them.
func (t *Transcriber) alignChunk(ec *encodedChunk, words []string) (*timedChunk, error) {
	start := time.Now()
	c := &timedChunk{Chunk: Chunk{Start: ec.start, End: ec.end, Words: []Word{}, Offset: ec.offset}}
	if len(words) > 0 {
		c.Text = strings.Join(words, " ")
		tokens, err := t.Model.Vocab.Encode(c.Text)
		if err != nil {
			return nil, err
		}
		fa, err := t.Model.Align(&t.ws, &ec.enc, tokens)
		if err != nil {
			return nil, err
		}
		if c.Words, err = t.timeWords(&ec.enc, tokens, fa.Alignment, fa.LogProbs); err != nil {
			return nil, err
		}
		for i, tok := range tokens {
			if t.Model.Vocab.Decode([]int{tok}) != " " {
				c.scriptLogP += float64(fa.LogProbs[i])
				c.scriptChars++
			}
		}
		for i := range c.Words {
			c.Words[i].Start += ec.start + ec.offset
			c.Words[i].End += ec.start + ec.offset
		}
		if t.opts.KeepAlignment {
			c.Alignment = fa.Alignment
			for _, ch := range c.Text {
				c.Chars = append(c.Chars, string(ch))
			}
			c.Features, c.Frames = ec.features, ec.frames
		}
	}
	c.decode = ec.decode + time.Since(start).Seconds()
	return c, nil
}
