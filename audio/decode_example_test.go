package audio_test

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/attend-go/attend/audio"
)

func ExampleDecode() {
	f, err := os.Open("testdata/decode/sine_s16.wav")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()

	sig, err := audio.Decode(f)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d Hz, %d channel(s), %d frames, %v\n", sig.Rate, sig.Channels, sig.Frames(), sig.Duration())
	// Output: 16000 Hz, 1 channel(s), 3200 frames, 200ms
}

// Open decodes as the Stream is read, so memory stays constant however
// long the file.
func ExampleOpen() {
	f, err := os.Open("testdata/decode/sine_s24_stereo.flac")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()

	st, format, err := audio.Open(f)
	if err != nil {
		log.Fatal(err)
	}
	buf := make([]float32, 1024*st.Channels())
	frames, peak := 0, float32(0)
	for {
		n, err := st.Read(buf)
		for _, v := range buf[:n] {
			peak = max(peak, v, -v)
		}
		frames += n / st.Channels()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("%v: %d Hz, %d channels, %d frames, peak %.2f\n", format, st.Rate(), st.Channels(), frames, peak)
	// Output: FLAC: 8000 Hz, 2 channels, 1600 frames, peak 0.50
}

func ExampleSniff() {
	_, err := audio.Sniff([]byte("Meeting notes, 3 May\n"))
	fmt.Println(errors.Is(err, audio.ErrFormat))
	fmt.Println(err)

	format, err := audio.Sniff([]byte("fLaC\x00\x00\x00\x22"))
	fmt.Println(format, err)
	// Output:
	// true
	// audio: unrecognised format: looks like text, not audio: "Meeting notes, 3 May\n"
	// FLAC <nil>
}
