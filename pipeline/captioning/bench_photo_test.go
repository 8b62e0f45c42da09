package captioning

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

// BenchmarkCaptionPhoto times what "caption photo.jpg" does per image once
// the models are loaded: decode the JPEG (451×300), squash it to 224×224,
// run the MobileNetV2 encoder and the embedded default decoder with beam
// search of width 1, 3 and 5. It needs the encoder from ../shared (skips
// without it). Issue 5's goal, on one core: ≤ 120 ms with beam 3.
//
//	GOMAXPROCS=1 go test -run '^$' -bench CaptionPhoto -benchtime 20x ./pipeline/captioning
func BenchmarkCaptionPhoto(b *testing.B) {
	encoder := shareddata.Path(b, shareddata.EncoderFile)
	if _, err := os.Stat(encoder); err != nil {
		b.Skipf("no encoder: %v", err)
	}
	photo := filepath.Join("..", "..", "testdata", "photos", "chelsea.jpg")
	for _, k := range []int{1, 3, 5} {
		b.Run(fmt.Sprintf("beam%d", k), func(b *testing.B) {
			c, err := NewCaptioner(context.Background(), CaptionerOptions{Encoder: encoder, Beam: k})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			if _, err := c.Caption(photo, nil); err != nil { // loads the encoder
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := c.Caption(photo, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
