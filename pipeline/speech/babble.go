package speech

import (
	"math"
	"math/rand/v2"
	"sync"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speechdata"
)

// babbleStream seeds the choice of the babble pool.
const babbleStream = 0xbabb1e

// babblePool holds the samples of a few real training utterances, the
// voices of babble noise. It is filled before the loader's workers start
// and only read afterwards, so babble never depends on which worker
// loaded what.
type babblePool struct {
	index   []int       // position in the load of each source
	samples [][]float32 // its 16 kHz samples, scaled to unit mean power
}

// newBabblePool decodes up to babblePoolSize utterances of utts, drawn by
// o.Seed among those not marked synthetic: TTS voices would make poor
// crowds. Sources that fail to load, are silent or longer than
// o.MaxSeconds are left out, so the pool may be smaller or empty.
func newBabblePool(utts []speechdata.Utterance, o *LoadOptions) *babblePool {
	var candidates []int
	for i := range utts {
		if !o.synthetic(i) {
			candidates = append(candidates, i)
		}
	}
	r := rand.New(rand.NewPCG(o.Seed, babbleStream))
	r.Shuffle(len(candidates), func(i, j int) { candidates[i], candidates[j] = candidates[j], candidates[i] })
	candidates = candidates[:min(len(candidates), babblePoolSize)]

	samples := make([][]float32, len(candidates))
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range jobs {
				sig, err := Load(utts[candidates[k]].Path, nil)
				if err != nil || sig.Duration().Seconds() > o.MaxSeconds {
					continue
				}
				if p := audio.MeanPower(sig.Samples); p > 0 {
					g := float32(1 / math.Sqrt(p))
					for i := range sig.Samples {
						sig.Samples[i] *= g
					}
					samples[k] = sig.Samples
				}
			}
		}()
	}
	for k := range candidates {
		jobs <- k
	}
	close(jobs)
	wg.Wait()

	pool := &babblePool{}
	for k, x := range samples {
		if x != nil {
			pool.index = append(pool.index, candidates[k])
			pool.samples = append(pool.samples, x)
		}
	}
	return pool
}

// others returns the pool's sources other than utterance index.
func (p *babblePool) others(index int) []int {
	if p == nil {
		return nil
	}
	out := make([]int, 0, len(p.index))
	for k, i := range p.index {
		if i != index {
			out = append(out, k)
		}
	}
	return out
}

// babble returns n samples of the talkers' sum, each source read from its
// offset on and looped, so that every talker covers the whole clip.
func (p *babblePool) babble(talkers []babbleTalker, n int) []float32 {
	out := make([]float32, n)
	for _, t := range talkers {
		src := p.samples[t.source]
		j := t.offset
		for i := range out {
			out[i] += src[j]
			if j++; j == len(src) {
				j = 0
			}
		}
	}
	return out
}
