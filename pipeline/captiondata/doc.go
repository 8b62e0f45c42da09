// Package captiondata reads image caption datasets and keeps the image
// encoder's features of their images in a cache file, so that training a
// caption decoder runs the CNN once per image, not once per epoch.
//
// # Datasets
//
// Read recognizes four layouts and returns the same []Image for each: an
// ID (the image's file name, unique within the dataset), the image file's
// path and the reference captions as written:
//
//	kind      path                        captions from
//	flickr8k  a directory                 captions.txt: IMAGE#N<TAB>caption
//	                                      (or the original Flickr8k.token.txt);
//	                                      splits train.txt, dev.txt, test.txt
//	                                      (or Flickr_8k.trainImages.txt, …);
//	                                      images in images/ (or Flicker8k_Dataset/)
//	karpathy  dataset_*.json              images[].sentences[].raw, split in
//	                                      images[].split, file filepath/filename
//	coco      captions_<split>2014.json   annotations[].caption by image_id;
//	                                      images[].file_name
//	folder    a directory of images       none (for extraction only)
//
// A split argument names one split or several joined by commas
// ("train,dev"); "" means every image. "dev" and "val" are the same split
// in every kind (Flickr8k says dev, Karpathy and COCO say val). In
// Karpathy files "train" includes "restval", the COCO validation images
// outside Karpathy's val and test sets, as Karpathy's own code and most
// work since did (113,287 training images); "restval" alone selects only
// those. A COCO annotation file is one split, named in its file name.
//
// Reading is strict, because a silently dropped image or caption skews a
// training run: every image the split lists must exist as a file
// (ErrMissingImage, naming the first few and the count), every image must
// have captions and no caption may be empty (ErrFormat, naming file, line
// or JSON index, and image), and an unknown split fails with ErrSplit
// listing the ones the dataset has. JSON errors give line and column.
// Captions are trimmed of surrounding white space and otherwise kept as
// written; Tokenize (which is metrics.Tokenize) turns one into the words
// models are trained on and scored with.
//
// # Feature cache
//
// BuildCache runs an Extractor over a list of images and writes their
// features to a cache file; OpenCache opens it and Features reads one
// image's features:
//
//	x, err := LoadExtractor(modelPath, &ExtractorOptions{Grid: vision.GridFinal})
//	stats, err := BuildCache(ctx, "flickr8k-7x7.safetensors", images, x, &BuildOptions{Workers: 2})
//	c, err := OpenCache("flickr8k-7x7.safetensors")
//	err = c.Check(x.Spec())            // same encoder file and grid?
//	i, ok := c.Lookup("1000268201_693b08cb0e.jpg")
//	feats, err := c.Features(i, feats) // L×D float32, row y·W+x = cell (x, y)
//
// The Extractor interface stands between the cache and the CNN, so tests
// and other encoders need no TFLite model; EncoderExtractor runs
// package vision's MobileNetV2 (decode, crop or squash to 224×224, the
// network up to the grid: 7×7×1280 or 14×14×576).
//
// The file is a valid safetensors file (package models' reader checks
// every cache OpenCache opens; numpy reading the header's offsets gave
// the values Features gives), laid out so that every record has a fixed
// place from the start:
//
//	8 bytes     header length H, little-endian uint64
//	H bytes     JSON header, padded with spaces to a multiple of 8:
//	              "__metadata__": attend.kind "caption-features",
//	                attend.format_version "1", attend.encoder_sha256 (hex
//	                SHA-256 of the model file), attend.layer ("GridFinal"),
//	                attend.grid ("7x7x1280"), attend.preprocess
//	                ("CenterCrop 224"), attend.source (the dataset, for
//	                people), attend.ids (JSON list of the N image IDs)
//	              "features": F16 [N, L, D]
//	              "checksum": U32 [N]
//	              "complete": U8  [N]
//	N·L·D·2     features: record i, image ids[i], at i·L·D·2
//	N·4         checksum[i]: CRC-32C (Castagnoli) of record i's bytes
//	N           complete[i]: 1 once record i and its checksum are written
//
// Float16 keeps the encoder's ReLU6 outputs, which lie in [0, 6], to half
// an ulp: a relative error of at most 2⁻¹¹ (at most 0.0015 near 6), far
// below what the decoder can notice, at half the size of float32. The
// 7,000 Flickr8k train and dev images take 878 MB at 7×7×1280 (125,440
// bytes per image) and 1.58 GB at 14×14×576 (225,792 bytes).
//
// Resuming. A new cache is created at full size (sparse where the file
// system allows) in a temporary file and linked into place, so the path
// never holds a file without a valid header. Workers then write each
// record as its image finishes: features, checksum, completion flag, in
// that order, with positioned writes (no append, no rewrite of the
// header). When a run is killed, the next run with the same images,
// encoder, grid and preprocessing (anything else is refused with
// ErrMismatch, leaving the file alone) reads the flags, recomputes the
// CRC of every record marked complete (a torn or lost write fails it with
// probability 1 − 2⁻³²), and extracts what is incomplete or damaged. On
// Unix an exclusive flock keeps a second extraction out of the file; the
// kernel drops it when the process dies, so no stale lock survives a
// crash.
//
// Reading. OpenCache validates the header completely (the safetensors
// layout through package models, then kind, version, grid, IDs and tensor
// shapes; ErrCache otherwise) and reads the 5 bytes per image of checksums
// and flags, nothing more. Features is one ReadAt of one record, a CRC-32C
// check (ErrCache if it fails) and a table conversion of the halves, four
// per iteration, into the caller's slice; buffers are pooled, so it does
// not allocate, and it is safe for concurrent use. A record not extracted
// reads as ErrIncomplete; CheckImages tells a training run up front which
// of its images the cache lacks.
//
// Speed on one core of the shared 2-core development machine (Xeon,
// Sapphire Rapids, with a training run on the other core): extraction
// 58 images/s at 7×7 and 76 images/s at 14×14 (JPEG decode included;
// BenchmarkExtract); "caption features -j 1" over the 7,000 Flickr8k
// train and dev images took 2 min 14 s at 7×7 (52 images/s, 82 MB
// resident) and 41 s for the last 2,998 images of an interrupted 14×14
// run (74 images/s). Verify reads and checks those whole caches in 0.15 s
// and 0.26 s from the page cache. Reading a record takes 66 µs at
// 7×7×1280 and 147 µs at 14×14×576 (BenchmarkCacheFeatures), of which
// the float16 conversion is 25 µs per 62,720 values
// (BenchmarkDecodeHalves).
//
// # References
//
// M. Hodosh, P. Young, J. Hockenmaier, Framing image description as a
// ranking task: data, models and evaluation metrics, JAIR 47, 2013
// (Flickr8k).
//
// A. Karpathy, L. Fei-Fei, Deep visual-semantic alignments for generating
// image descriptions, CVPR 2015 (the Karpathy splits).
//
// X. Chen et al., Microsoft COCO captions: data collection and evaluation
// server, arXiv:1504.00325, 2015.
//
// The safetensors format: https://github.com/huggingface/safetensors.
package captiondata
