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
