package audio_test

import (
	"fmt"
	"io"
	"time"

	"github.com/attend-go/attend/audio"
)

func ExampleSegmenter() {
	// 13 s of tone, a 1 s pause, 7 s of tone: 21 s, too long for one
	// 15 s segment. The cut lands in the middle of the pause, which lies
	// within the 3 s before the limit where a cut is looked for.
	rate := 16000
	x := append(sine(rate, 13*rate, 300), make([]float32, rate)...)
	x = append(x, sine(rate, 7*rate, 300)...)
	sig := &audio.Signal{Rate: rate, Channels: 1, Samples: x}

	sg, err := audio.NewSegmenter(sig.Stream(), &audio.SegmentOptions{MaxLength: 15 * time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	for {
		seg, err := sg.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(seg.StartTime(), "to", seg.EndTime())
	}
	// Output:
	// 0s to 13.5s
	// 13.5s to 21s
}
