// Package captioning is attend's image captioning pipeline: it trains a
// Show-Attend-Tell decoder (package models/caption) on a caption
// dataset's cached image features, scores it with the COCO caption
// metrics, and describes new images with an ImageNet encoder (the one the
// model's features came from: MobileNet-EdgeTPU for the embedded default,
// MobileNetV2 for older models) and beam search.
//
// # Use from Go
//
// NewCaptioner opens the embedded default model (CaptionerOptions{}) or
// a model file; CaptionImage describes any image.Image, Caption an image
// file, both through CaptionInput, the one captioning path (also of the
// batches, BatchFactory, and of the figures): it decodes an image once,
// or reads its features from the cache, and returns a Result that holds
// the words, the attention grids, β, the beam's alternatives and the
// decoded image, and writes its own JSON (WriteResult). A Captioner is safe for concurrent use. The image encoder
// (the one the model file names, DefaultEncoder for the embedded model)
// is not shipped: it is located at the first image
// (CaptionerOptions.Encoder, $ATTEND_ENCODER, the user cache) or
// downloaded into the user cache, under the context given to
// NewCaptioner; without it CaptionImage fails with ErrNoEncoder, and
// EncoderHelp says how to provide it. Package overlay draws what the
// model looked at: overlay.FromResult, then overlay.Encode to any
// io.Writer.
//
//	c, err := captioning.NewCaptioner(ctx, captioning.CaptionerOptions{})
//	…
//	r, err := c.CaptionImage(img)
//	fmt.Println(r.Caption)
//	fig := overlay.FromResult(r, c.Model.Config)
//	err = overlay.Encode(w, img, &fig, nil) // PNG with the caption in its metadata
//
// # Data
//
// A dataset is anything captiondata.Read reads (a Flickr8k directory, a
// Karpathy split file, a COCO caption file), split by name ("train",
// "dev"). Training never runs the CNN: the features of every train and
// dev image come from a cache that "caption features" builds once
// (captiondata.BuildCache; 7×7×1280 float16, 125 KB per image); a missing
// or incomplete cache fails up front with ErrCache and the exact command
// that builds it. Records are read per batch with one ReadAt each (66 µs),
// so the 6,000 Flickr8k training images need no memory beyond a batch.
//
// The vocabulary is built from the training captions only
// (captiondata.Tokenize: lower case, no punctuation), keeping words seen
// at least MinCount (5) times, Karpathy's Flickr8k setting: 2,541 tokens
// for Flickr8k. Dev and test words outside it are scored as written, so an
// <unk> in a caption costs what it should.
//
// # Training
//
// Teacher forcing on one caption per example: every epoch visits each of
// the (image, caption) pairs once (Flickr8k: 6,000 images × 5 captions).
// Batches hold captions of equal length (sorted by length, ties shuffled
// by epoch, batch order shuffled), so padding is rare; the decoder steps
// S of a batch are rounded up to a multiple of StepRound (4), and one
// compiled graph per (B, S) is kept by models.Buckets, at most MaxGraphs
// (8) at a time. The loss is models/caption's: per-token cross-entropy
// plus the doubly stochastic attention penalty (Xu et al. eq. 14), with
// REINFORCE for hard attention (Config.Attention). Adam (LR 4e-4, warm-up
// 200 steps, gradient norm clipped at 5).
//
// Self-critical sequence training (SCST: Rennie et al. 2017, in the
// variant of Luo 2020) fine-tunes a trained model on the metric instead
// (TrainOptions.SCST, from Init): an epoch visits each training image
// once; for each, SCSTSamples (5) captions are drawn from the decoder
// (caption.Model.Sample), each rewarded by its CIDEr-D against the
// image's references (document frequencies of the training split only),
// and the policy gradient −Σ (r − b) ∇ log p(caption), with b the mean
// reward of the image's other samples, runs through the same graph as
// cross-entropy with per-token weights (r − b)/N. Label smoothing and the
// attention penalty are off. A checkpoint records its objective, and
// Resume refuses the other one.
//
// After every epoch (or EvalEvery steps) the dev images are captioned
// (greedy, or beam Beam) and scored. The best model by dev BLEU-4 is
// written to OutDir/best.safetensors (Select = SelectCIDErD picks by
// CIDEr-D instead; BLEU-4 is the number Xu et al. report, CIDEr-D the one
// that agrees best with people). The learning rate halves after
// DecayPatience (2) evaluations without improvement and training stops
// after Patience (6). The loop, checkpoints and snapshots are
// pipeline/trainloop's, shared with asr train; this package supplies the
// batches, the dev evaluation and the checkpoint state.
//
// Checkpoints. OutDir/last.safetensors is written every CheckpointEvery
// (5 min), at every epoch's end and when the context is cancelled: the
// model in float32, Adam's moments as extra tensors ("adam.m/NAME",
// "adam.v/NAME") and the loop's state as JSON metadata ("attend.train":
// epoch, batch, step, best scores, LR scale, hard attention's baseline,
// the dev history). Resume continues from it on the same epoch plan (the
// plan depends only on Seed and the epoch), so a resumed run without
// dropout ends with the very weights of an uninterrupted one; with dropout
// or hard attention the masks and samples restart from Seed. Every model file also records
// the features it was trained on ("attend.features": grid, layer,
// preprocessing, encoder SHA-256). The log (cross-entropy, perplexity,
// tokens/s, s/step, epoch ETA, dev scores with an example caption) goes
// to Log and OutDir/train.log.
//
// # Evaluation
//
// Evaluate captions a split from the cache with each beam width of
// Beams (greedy and beam 3 by default) and scores BLEU-1…4, METEOR,
// ROUGE-L and CIDEr-D against all references (package metrics).
//
// # Describing images
//
// A Captioner decodes an image file ("-" for standard input), squashes it
// to 224×224 as the Flickr8k training images were, runs the encoder to
// the feature grid the model reads (7×7×1280 or 14×14×576, told by the
// model's Regions and FeatureDim) and runs beam search. Its Result holds
// the caption, the words and token ids, per word the attention weights
// over the grid (row-major, GridH × GridW), the gate β and, for a model
// with adaptive attention, the sentinel weight, the beam's alternatives
// with their log-probabilities and scores, the encoder's TopLabels
// ImageNet classes (the classifier head runs in the same pass as the
// features: Encoder.Encode) and the caption's Confidence, which falls on
// photos unlike the training photos, and with a memory (memory.go: the
// beam's candidates reranked by consensus with the nearest training
// photos' captions) the photo's Familiarity, and the Contrast of the
// encoder's input (below LowConfidence, LowFamiliarity or LowContrast the
// caption is flagged, Result.Note saying why; confidence.go says how they
// are made and measured). The encoder is
// located (vision.LocateEncoder) and loaded at the first image that needs
// it; images found by file name in an optional feature cache need none.
//
// # References
//
//   - K. Xu et al. Show, attend and tell: neural image caption generation
//     with visual attention. ICML 2015.
//   - A. Karpathy, L. Fei-Fei. Deep visual-semantic alignments for
//     generating image descriptions. CVPR 2015.
//   - R. Vedantam, C. L. Zitnick, D. Parikh. CIDEr: consensus-based image
//     description evaluation. CVPR 2015.
package captioning
