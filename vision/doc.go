// Package vision is the image side of attend: it decodes images, turns them
// into the tensors an image encoder reads, and (in later parts) holds the
// pretrained CNN feature extractor and the attention heatmap drawing.
//
// It imports only the standard library and golang.org/x/image, never
// gorgonia; a test enforces this.
//
// # Decoding
//
// Decode and DecodeFile read JPEG, PNG, GIF (first frame), BMP, TIFF and
// WebP (lossy, lossless and with alpha) with the standard library and
// x/image decoders. The format is recognized from its magic bytes, not the
// file name, and only these six decoders are used, whatever else is
// registered with image.RegisterFormat. (Importing vision registers the
// x/image BMP, TIFF and WebP decoders with package image, as importing
// those packages always does.)
//
// Decoding is defensive, because images come from users:
//
//   - The header is decoded first (image.Config) and the image refused
//     with ErrTooLarge when width×height exceeds DecodeOptions.MaxPixels
//     (default 50 MP), before any pixel memory is allocated: a 70-byte
//     PNG claiming 100000×100000 pixels fails at once, allocating a few
//     kilobytes. A 0×0 header fails with ErrDimensions.
//   - Unrecognized bytes fail with ErrFormat (which also matches
//     image.ErrFormat), and the message says what they look like instead:
//     empty input, HEIC, AVIF, JPEG XL, PDF, HTML/SVG, text, or the
//     leading bytes in hex.
//   - Truncated or malformed data fails with ErrCorrupt, wrapping the
//     decoder's own error (often io.ErrUnexpectedEOF).
//   - A failing reader is reported as a read error, not as a bad image.
//
// The input need not be seekable: the header bytes are recorded while the
// header is parsed and replayed to the pixel decoder. For most formats the
// header is the first few kilobytes; a TIFF header may point anywhere in
// the file, so a TIFF is read whole (but not decoded) before its size is
// checked.
//
// # Orientation
//
// Cameras store JPEG pixels as the sensor saw them and record in the EXIF
// Orientation tag (0x0112) how to turn them upright. Decode applies it, so
// a portrait photo comes out portrait, as in any photo viewer; set
// DecodeOptions.IgnoreOrientation to get the stored pixels. The tag is read
// by a small parser of the APP1 "Exif" segment (TIFF header in either byte
// order, then IFD0) that only ever reads inside the segment; a damaged or
// implausible tag is ignored (orientation 1), never an error. The eight
// values are the TIFF ones:
//
//	1 normal               5 transpose (mirror about the main diagonal)
//	2 mirror horizontally  6 rotate 90° clockwise
//	3 rotate 180°          7 transverse (mirror about the anti-diagonal)
//	4 mirror vertically    8 rotate 90° counter-clockwise
//
// Values 5–8 swap width and height. Rotated grayscale and CMYK JPEGs keep
// their pixel type; rotated color JPEGs become *image.RGBA. Orientation
// metadata in PNG, TIFF and WebP files is not applied.
//
// # Color
//
// Decoded images keep their native pixel type. Flatten, and every
// Preprocessor, convert any of them to 8-bit opaque RGB: gray, 16-bit,
// CMYK (including Adobe CMYK and YCCK JPEGs), YCbCr and paletted pixels go
// through the color models of the image/color package, and translucent
// pixels are composited over a background, white unless set:
//
//	out = src + (1 − αsrc)·background     (premultiplied "over")
//
// White matches how browsers and document viewers show transparent logos
// and icons, the images most likely to have alpha. No color management is
// done: embedded ICC profiles are ignored and pixels are taken as sRGB.
//
// Lossy WebP stores limited-range ("video") BT.601 YCbCr, which
// x/image/webp hands back labelled as full-range JPEG YCbCr, washing every
// image out by up to 16 levels (golang/go#40173). Decode converts lossy
// WebP to RGB with the limited-range equations instead, matching libwebp's
// dwebp -nofancy to within one level; such images come back as
// *image.RGBA, or *image.NRGBA with alpha.
//
// # Preprocessing
//
// A Preprocessor turns an image of any size into a size×size input in one
// resampling pass (golang.org/x/image/draw):
//
//  1. Crop: CenterCrop (default) takes the central square whose side is
//     CropFraction (default 1) of the shorter side; Squash takes the whole
//     image and distorts its aspect ratio. CropRect reports the source
//     rectangle, to map outputs back onto the original.
//  2. Resample the crop to size×size, by default with draw.BiLinear, which
//     widens its kernel when shrinking so every source pixel contributes
//     (like PIL's and torchvision's antialiased resize).
//  3. Normalize each byte v of channel c to
//     (v/255 − Mean[c]) / Std[c]
//     through a 256-entry table, and write channels first.
//
// The result is a Tensor in CHW layout, float32, R, G, B:
//
//	Data[(c*H + y)*W + x],  shape 3 × size × size
//
// Normalizations: ImageNetNorm (default; torchvision models), MobileNetNorm
// ([−1, 1], TensorFlow MobileNet/Inception float inputs), UnitNorm
// ([0, 1]) and ByteNorm ([0, 255]). The uint8-quantized MobileNetV2 TFLite
// encoder reads bytes, which Preprocessor.Resize returns as *image.RGBA.
//
// Speed: YCbCr (JPEG), RGBA, NRGBA and Gray sources go through
// type-specific resampling loops and the tensor is written from the RGBA
// pixel array, so no pixel passes through the color.Color interface. A
// Preprocessor reuses its buffers: TensorInto does not allocate after the
// first image of a given size. See BenchmarkDecodePreprocessJPEG640x480.
//
// # Feature extraction and heatmaps
//
// Not yet here: the MobileNetV2 TFLite feature extractor (224×224 input to
// a 7×7×1280 feature grid, L = 49 regions) and the drawing of per-word
// attention heatmaps over the image will live in this package, reading
// Preprocessor outputs and CropRect.
package vision
