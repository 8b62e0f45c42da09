package captioning

import (
	"bytes"
	"fmt"
	"image"
	"io"

	"github.com/attend-go/attend/internal/input"
	"github.com/attend-go/attend/vision"
)

// ImageSize is the side of the square input of the caption models' encoder.
const ImageSize = 224

// ImageReport describes the image front end's view of one file.
type ImageReport struct {
	Path   string
	Format string          // "jpeg", "png", ...
	Bounds image.Rectangle // upright (EXIF orientation applied)
	Input  *vision.Tensor  // 3×224×224, normalized as the encoder expects
	// ChannelMean is the mean of each normalized input channel (R, G, B).
	ChannelMean [3]float32
}

// ErrTooLarge means an image is over the pixel limit (vision.ErrTooLarge),
// refused from its header.
var ErrTooLarge = vision.ErrTooLarge

// DefaultMaxPixels is the largest image, width × height, that LoadImage
// decodes: vision.DefaultMaxPixels.
const DefaultMaxPixels = vision.DefaultMaxPixels

// LoadImage decodes an image file (any supported format, recognized by
// content), upright, refusing images over vision.DefaultMaxPixels. The
// path "-" reads standard input.
func LoadImage(path string, stdin io.Reader) (image.Image, string, error) {
	return LoadImageLimit(path, stdin, 0)
}

// LoadImageLimit is LoadImage refusing images over maxPixels pixels (0:
// vision.DefaultMaxPixels). The error of an image over the limit wraps
// vision.ErrTooLarge.
func LoadImageLimit(path string, stdin io.Reader, maxPixels int64) (image.Image, string, error) {
	opts := &vision.DecodeOptions{MaxPixels: maxPixels}
	var (
		img    image.Image
		format string
		err    error
	)
	if path == input.Stdin {
		data, rerr := io.ReadAll(stdin)
		if rerr != nil {
			return nil, "", fmt.Errorf("reading standard input: %w", rerr)
		}
		if img, format, err = vision.Decode(bytes.NewReader(data), opts); err != nil {
			err = fmt.Errorf("standard input: %w", err)
		}
	} else {
		img, format, err = vision.DecodeFile(path, opts)
	}
	return img, format, err
}

// InspectImage loads an image (refused over maxPixels pixels; 0:
// vision.DefaultMaxPixels) and preprocesses it to the encoder's input.
func InspectImage(path string, stdin io.Reader, maxPixels int64) (*ImageReport, error) {
	img, format, err := LoadImageLimit(path, stdin, maxPixels)
	if err != nil {
		return nil, err
	}
	in, err := vision.ToTensor(img, ImageSize, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", input.DisplayName(path), err)
	}
	rep := &ImageReport{Path: path, Format: format, Bounds: img.Bounds(), Input: in}
	for c := 0; c < 3; c++ {
		var s float64
		plane := in.Plane(c)
		for _, v := range plane {
			s += float64(v)
		}
		rep.ChannelMean[c] = float32(s / float64(len(plane)))
	}
	return rep, nil
}
