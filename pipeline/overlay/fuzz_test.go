package overlay

import (
	"bytes"
	"errors"
	"image/gif"
	"image/png"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/vision"
)

func FuzzSelectWords(f *testing.F) {
	f.Add("a dog chases a ball", "a,5")
	f.Add("a dog", "")
	f.Add("x", "0")
	f.Add("one two", "two,,one")
	f.Add("2 dogs", "2")
	f.Add("ÄÖ ß", "äö")
	f.Fuzz(func(t *testing.T, caption, selection string) {
		c := &Caption{Words: strings.Fields(caption)}
		got, err := SelectWords(c, selection)
		if err != nil {
			if !errors.Is(err, ErrWord) || strings.Contains(err.Error(), "\n") && !strings.Contains(selection+caption, "\n") {
				t.Fatalf("error %q", err)
			}
			return
		}
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Fatalf("not sorted and unique: %v", got)
		}
		for _, i := range got {
			if i < 0 || i >= len(c.Words) {
				t.Fatalf("index %d of %d words", i, len(c.Words))
			}
		}
	})
}

// FuzzEncode draws captions made from arbitrary bytes: weights (usually
// normalized, sometimes raw), grids, words, selections and options. A
// figure is written and readable, with its marker, or the error wraps one
// of the documented sentinels; nothing panics.
func FuzzEncode(f *testing.F) {
	f.Add([]byte{3, 4, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, "a red ball", "", uint8(0), true)
	f.Add([]byte{1, 1, 9}, "one", "1", uint8(0xff), true)
	f.Add([]byte{2, 2, 0, 0, 0, 0}, "zero", "", uint8(1), true)
	f.Add([]byte{2, 3, 1, 2}, "short weights", "", uint8(2), false)
	f.Add([]byte{7, 7}, "", "", uint8(4), true)
	f.Add([]byte{2, 2, 1, 1, 1, 1}, "a b c d e f", "b,3", uint8(0x33), true)
	f.Add([]byte{1, 2, 255, 0}, "word", "2", uint8(8), false)
	f.Fuzz(func(t *testing.T, data []byte, words, selection string, flags uint8, normalize bool) {
		if len(data) < 2 {
			return
		}
		rows, cols := int(data[0]%9), int(data[1]%9)
		data = data[2:]
		c := &Caption{Words: strings.Fields(words), Rows: rows, Cols: cols, Hard: flags&1 != 0}
		for i := range c.Words {
			w := make([]float32, rows*cols)
			var sum float32
			for k := range w {
				if len(data) > 0 {
					w[k] = float32(data[(i*len(w)+k)%len(data)]) - 8
					if normalize {
						w[k] = max(0, w[k])
					}
				}
				sum += w[k]
			}
			if normalize && sum > 0 {
				for k := range w {
					w[k] /= sum
				}
			}
			if !normalize && len(data) > 0 && data[0]&1 == 1 && len(w) > 0 {
				w = w[1:]
			}
			c.Attention = append(c.Attention, w)
			c.Beta = append(c.Beta, float32(i%3)/2)
			if c.Hard && rows*cols > 0 {
				c.Cells = append(c.Cells, (i*7)%(rows*cols))
			}
		}
		if flags&2 != 0 {
			c.Beta = nil
		}
		if flags&4 != 0 && len(c.Beta) > 0 {
			c.Beta[0] = float32(math.NaN())
		}
		o := Options{Size: 16 + int(flags>>4)*4, Beta: flags&8 != 0, Peak: flags&16 != 0, Columns: int(flags>>5) % 4}
		if flags&32 != 0 {
			o.Format = GIF
		}
		o.Colormap = []*vision.Colormap{vision.Turbo, vision.Viridis, vision.Inferno, vision.Mask}[flags>>6]
		o.Smoothing = vision.Smoothing(int(flags>>3) % 3)
		sel, err := SelectWords(c, selection)
		if err != nil {
			return
		}
		o.Words = sel
		var b bytes.Buffer
		err = Encode(&b, scene(24, 17), c, &o)
		if err != nil {
			for _, s := range []error{ErrCaption, ErrWord, ErrOptions, vision.ErrOptions} {
				if errors.Is(err, s) {
					return
				}
			}
			t.Fatalf("undocumented error: %v", err)
		}
		if !IsFigure(b.Bytes()) {
			t.Fatal("no marker")
		}
		if o.Format == GIF {
			_, err = gif.DecodeAll(bytes.NewReader(b.Bytes()))
		} else {
			_, err = png.Decode(bytes.NewReader(b.Bytes()))
		}
		if err != nil {
			t.Fatalf("unreadable %s: %v", o.Format, err)
		}
	})
}
