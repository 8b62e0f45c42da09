package vision

import (
	"bytes"
	"image"
	"testing"

	"golang.org/x/image/draw"
)

// The benchmark photo: 640×480, the size of a typical web or COCO image,
// JPEG quality 90 with 4:2:0 chroma, as cameras and the web store them.
func benchJPEG(b *testing.B) []byte { return encodeJPEG(b, texture(640, 480), 90) }

func benchDecoded(b *testing.B) image.Image {
	img, _, err := Decode(bytes.NewReader(benchJPEG(b)), nil)
	if err != nil {
		b.Fatal(err)
	}
	return img
}

func BenchmarkDecodeJPEG640x480(b *testing.B) {
	data := benchJPEG(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Decode(bytes.NewReader(data), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// benchDecodePreprocess decodes the photo and preprocesses it to a
// 3×224×224 tensor with a reused Preprocessor, the steady state of a
// captioning batch.
func benchDecodePreprocess(b *testing.B, interp draw.Interpolator) {
	data := benchJPEG(b)
	p, err := NewPreprocessor(224, &PreprocessOptions{Interpolator: interp})
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]float32, 3*224*224)
	b.ReportAllocs()
	for b.Loop() {
		img, _, err := Decode(bytes.NewReader(data), nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := p.TensorInto(dst, img); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodePreprocessJPEG640x480(b *testing.B) { benchDecodePreprocess(b, nil) }
func BenchmarkDecodePreprocessJPEG640x480CatmullRom(b *testing.B) {
	benchDecodePreprocess(b, draw.CatmullRom)
}

// BenchmarkToTensorJPEG640x480 is the one-call convenience path: a fresh
// Preprocessor, scaler and tensor per image.
func BenchmarkToTensorJPEG640x480(b *testing.B) {
	img := benchDecoded(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ToTensor(img, 224, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// benchResize resamples the decoded photo's central 480×480 square to
// 224×224 RGBA: the resize alone, no decode and no normalization.
func benchResize(b *testing.B, interp draw.Interpolator, img image.Image) {
	p, err := NewPreprocessor(224, &PreprocessOptions{Interpolator: interp})
	if err != nil {
		b.Fatal(err)
	}
	dst := image.NewRGBA(image.Rect(0, 0, 224, 224))
	b.ReportAllocs()
	for b.Loop() {
		if err := p.resizeInto(dst, img); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResize640x480BiLinear(b *testing.B)   { benchResize(b, draw.BiLinear, benchDecoded(b)) }
func BenchmarkResize640x480CatmullRom(b *testing.B) { benchResize(b, draw.CatmullRom, benchDecoded(b)) }
func BenchmarkResize640x480ApproxBiLinear(b *testing.B) {
	benchResize(b, draw.ApproxBiLinear, benchDecoded(b))
}

// BenchmarkResize640x480BiLinearGeneric hides the *image.YCbCr type, to
// measure what the type-specific path saves.
func BenchmarkResize640x480BiLinearGeneric(b *testing.B) {
	benchResize(b, draw.BiLinear, hidden{benchDecoded(b)})
}

// BenchmarkResize640x480BiLinearRGBA resizes an RGBA source, as for PNGs
// and rotated JPEGs.
func BenchmarkResize640x480BiLinearRGBA(b *testing.B) {
	benchResize(b, draw.BiLinear, texture(640, 480))
}

func BenchmarkNormalize224(b *testing.B) {
	src := texture(224, 224)
	t := ImageNetNorm.table()
	dst := make([]float32, 3*224*224)
	b.ReportAllocs()
	for b.Loop() {
		t.toCHW(dst, src)
	}
}

// BenchmarkOrient640x480 rotates a decoded JPEG by 90°, the extra cost of a
// portrait phone photo.
func BenchmarkOrient640x480(b *testing.B) {
	img := benchDecoded(b)
	b.ReportAllocs()
	for b.Loop() {
		orientation(6).apply(img)
	}
}
