// Package figure is the drawing kit that vision's attention pictures and
// pipeline/plot's alignment plot share, so that a caption's heat maps and
// a transcript's alignment look alike:
//
//   - Colormaps: Viridis, Inferno and Turbo (matplotlib's tables, digit for
//     digit; colormap_gen.go) and Mask, each a 256-entry table.
//   - Labels: the Inconsolata 8×16 bitmap font with α, β and ␣ added,
//     magnified by whole factors; widths, ellipsis, word wrap, vertical
//     text.
//   - Chrome: the paper and ink colors, filled, outlined and dashed
//     rectangles, dashed lines, colorbars.
//   - CheckWeights: what an attention distribution must satisfy before it
//     is drawn, under the caller's sentinel error.
//
// It imports the standard library and golang.org/x/image only (the one
// internal package that may use x/image), never gorgonia.
package figure
