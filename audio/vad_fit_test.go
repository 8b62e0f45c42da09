package audio

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio/audiotest"
)

// The VAD's classifier (vad_weights.go) is fitted by this test helper:
//
//	go test ./audio -run TestFitVAD -vad.fit /work/data/so-train.tsv,/work/data/native-train.tsv,/work/data/asterisk.tsv -v
//
// Speech comes from the manifests (TSV, path in the first column; training
// utterances only, never a test split), mixed with noise, music or
// silence; non-speech is made by package audiotest. The run is seeded and
// rewrites vad_weights.go.
var (
	vadFit      = flag.String("vad.fit", "", "comma-separated speech manifests: fit the VAD classifier and rewrite vad_weights.go")
	vadFitPer   = flag.Int("vad.fit.per", 200, "speech utterances drawn from each manifest")
	vadFitOut   = flag.String("vad.fit.out", "vad_weights.go", "where the fitted weights go")
	vadFitHide  = flag.Int("vad.fit.hidden", 16, "hidden units")
	vadFitSteps = flag.Int("vad.fit.steps", 3000, "Adam steps of 2048 frames")
)

type vadSample struct {
	x      [vadFeatures]float64
	speech bool
}

func TestFitVAD(t *testing.T) {
	if *vadFit == "" {
		t.Skip("fits the VAD classifier only with -vad.fit MANIFESTS")
	}
	rng := rand.New(rand.NewPCG(13, 1))
	var train, held []vadSample
	add := func(s []vadSample) {
		if rng.IntN(5) == 0 {
			held = append(held, s...)
		} else {
			train = append(train, s...)
		}
	}
	nSpeech := 0
	for _, m := range strings.Split(*vadFit, ",") {
		paths, err := manifestPaths(m)
		if err != nil {
			t.Fatal(err)
		}
		rng.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
		for _, p := range paths[:min(*vadFitPer, len(paths))] {
			x, err := loadMono16k(p)
			if err != nil {
				t.Logf("skip %s: %v", p, err)
				continue
			}
			add(speechSamples(rng, x))
			nSpeech++
		}
	}
	for i := range 3 * nSpeech / 2 {
		add(nonSpeechSamples(rng, i))
	}
	count := func(s []vadSample) (sp, ns int) {
		for _, v := range s {
			if v.speech {
				sp++
			} else {
				ns++
			}
		}
		return
	}
	sp, ns := count(train)
	t.Logf("%d speech clips; train frames: %d speech, %d non-speech; held out %d", nSpeech, sp, ns, len(held))
	net := fitMLP(rng, train, *vadFitHide, *vadFitSteps, float64(ns)/float64(sp))
	for _, th := range []float64{0.1, 0.2, 0.3, 0.5, 0.7} {
		var miss, fa, nsp, nns int
		for _, s := range held {
			p := net.predict(s.x[:])
			if s.speech {
				nsp++
				if p <= th {
					miss++
				}
			} else {
				nns++
				if p > th {
					fa++
				}
			}
		}
		t.Logf("held out, threshold %.1f: speech frames missed %.2f%%, non-speech frames passed %.2f%%",
			th, 100*float64(miss)/float64(nsp), 100*float64(fa)/float64(nns))
	}
	if err := writeVADWeights(*vadFitOut, net); err != nil {
		t.Fatal(err)
	}
}

func manifestPaths(file string) ([]string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var paths []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if f[0] == "" || f[0] == "path" {
			continue
		}
		paths = append(paths, f[0])
	}
	return paths, sc.Err()
}

func loadMono16k(path string) ([]float32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := Decode(f)
	if err != nil {
		return nil, err
	}
	if s, err = Downmix(s); err != nil {
		return nil, err
	}
	if s, err = Resample(s, vadRate); err != nil {
		return nil, err
	}
	return s.Samples, nil
}

// framesOf analyses x into vadFrames.
func framesOf(x []float32) []vadFrame {
	v, _ := NewVAD(nil)
	v.Write(x)
	v.Close()
	return v.frames
}

func samplesOf(fr []vadFrame, label func(i int) bool) []vadSample {
	out := make([]vadSample, 0, len(fr))
	for j := range fr {
		var s vadSample
		vadContextFeatures(&s.x, fr, j)
		s.speech = label(j)
		out = append(out, s)
	}
	return out
}

// speechSamples labels an utterance's frames from its clean energy
// (speech: within 30 dB of its loudest 100 ms, widened by 40 ms), pads it
// with 0–1.5 s on each side, scales it to a peak of −40…−1 dBFS and mixes
// in a noise bed at 0–25 dB SNR (or none).
func speechSamples(rng *rand.Rand, x []float32) []vadSample {
	lead, trail := rng.IntN(3*vadRate/2), rng.IntN(3*vadRate/2)
	lead -= lead % vadHop
	y := make([]float32, lead+len(x)+trail)
	copy(y[lead:], x)
	clean := framesOf(y)
	loud := math.Inf(-1)
	for j := range clean {
		loud = max(loud, smoothEnergy(clean, j))
	}
	speech := make([]bool, len(clean))
	for j := range clean {
		if smoothEnergy(clean, j) > loud-30 && j >= lead/vadHop && j*vadHop < lead+len(x) {
			for k := max(0, j-2); k < min(len(clean), j+3); k++ {
				speech[k] = true
			}
		}
	}
	var p float64
	for _, v := range y {
		p = max(p, math.Abs(float64(v)))
	}
	g := float32(math.Pow(10, -(1+39*rng.Float64())/20) / max(p, 1e-6))
	for i := range y {
		y[i] *= g
	}
	if bed := noiseBed(rng, len(y), rng.IntN(8)); bed != nil {
		y = audiotest.MixSNR(y, bed, 25*rng.Float64())
	} else {
		y = audiotest.MixSNR(y, audiotest.White(rng, len(y), 1), 60+20*rng.Float64()) // dither
	}
	return samplesOf(framesOf(y), func(j int) bool { return speech[j] })
}

// noiseBed returns noise of kind k for mixing under speech (nil: none).
func noiseBed(rng *rand.Rand, n, k int) []float32 {
	switch k {
	case 0:
		return audiotest.White(rng, n, 0.1)
	case 1:
		return audiotest.Pink(rng, n, 0.1)
	case 2:
		return audiotest.Brown(rng, n, 0.1)
	case 3:
		return audiotest.Music(rng, n, vadRate, 0.5)
	case 4:
		return hum(n, 0.1)
	}
	return nil
}

func hum(n int, amp float64) []float32 {
	return audiotest.Chord(n, vadRate, amp, 50)
}

// nonSpeechSamples makes a clip of 4–8 s of one kind of non-speech (by i)
// at a random level; every frame is labelled non-speech.
func nonSpeechSamples(rng *rand.Rand, i int) []vadSample {
	n := (4 + rng.IntN(5)) * vadRate
	level := math.Pow(10, -(5+55*rng.Float64())/20)
	var x []float32
	switch i % 12 {
	case 0:
		x = audiotest.White(rng, n, level)
	case 1:
		x = audiotest.Pink(rng, n, level)
	case 2:
		x = audiotest.Brown(rng, n, level)
	case 3:
		x = audiotest.Tone(n, vadRate, 80+3900*rng.Float64(), level)
	case 4:
		notes := make([]float64, 2+rng.IntN(3))
		for k := range notes {
			notes[k] = 440 * math.Pow(2, float64(rng.IntN(36)-21)/12)
		}
		x = audiotest.Chord(n, vadRate, level, notes...)
	case 5, 6:
		x = audiotest.Music(rng, n, vadRate, level)
	case 7:
		x = audiotest.MixSNR(audiotest.Music(rng, n, vadRate, level), audiotest.Pink(rng, n, 1), 5+15*rng.Float64())
	case 8:
		x = audiotest.Chord(n, vadRate, level, 50+10*float64(rng.IntN(2)))
	case 9:
		x = audiotest.Brown(rng, n, level)
	case 10:
		x = audiotest.MixSNR(audiotest.Tone(n, vadRate, 80+3900*rng.Float64(), level), audiotest.White(rng, n, 1), 10+30*rng.Float64())
	default:
		x = audiotest.White(rng, n, 1e-5*rng.Float64()) // dither, silence
	}
	return samplesOf(framesOf(x), func(int) bool { return false })
}

// fitMLP fits a vadMLP by Adam on the weighted logistic loss, speech
// frames weighted by posWeight (to balance the classes).
func fitMLP(rng *rand.Rand, data []vadSample, hidden, steps int, posWeight float64) *vadMLP {
	m := &vadMLP{hidden: hidden, w1: make([]float64, hidden*vadFeatures), b1: make([]float64, hidden), w2: make([]float64, hidden)}
	for i := range vadFeatures {
		var s, sq float64
		for _, d := range data {
			s += d.x[i]
			sq += d.x[i] * d.x[i]
		}
		n := float64(len(data))
		m.mean[i] = s / n
		m.scale[i] = math.Sqrt(max(sq/n-m.mean[i]*m.mean[i], 1e-6))
	}
	for i := range m.w1 {
		m.w1[i] = rng.NormFloat64() / math.Sqrt(vadFeatures)
	}
	for i := range m.w2 {
		m.w2[i] = rng.NormFloat64() / math.Sqrt(float64(hidden))
	}
	params := [][]float64{m.w1, m.b1, m.w2, {0}}
	grads := make([][]float64, len(params))
	mom, vel := make([][]float64, len(params)), make([][]float64, len(params))
	for i, p := range params {
		grads[i], mom[i], vel[i] = make([]float64, len(p)), make([]float64, len(p)), make([]float64, len(p))
	}
	const batch, lr, b1, b2 = 2048, 3e-3, 0.9, 0.999
	z := make([]float64, vadFeatures)
	h := make([]float64, hidden)
	for step := 1; step <= steps; step++ {
		for _, g := range grads {
			clear(g)
		}
		for range batch {
			d := data[rng.IntN(len(data))]
			for i := range z {
				z[i] = (d.x[i] - m.mean[i]) / m.scale[i]
			}
			out := params[3][0]
			for j := range hidden {
				s := m.b1[j]
				for i, w := range m.w1[j*vadFeatures : (j+1)*vadFeatures] {
					s += w * z[i]
				}
				h[j] = math.Tanh(s)
				out += m.w2[j] * h[j]
			}
			p := 1 / (1 + math.Exp(-out))
			y, w := 0.0, 1.0
			if d.speech {
				y, w = 1, posWeight
			}
			g := w * (p - y) / batch
			grads[3][0] += g
			for j := range hidden {
				grads[2][j] += g * h[j]
				gh := g * m.w2[j] * (1 - h[j]*h[j])
				grads[1][j] += gh
				for i := range vadFeatures {
					grads[0][j*vadFeatures+i] += gh * z[i]
				}
			}
		}
		rate := lr * math.Min(1, 2*float64(steps-step)/float64(steps)+0.05)
		for k, p := range params {
			for i := range p {
				g := grads[k][i]
				mom[k][i] = b1*mom[k][i] + (1-b1)*g
				vel[k][i] = b2*vel[k][i] + (1-b2)*g*g
				mh := mom[k][i] / (1 - math.Pow(b1, float64(step)))
				vh := vel[k][i] / (1 - math.Pow(b2, float64(step)))
				p[i] -= rate * mh / (math.Sqrt(vh) + 1e-8)
			}
		}
	}
	m.b2 = params[3][0]
	return m
}

func writeVADWeights(path string, m *vadMLP) error {
	var b bytes.Buffer
	list := func(x []float64) string {
		s := make([]string, len(x))
		for i, v := range x {
			s[i] = fmt.Sprintf("%.5g", v)
		}
		return strings.Join(s, ", ")
	}
	fmt.Fprintf(&b, "// Code generated by TestFitVAD (go test ./audio -run TestFitVAD -vad.fit ...); DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package audio\n\n")
	fmt.Fprintf(&b, "// vadNet is the VAD's classifier, fitted by TestFitVAD (vad_fit_test.go).\n")
	fmt.Fprintf(&b, "var vadNet = &vadMLP{\n")
	fmt.Fprintf(&b, "mean: [vadFeatures]float64{%s},\n", list(m.mean[:]))
	fmt.Fprintf(&b, "scale: [vadFeatures]float64{%s},\n", list(m.scale[:]))
	fmt.Fprintf(&b, "hidden: %d,\n", m.hidden)
	fmt.Fprintf(&b, "w1: []float64{\n")
	for j := range m.hidden {
		fmt.Fprintf(&b, "%s,\n", list(m.w1[j*vadFeatures:(j+1)*vadFeatures]))
	}
	fmt.Fprintf(&b, "},\n")
	fmt.Fprintf(&b, "b1: []float64{%s},\n", list(m.b1))
	fmt.Fprintf(&b, "w2: []float64{%s},\n", list(m.w2))
	fmt.Fprintf(&b, "b2: %.5g,\n}\n", m.b2)
	src, err := format.Source(b.Bytes())
	if err != nil {
		return err
	}
	return os.WriteFile(path, src, 0o644)
}
