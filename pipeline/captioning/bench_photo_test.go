package captioning

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/internal/cputime"
)

// BenchmarkCaptionPhoto times what "caption photo.jpg" does per image once
// the models are loaded: decode the JPEG (451×300), squash it to 224×224,
// run the encoder the embedded default decoder needs (DefaultEncoder:
// MobileNet-EdgeTPU) and that decoder with beam search of width 1, 3 and
// 5, and the default search: beam 30 reranked by the embedded memory (and
// beam 5, 10, 20 and 40 reranked). It needs the encoder from ../shared (skips without
// it). The goal (issues 5 and 36), on one core: ≤ 120 ms with the default
// search. cpu-ms/op is the
// process's CPU time per photo (package cputime), which on a shared
// machine says more than ns/op.
//
//	GOMAXPROCS=1 go test -run '^$' -bench CaptionPhoto -benchtime 30x -cpu 1 ./pipeline/captioning
func BenchmarkCaptionPhoto(b *testing.B) {
	encoder := defaultEncoder(b)
	photo := filepath.Join("..", "..", "testdata", "photos", "chelsea.jpg")
	for _, tc := range []struct {
		beam   int
		memory string
	}{{1, NoMemory}, {3, NoMemory}, {5, NoMemory}, {5, ""}, {10, ""}, {20, ""}, {30, ""}, {40, ""}} {
		name := fmt.Sprintf("beam%d", tc.beam)
		if tc.memory == "" {
			name += "_reranked"
		}
		b.Run(name, func(b *testing.B) {
			c, err := NewCaptioner(context.Background(), CaptionerOptions{Encoder: encoder, Beam: tc.beam, Memory: tc.memory})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			if _, err := c.Caption(photo, nil); err != nil { // loads the encoder
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cputime.Process()
			for range b.N {
				if _, err := c.Caption(photo, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
		})
	}
}
