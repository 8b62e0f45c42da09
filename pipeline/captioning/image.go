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

// LoadImage decodes an image file (any supported format, recognized by
// content), upright. The path "-" reads standard input.
func LoadImage(path string, stdin io.Reader) (image.Image, string, error) {
	if path == input.Stdin {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, "", fmt.Errorf("reading standard input: %w", err)
		}
		img, format, err := vision.Decode(bytes.NewReader(data), nil)
		if err != nil {
			return nil, "", fmt.Errorf("standard input: %w", err)
		}
		return img, format, nil
	}
	return vision.DecodeFile(path, nil)
}

// InspectImage loads an image and preprocesses it to the encoder's input.
func InspectImage(path string, stdin io.Reader) (*ImageReport, error) {
	img, format, err := LoadImage(path, stdin)
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
