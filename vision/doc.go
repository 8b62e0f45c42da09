// Package vision is the image side of attend: it decodes images, turns them
// into the tensors an image encoder reads, runs the pretrained CNN feature
// extractor, and draws attention: per-word heat maps over the image. (The
// alignment of speech over its spectrogram is drawn by package
// pipeline/plot; both take their colormaps, labels and frames from
// internal/figure.)
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
//  1. Crop: Squash (default) takes the whole image and distorts its
//     aspect ratio; CenterCrop takes the central square whose side is
//     CropFraction (default 1) of the shorter side. CropRect reports the source
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
// # Image encoder
//
// An Encoder runs MobileNetV2 1.0/224 (Sandler et al. 2018,
// arXiv:1801.04381), ImageNet-trained and uint8-quantized for TensorFlow
// Lite, in float32, and returns the feature grid the caption decoder
// attends over and the classifier's probabilities:
//
//	path, err := LocateEncoder(ctx, &LocateOptions{Path: flagValue})
//	enc, err := LoadEncoder(path, nil)          // or &EncoderOptions{Grid: GridBlock13}
//	pre, err := enc.NewPreprocessor(nil)        // 224×224, the model's normalization
//	x, err := pre.Tensor(img)                   // 3×224×224 CHW
//	feats, err := enc.Features(nil, x)          // L×D row-major
//	probs, err := enc.Classify(nil, x)          // 1001: background + ImageNet
//
// Features returns an L×D matrix: row y·w+x is the D-channel feature
// vector of grid cell (x, y), L = h·w (GridShape). Two grids are offered:
//
//	GridFinal    7×7×1280  L = 49   the last map before the classifier
//	                               (Conv_1, ReLU6; input of the average pool)
//	GridBlock13  14×14×576 L = 196  the expansion output of block 13, the
//	                               last 14×14 map (Show, Attend and Tell
//	                               used a 14×14×512 VGG map)
//
// Both are ReLU6 outputs in [0, 6] and sparse (GridFinal is about 80%
// zeros). Encode returns a grid and the probabilities from one pass.
//
// Input. The model's uint8 input is quantized with scale 1/128 and zero
// point 128, so byte v means (v − 128)/128 ∈ [−1, 0.992]. Normalization
// returns exactly this mapping, derived from the file; MobileNetNorm
// (v/127.5 − 1) is the same to within 0.4%. Flickr8k photos are already
// 224×224; for other images the Preprocessor's default Squash keeps the
// whole scene (as Show, Attend and Tell did), CenterCrop matches ImageNet
// evaluation.
//
// Arithmetic. Weights are dequantized once, w = scale·(q − zero_point),
// with one scale per tensor or per output channel (quantized_dimension);
// the int32 biases carry the scale s_input·s_weight. Activations stay
// float32 and are not re-quantized between layers as TFLite's integer
// kernels do, so probabilities differ slightly from TFLite's; the top
// labels of the test photos agree with what a person sees. The graph may
// contain CONV_2D, DEPTHWISE_CONV_2D (depth multiplier 1),
// FULLY_CONNECTED, ADD, AVERAGE_POOL_2D, RESHAPE, SQUEEZE, SOFTMAX,
// QUANTIZE and DEQUANTIZE with fused NONE, RELU, RELU_N1_TO_1 or RELU6;
// MobileNetV2 uses 36 convolutions, 17 depthwise convolutions, 10 residual
// additions, one average pool, a reshape and a softmax: 300.8 M
// multiply-adds. SAME padding follows TFLite: out = ⌈in/stride⌉ and an
// odd total padding puts the extra pixel at the bottom and right.
//
// MobileNet-EdgeTPU. The second known encoder (MobileNetEdgeTPU; Gupta
// and Tan 2019) runs on the same code: 46 convolutions (full 3×3 ones in
// its fused inverted-bottleneck blocks, the im2col path), 13 depthwise
// convolutions (3×3 and 5×5; windows other than 3×3 take the plain
// loop), 15 additions, plain ReLU instead of ReLU6, a squeeze and a
// reshape: 990.7 M multiply-adds. Its file records no activation shapes
// (only the input's), so the compiler infers them from the inputs,
// filters and options (inferShapes). GridFinal is MobilenetEdgeTPU/Conv_1/Relu,
// 7×7×1280 and unbounded above; GridBlock13 is its last 14×14 map,
// 14×14×768. Its input is (v − 128)/127. Fed the integer reference's own
// inputs (Arm NN 20.08's TFLite parser and reference backend, Debian's
// python3-pyarmnn), every one of its 78 operators here gives that
// reference's uint8 output to within half a quantization step, but for
// the values it clips at the ends of its uint8 range (9 of 6 million on
// two photos); end to end the two drift apart (features 18–33% relative
// difference at Conv_1 on two photos, against 10–15% for MobileNetV2;
// the top-1 label agreeing on most photos), because this file's
// activations are coarsely quantized (scales up to 0.4 under plain
// ReLU) and the integer reference re-quantizes after every layer.
//
// Speed. Convolutions are one GEMM each, C = clamp(A·B + bias): a 1×1
// convolution multiplies the HWC activations directly, others (the first
// 3×3, stride 2) unroll receptive fields first (im2col). Depthwise 3×3
// convolutions run directly over HWC rows. On amd64 CPUs with AVX2 and
// FMA (x86-64-v3) both use assembly micro-kernels (a 6×16 GEMM tile in
// twelve 8-wide registers; 8 channels per instruction in depthwise);
// elsewhere, or built with -tags purego, Go kernels, which the Go
// compiler does not vectorize. Work is split over EncoderOptions.Threads
// goroutines (default GOMAXPROCS). On one core of the shared 2-core Xeon
// (Sapphire Rapids) this was developed on, a 224×224 image took 14–20 ms
// with the assembly kernels and 135–185 ms with the Go ones, and 11–12 ms
// on both cores (BenchmarkMobileNetV2). On MobileNetV2's pointwise shapes one core ran
// the assembly GEMM at 35–60 GFLOP/s, the Go one at 3–5 (BenchmarkGemm),
// and gonum's SGEMM (blas/gonum, SSE assembly inside) at 4–8.
//
// Memory. The weights take 14 MB as packed float32 and are shared by
// Clones. Each Encoder preallocates its activations once (three buffers
// reused by liveness, 8.4 MB, plus 1.4 MB for im2col), so it is not safe
// for concurrent use: give each goroutine its own Clone.
//
// Where the model comes from. The weights are not part of this module
// (Apache 2.0, google-coral/test_data; MobileNet-EdgeTPU's
// mlcommons/mobile_models). LocateEncoder looks at an explicit path (the
// --encoder flag; a known encoder's name there, "edgetpu", selects that
// encoder instead), then $ATTEND_ENCODER, then the user cache
// (os.UserCacheDir()/attend/mobilenet_v2_1.0_224_quant.tflite, or the
// KnownEncoder's file, accepted only if its SHA-256 matches), and
// otherwise downloads its URL into the cache: into a temporary file, checked against
// Content-Length and the SHA-256, then renamed into place, so the cache
// never holds a partial or wrong file.
//
// The TFLite reader. A .tflite file is a FlatBuffer; this package reads
// it with a small hand-written reader (about 260 lines for the format,
// 440 for the part of the TFLite schema it uses) rather than code
// generated by flatc with the github.com/google/flatbuffers runtime: that
// would add a dependency and thousands of generated lines for the whole
// schema, and generated accessors trust the buffer, so a truncated or
// hostile file makes them index out of range and panic. Here every
// offset, vtable, vector length and index is checked before it is used;
// a malformed file fails with ErrModel and says what is wrong where
// ("subgraphs[0].tensors[17]: vector at 1234 claims … elements, past the
// end"), a valid model with something this package does not run fails
// with ErrUnsupported naming the operator, and FuzzReadTFLite holds the
// reader, the graph checks and a forward pass to that. Declared shapes
// are checked against each other, and a graph that would need more than
// 512 MB of activations or 64 G multiply-adds per image is refused.
//
// # Attention pictures
//
// Overlay draws one attention distribution over an image, OverlayPanels
// a figure of one panel per generated word, OverlayGIF the same as an
// animation. Overlay's doc comment is their manual; in short:
//
// Weights. A decoder attends over L = rows×cols grid cells (7×7 for
// GridFinal, 14×14 for GridBlock13), cell (r, c) at index r·cols + c.
// CheckWeights refuses, with ErrWeights naming the cell, a wrong count, a
// NaN, an infinity, a negative weight or a sum further than 1e-3 from 1;
// weights are never renormalized.
//
// Placement. The grid tiles the square the model saw, in the photo's own
// coordinates: the central square (CenterCrop) or the whole photo
// (Squash), as Preprocessor.CropRect reports it (or
// OverlayOptions.Region). Pictures keep the photo's aspect ratio, and
// what the model never saw is drawn flat gray behind a thin frame.
//
// Smoothing. Heatmap makes the grid G a field over pixels, F = Y·G·Xᵀ,
// whose interpolation rows each sum to 1, so no pixel exceeds the largest
// weight: SmoothBilinear (default, linear between cell centers),
// SmoothGaussian (Xu et al.'s look, σ = 1.25 cells, equal to SciPy's
// gaussian_filter within 2e-6) or SmoothNearest (the grid itself).
//
// Scale and color. The field is divided by each panel's maximum
// (ScalePanelMax, default), the largest over all panels (ScaleShared) or
// 1 (ScaleAbsolute), and blended over the photo with opacity
// Alpha·(0.2 + 0.8·v) in Inferno (default), Viridis or Turbo; Mask dims
// the unattended photo instead, a spotlight as in Xu et al.'s figures.
//
// Figures. OverlayPanels puts the input image first, then a panel per
// word in rows of Columns (5), 224 pixels on the long side, each with its
// word, its largest weight and optionally β, dashed and solid outlines on
// the most attended and the sampled cell, and a legend with a colorbar.
// Labels use the Inconsolata 8×16 bitmap font with α, β and ␣ added.
//
// Speed. Ten words over a 640×480 photo on a 14×14 grid take about
// 20 ms of CPU time (BenchmarkOverlayPanels10Words); a figure computes
// the interpolation axes and the faded photo once for all its words.
package vision
