package speechtrain

import (
	"math"
	"math/rand/v2"
	"sync"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speechdata"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// Streams of the noise pool's random choices.
const (
	babbleStream  = 0xbabb1e
	coloredStream = 0xc01045
)

// coloredSeconds is the length of each colour's noise in the pool.
const coloredSeconds = 30

// noisePool holds what augmented copies are mixed with: the samples of a
// few real training utterances, the voices of babble, and 30 s of white,
// pink and brown noise, which copies read from a random offset (making
// coloured noise per copy would cost two FFTs of the whole clip each). It
// is filled before the loader's workers start and only read afterwards,
// so the noise never depends on which worker loaded what.
type noisePool struct {
	index   []int        // position in the load of each babble source
	samples [][]float32  // its 16 kHz samples, scaled to unit mean power
	colored [3][]float32 // white, pink and brown noise at 16 kHz, unit mean power
	sounds  [][]float32  // non-speech sounds of LoadOptions.NoiseDirs, unit mean power
}

// newNoisePool makes the coloured noise and decodes up to babblePoolSize
// utterances of utts, drawn by o.Seed among those not marked synthetic:
// TTS voices would make poor crowds. Sources that fail to load, are silent
// or longer than o.MaxSeconds are left out, so there may be fewer or no
// babble sources. With o.NoiseDirs it also loads their sounds
// (loadSounds), whose failure is its error.
func newNoisePool(utts []speechdata.Utterance, o *LoadOptions) (*noisePool, error) {
	pool := &noisePool{}
	if len(o.NoiseDirs) > 0 {
		var err error
		if pool.sounds, err = loadSounds(o.NoiseDirs); err != nil {
			return nil, err
		}
	}
	cr := rand.New(rand.NewPCG(o.Seed, coloredStream))
	for i := range pool.colored {
		pool.colored[i] = make([]float32, coloredSeconds*speechmodel.SampleRate)
		audio.MakeNoise(pool.colored[i], audio.WhiteNoise+audio.NoiseColor(i), speechmodel.SampleRate, cr)
	}

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
				sig, err := speechmodel.Load(utts[candidates[k]].Path, nil)
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

	for k, x := range samples {
		if x != nil {
			pool.index = append(pool.index, candidates[k])
			pool.samples = append(pool.samples, x)
		}
	}
	return pool, nil
}

// others returns the pool's sources other than utterance index.
func (p *noisePool) others(index int) []int {
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
func (p *noisePool) babble(talkers []babbleTalker, n int) []float32 {
	out := make([]float32, n)
	for _, t := range talkers {
		addLooped(out, p.samples[t.source], t.offset)
	}
	return out
}

// soundCount is the number of non-speech sounds in the pool.
func (p *noisePool) soundCount() int {
	if p == nil {
		return 0
	}
	return len(p.sounds)
}

// sound returns n samples of sound k from offset on (looped).
func (p *noisePool) sound(k, offset, n int) []float32 {
	out := make([]float32, n)
	addLooped(out, p.sounds[k], offset)
	return out
}

// noise returns n samples of the colour's noise from offset on (looped).
func (p *noisePool) noise(c audio.NoiseColor, offset, n int) []float32 {
	out := make([]float32, n)
	addLooped(out, p.colored[c-audio.WhiteNoise], offset)
	return out
}

// addLooped adds src, read from offset on and from its start again at its
// end, to dst.
func addLooped(dst, src []float32, offset int) {
	j := offset
	for i := range dst {
		dst[i] += src[j]
		if j++; j == len(src) {
			j = 0
		}
	}
}
