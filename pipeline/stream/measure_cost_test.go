package stream_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/whisper"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// whisperCost is TestMeasureLive's cost model for random-weight Whisper
// models (ATTEND_STREAM_COST=1). Such a model never ends a window by
// itself: it samples n_text_ctx/2 = 224 tokens a window and no
// timestamps, and with word timestamps on, transcribe() then moves on to
// its last (randomly timed) word and decodes another window, where a real
// model samples the words it heard, ends the utterance with a timestamp
// and is done in one window. whisperCost wraps the network: every encoder
// window and every decoder step is the real model's computation, and
// only which token each step's logits favour is scripted, as a real
// model's would be:
//
//	with timestamps:    <|0.00|> text₁ … textₖ <|t|> <|endoftext|>
//	without (partials): text₁ … textₖ <|endoftext|>
//
// k = ⌈r · s⌉ for a window holding s seconds of sound (frames above the
// window's quietest by 1 in log₁₀ power: digital silence and the padding
// do not count), t the end of its last such frame, each textᵢ the
// step's most probable text token (its logit raised above the rest by
// 50), and r the text tokens per second of sound of the clips' reference
// texts as Whisper writes them (sentence case, a final period: " We call
// it bear."), tokenized by the model's BPE tokenizer. The search, the
// timestamp rules, the seek loop, word timing and the endpointer run as
// they would.
type whisperCost struct {
	speechmodel.WhisperNetwork
	sp   whisper.Specials
	rate float64 // r

	last       *whisper.AudioFeatures // the window encoded last, and its script
	lastK      int
	lastEnd    int // <|t|>'s index: the end of the window's sound in 20 ms steps
	windows    int
	full       int // windows of the whole audio context (finals, speculative finals, offline)
	heardTotal float64
	textTotal  int
}

// newWhisperCost returns the cost model of base's network for the clips
// (their signals, and texts as the data set writes them).
func newWhisperCost(base *speechmodel.Whisper, clips []*audio.Signal, texts []string) (*whisperCost, error) {
	net := base.Network()
	d := net.Dims()
	filters := net.MelFilters()
	if filters == nil {
		var err error
		if filters, err = audio.WhisperMelFilters(d.NMels); err != nil {
			return nil, err
		}
	}
	mel, err := audio.NewWhisperMel(filters, d.NMels)
	if err != nil {
		return nil, err
	}
	tokens, heard := 0, 0.0
	for i, sig := range clips {
		tokens += len(base.Tokenizer().Encode(" " + whisperStyle(texts[i])))
		// Digital silence after the clip, as in the joined recording's
		// pauses, sets the window's quietest frame.
		x := append(append([]float32(nil), sig.Samples...), make([]float32, audio.WhisperSampleRate/2)...)
		spec, err := mel.Spectrogram(x, 0)
		if err != nil {
			return nil, err
		}
		n, _ := heardFrames(spec.Data, spec.Mels)
		heard += float64(n) / 100
	}
	if heard == 0 {
		return nil, errors.New("cost model: no sound in the clips")
	}
	return &whisperCost{WhisperNetwork: net, sp: whisper.TokenizerText(base.Tokenizer()).Specials(), rate: float64(tokens) / heard}, nil
}

// whisperStyle writes an upper-case reference text as Whisper writes a
// sentence: "WE CALL IT BEAR" → "We call it bear."
func whisperStyle(text string) string {
	s := strings.ToLower(strings.TrimSpace(text))
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:] + "."
}

// heardFrames counts the frames of a log-mel window (mels rows,
// channel-major; frames whose values are all exactly 0 are pad_or_trim's
// padding) whose loudest bin is at least 0.25 (1 in log₁₀ power) above
// the window's quietest value, and returns the index after the last.
func heardFrames(mel []float32, mels int) (n, end int) {
	frames := len(mel) / mels
	loudest := make([]float32, frames)
	quietest := float32(math.Inf(1))
	for f := range frames {
		loudest[f] = float32(math.Inf(-1))
		pad := true
		for b := range mels {
			v := mel[b*frames+f]
			loudest[f] = max(loudest[f], v)
			pad = pad && v == 0
		}
		if pad {
			loudest[f] = float32(math.NaN())
			continue
		}
		for b := range mels {
			quietest = min(quietest, mel[b*frames+f])
		}
	}
	for f, v := range loudest {
		if v >= quietest+0.25 {
			n, end = n+1, f+1
		}
	}
	return n, end
}

// Encode encodes the window and scripts the decoders that attend to it.
func (c *whisperCost) Encode(mel []float32) (*whisper.AudioFeatures, error) {
	a, err := c.WhisperNetwork.Encode(mel)
	if err != nil {
		return nil, err
	}
	n, end := heardFrames(mel, c.Dims().NMels)
	c.last, c.lastK, c.lastEnd = a, int(math.Ceil(c.rate*float64(n)/100)), (end+1)/2
	c.windows++
	if a.Frames == c.Dims().NAudioCtx {
		c.full++
	}
	c.heardTotal += float64(n) / 100
	c.textTotal += c.lastK
	return a, nil
}

func (c *whisperCost) NewDecoder(a *whisper.AudioFeatures, record [][2]int) whisper.TextDecoder {
	d := c.WhisperNetwork.NewDecoder(a, record)
	if a != c.last {
		return d // not a window the script knows
	}
	return &scriptedDecoder{TextDecoder: d, sp: c.sp, k: c.lastK, end: c.lastEnd}
}

// String says what the cost model did.
func (c *whisperCost) String() string {
	return fmt.Sprintf("cost model: %.2f text tokens per second of sound (the clips' texts); %d windows encoded (%d of them whole), %.1f s of sound in them on average, scripted to %.1f text tokens on average",
		c.rate, c.windows, c.full, c.heardTotal/float64(max(c.windows, 1)), float64(c.textTotal)/float64(max(c.windows, 1)))
}

// scriptedDecoder is the real text decoder with each row's logits
// raised at the token the script wants next.
type scriptedDecoder struct {
	whisper.TextDecoder
	sp      whisper.Specials
	k, end  int
	history []int
}

func (d *scriptedDecoder) Forward(tokens []int) ([][]float32, error) {
	rows, err := d.TextDecoder.Forward(tokens)
	if err != nil {
		return nil, err
	}
	before := len(d.history)
	d.history = append(d.history, tokens...)
	sot := -1
	for i, id := range d.history {
		if id == d.sp.SOT {
			sot = i
			break
		}
	}
	if sot < 0 {
		return rows, nil
	}
	begin, timestamps := sot+1, true
	if begin < len(d.history) && d.history[begin] == d.sp.NoTimestamps {
		begin, timestamps = begin+1, false
	}
	for i, row := range rows {
		j := before + i + 1 - begin // the sampled token this row predicts
		if j < 0 {
			continue
		}
		if timestamps {
			j-- // <|0.00|> first
		}
		var want int
		switch {
		case j == -1:
			want = d.sp.TimestampBegin
		case j < d.k:
			want = 0
			for id := 1; id < d.sp.EOT; id++ {
				if row[id] > row[want] {
					want = id
				}
			}
		case j == d.k && timestamps && d.k > 0:
			want = d.sp.TimestampBegin + max(1, d.end)
		default:
			want = d.sp.EOT
		}
		top := row[0]
		for _, v := range row {
			top = max(top, v)
		}
		row[want] = top + 50
	}
	return rows, nil
}

func (d *scriptedDecoder) Clone() whisper.TextDecoder {
	c := *d
	c.TextDecoder = d.TextDecoder.Clone()
	c.history = append([]int(nil), d.history...)
	return &c
}
