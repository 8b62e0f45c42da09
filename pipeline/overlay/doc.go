// Package overlay draws what a caption model looked at: for each word it
// generated, the attention weights with which it generated it, as a heat
// map over the photo. It is the pipeline behind `caption overlay` and
// `caption --overlay DIR`; the drawing itself is package vision's
// (OverlayPanels, OverlayGIF), whose Overlay doc comment is the manual of
// the pictures.
//
// # Input
//
// A Caption holds the words, per word the attention α_t over the
// encoder's Rows×Cols grid (row-major, summing to 1), optionally the gate
// β_t, and for hard attention the cell each word read. It is this
// package's own type; FromResult fills it from a captioning.Captioner's
// Result, FromHypothesis from a caption model's search result. Caption.Fit and CropFraction must repeat the
// vision.Preprocessor that made the encoder's input, so that the grid
// lands on the pixels it covered: with CenterCrop (the default) the
// grid covers the photo's central square and the sides, which the model
// never saw, are drawn gray; with Squash it covers the whole photo.
//
// Check refuses an inconsistent Caption with ErrCaption naming the word:
// per-word slices of different lengths, weights that are not a
// distribution (a NaN, a negative value, a sum off 1 by more than 1e-3:
// weights are never renormalized, since a wrong sum means the wrong
// numbers were passed), β outside [0, 1], a cell outside the grid.
//
// # Figures
//
// Render draws one picture: the photo, in its own aspect ratio, then a
// panel per word with that word's attention smoothly upsampled,
// colormapped and blended over the photo, the word under it with its
// largest weight (and β with Options.Beta), in rows of Options.Columns
// tiles (5) of Options.Size pixels on the long side (224), under the
// caption and over a colorbar. RenderGIF shows the same panels one per
// frame. Options.Select chooses panels by position or word ("3",
// "dog,grass"; SelectWords parses it, per caption, into Options.Words); Options.Peak outlines each word's most attended cell
// (dashed), and a hard-attention Caption with Cells outlines the cell the
// decoder read (solid). Colormaps: Inferno (default), Viridis, Turbo, or
// Mask, which darkens what the model did not look at.
//
// # Files
//
// Encode writes a figure as PNG or GIF, recording the caption in it (PNG
// iTXt "Description", GIF comment) and that this package made it (PNG
// iTXt "Software"). Write writes one file atomically; CheckOutput
// refuses an output that is the input (same path, or the same file
// through a link). Dir writes a batch into one directory, one figure per
// image named after it (root/a/b.jpg → DIR/a/b.png): never outside the
// directory (ErrOutside; symbolic links included), never over an input
// (ErrOverwriteInput) or a file it did not write (ErrExists), never two
// images to one name (ErrNameTaken); it replaces its own figures of an
// earlier run, which IsFigure recognizes by the "Software" mark.
// AcceptImage selects the images of a directory walk, figures excluded.
// Errors name the input.
package overlay
