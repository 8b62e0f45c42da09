package speech

// Interim stand-ins for pipeline/speechdata and pipeline/metrics, which
// are being written in parallel; replaced when they land.

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

type utt struct{ ID, Path, Text, Speaker string }

func readTSV(path string) ([]utt, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []utt
	sc := bufio.NewScanner(f)
	col := map[string]int{"path": 0, "text": 1}
	for n := 1; sc.Scan(); n++ {
		fs := strings.Split(sc.Text(), "\t")
		if n == 1 && fs[0] == "path" {
			for i, h := range fs {
				col[h] = i
			}
			continue
		}
		if len(fs) < 2 {
			return nil, fmt.Errorf("%s:%d: want path<TAB>text", path, n)
		}
		u := utt{Path: fs[col["path"]], Text: fs[col["text"]]}
		if i, ok := col["speaker"]; ok && i < len(fs) {
			u.Speaker = fs[i]
		}
		if !filepath.IsAbs(u.Path) {
			u.Path = filepath.Join(filepath.Dir(path), u.Path)
		}
		u.ID = u.Path
		out = append(out, u)
	}
	return out, sc.Err()
}

func normalize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r == '\'':
			b.WriteRune(r)
		default:
			b.WriteRune(' ')
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func splitBySpeaker(utts []utt, dev int, seed uint64) (train, held []utt, err error) {
	var spk []string
	for _, u := range utts {
		if !slices.Contains(spk, u.Speaker) {
			spk = append(spk, u.Speaker)
		}
	}
	slices.Sort(spk)
	if len(spk) <= dev {
		return nil, nil, fmt.Errorf("%d speakers, cannot hold out %d", len(spk), dev)
	}
	rand.New(rand.NewPCG(seed, 0)).Shuffle(len(spk), func(i, j int) { spk[i], spk[j] = spk[j], spk[i] })
	hold := spk[:dev]
	for _, u := range utts {
		if slices.Contains(hold, u.Speaker) {
			held = append(held, u)
		} else {
			train = append(train, u)
		}
	}
	return train, held, nil
}

type editCounts struct{ Ref, Sub, Del, Ins int }

func (e *editCounts) Add(o editCounts) {
	e.Ref += o.Ref
	e.Sub += o.Sub
	e.Del += o.Del
	e.Ins += o.Ins
}
func (e editCounts) Rate() float64 {
	if e.Ref == 0 {
		return 0
	}
	return float64(e.Sub+e.Del+e.Ins) / float64(e.Ref)
}
func (e editCounts) String() string {
	return fmt.Sprintf("%.2f%% (S %d, D %d, I %d / %d)", 100*e.Rate(), e.Sub, e.Del, e.Ins, e.Ref)
}

func align[T comparable](ref, hyp []T) editCounts {
	type cell struct{ cost, s, d, i int }
	prev := make([]cell, len(hyp)+1)
	for j := range prev {
		prev[j] = cell{cost: j, i: j}
	}
	for i := 1; i <= len(ref); i++ {
		cur := make([]cell, len(hyp)+1)
		cur[0] = cell{cost: i, d: i}
		for j := 1; j <= len(hyp); j++ {
			best := prev[j-1]
			if ref[i-1] != hyp[j-1] {
				best.cost++
				best.s++
			}
			if c := prev[j]; c.cost+1 < best.cost {
				best = c
				best.cost++
				best.d++
			}
			if c := cur[j-1]; c.cost+1 < best.cost {
				best = c
				best.cost++
				best.i++
			}
			cur[j] = best
		}
		prev = cur
	}
	c := prev[len(hyp)]
	return editCounts{Ref: len(ref), Sub: c.s, Del: c.d, Ins: c.i}
}

func wordErrors(ref, hyp string) editCounts {
	return align(strings.Fields(ref), strings.Fields(hyp))
}
func charErrors(ref, hyp string) editCounts {
	return align([]rune(strings.Join(strings.Fields(ref), " ")), []rune(strings.Join(strings.Fields(hyp), " ")))
}
