package vision

import (
	"testing"
	"time"
)

// BenchmarkMobileNetV2 runs MobileNetV2 1.0/224 on one preprocessed 224×224
// image with Threads = GOMAXPROCS (set it to measure one core:
// GOMAXPROCS=1 go test -run '^$' -bench MobileNetV2 -benchtime 20x ./vision/).
//
//	classify          the whole network: Classify
//	features-final    up to GridFinal (7×7×1280): almost all of it
//	features-block13  up to GridBlock13 (14×14×576)
//	classify-go       Classify with the portable Go kernels (only where
//	                  the assembly ones run by default)
//
// cpu-ms/op is the process's CPU time per image, which unlike ns/op does
// not grow when other processes share the cores (it still counts every
// goroutine, so with GOMAXPROCS > 1 it exceeds the wall time).
func BenchmarkMobileNetV2(b *testing.B) { benchmarkEncoder(b, mobileNetPath(b)) }

// BenchmarkMobileNetEdgeTPU is BenchmarkMobileNetV2 for MobileNet-EdgeTPU
// 1.0/224 (990 M multiply-adds against MobileNetV2's 301 M):
// GOMAXPROCS=1 go test -run '^$' -bench EdgeTPU -benchtime 20x ./vision/.
func BenchmarkMobileNetEdgeTPU(b *testing.B) { benchmarkEncoder(b, edgeTPUPath(b)) }

func benchmarkEncoder(b *testing.B, path string) {
	run := func(name string, grid Grid, classify, goKernels bool) {
		b.Run(name, func(b *testing.B) {
			enc, err := LoadEncoder(path, &EncoderOptions{Grid: grid})
			if err != nil {
				b.Fatal(err)
			}
			pre, err := enc.NewPreprocessor(nil)
			if err != nil {
				b.Fatal(err)
			}
			x, err := pre.Tensor(texture(224, 224))
			if err != nil {
				b.Fatal(err)
			}
			if goKernels {
				saved := useAVX2
				useAVX2 = false
				defer func() { useAVX2 = saved }()
			}
			h, w, d := enc.GridShape()
			features := make([]float32, h*w*d)
			probs := make([]float32, enc.NumClasses())
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				if classify {
					_, err = enc.Classify(probs, x)
				} else {
					_, err = enc.Features(features, x)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			}
		})
	}
	run("classify", GridFinal, true, false)
	run("features-final", GridFinal, false, false)
	run("features-block13", GridBlock13, false, false)
	if useAVX2 {
		run("classify-go", GridFinal, true, true)
	}
}
