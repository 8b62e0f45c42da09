package vision

import (
	"fmt"
	"image"
	"image/color"
	"image/gif"

	"github.com/attend-go/attend/internal/figure"
)

// DefaultGIFDelay is the time each frame of OverlayGIF shows, in
// hundredths of a second.
const DefaultGIFDelay = 100

// GIFOptions configures OverlayGIF. A nil *GIFOptions, or the zero value,
// means defaults; each field documents its own.
type GIFOptions struct {
	// PanelsOptions draws each frame as a panel of OverlayPanels (its
	// Columns and NoLegend are ignored: a frame is one panel, without a
	// legend; Title, if set, tops every frame).
	PanelsOptions

	// Delay is how long each frame shows, in hundredths of a second.
	// Zero means DefaultGIFDelay (1 s).
	Delay int

	// NoInputFrame leaves out the first frame, the input image alone.
	NoInputFrame bool
}

// OverlayGIF draws the panels of OverlayPanels as an animation, one frame
// per word after a frame of the input image, looping forever.
//
// All frames share one 256-color palette chosen for them by median cut
// (Heckbert 1982) over their pixels, with the figure's text and
// background colors reserved, and are dithered to it with Floyd–Steinberg
// error diffusion: photos and smooth heat gradients come out without
// visible banding, which a fixed palette such as palette.Plan9 does not
// manage. (The dithering is this package's own, with a cached
// nearest-color lookup; draw.FloydSteinberg searches the whole palette
// for every pixel and is several times slower.) Errors are those of
// OverlayPanels.
func OverlayGIF(img image.Image, panels []Panel, rows, cols int, opts *GIFOptions) (*gif.GIF, error) {
	var o GIFOptions
	if opts != nil {
		o = *opts
	}
	if o.Delay < 0 || o.Delay > 65535 {
		return nil, fmt.Errorf("%w: Delay %d, want 1..65535 hundredths of a second (or 0 for %d)", ErrOptions, o.Delay, DefaultGIFDelay)
	}
	if o.Delay == 0 {
		o.Delay = DefaultGIFDelay
	}
	frames, err := gifFrames(img, panels, rows, cols, &o)
	if err != nil {
		return nil, err
	}
	pal := medianCut(frames, 256, color.Palette{figure.Paper, figure.Ink, figure.Muted, figure.FrameColor})
	g := &gif.GIF{
		Config: image.Config{ColorModel: pal, Width: frames[0].Rect.Dx(), Height: frames[0].Rect.Dy()},
	}
	index := newPaletteIndex(pal)
	for _, f := range frames {
		p := image.NewPaletted(f.Rect, pal)
		ditherFloydSteinberg(p, f, index)
		g.Image = append(g.Image, p)
		g.Delay = append(g.Delay, o.Delay)
	}
	return g, nil
}

// gifFrames draws the frames of OverlayGIF in full color.
func gifFrames(img image.Image, panels []Panel, rows, cols int, o *GIFOptions) ([]*image.RGBA, error) {
	po := o.PanelsOptions
	po.Columns, po.NoLegend = 1, true
	ov, heats, err := preparePanels(img, panels, rows, cols, &po)
	if err != nil {
		return nil, err
	}
	lay := newPanelLayout(ov, panels, heats, 1, &po)
	var frames []*image.RGBA
	for i := -1; i < len(panels); i++ {
		if i < 0 && o.NoInputFrame {
			continue
		}
		dst := image.NewRGBA(image.Rect(0, 0, lay.width, lay.height))
		figure.FillRect(dst, dst.Rect, figure.Paper)
		lay.drawTitle(dst)
		if i < 0 {
			lay.drawInput(dst, lay.origin(0), rows, cols)
		} else {
			lay.drawPanel(dst, lay.origin(0), &panels[i], heats[i], rows, cols)
		}
		frames = append(frames, dst)
	}
	if len(frames) == 0 {
		return nil, fmt.Errorf("%w: no frames: no panels and NoInputFrame", ErrOptions)
	}
	return frames, nil
}
