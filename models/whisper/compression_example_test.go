package whisper_test

import (
	"fmt"
	"strings"

	"github.com/attend-go/attend/models/whisper"
)

// Transcribe retries a window at a higher temperature when its text
// compresses too well (ratio above 2.4): a sign of a repetition loop. The
// figures are CPython's len(text)/len(zlib.compress(text)).
func ExampleCompressionRatio() {
	fmt.Printf("%.2f\n", whisper.CompressionRatio(" And so my fellow Americans, ask not what your country can do for you."))
	fmt.Printf("%.2f\n", whisper.CompressionRatio(strings.Repeat(" Thank you.", 20)))
	// Output:
	// 0.99
	// 10.00
}
