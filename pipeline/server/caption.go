package server

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/attend-go/attend/vision"
)

// MaxBeam is the widest beam a caption request may ask for.
const MaxBeam = 30

// CaptionConfig configures NewCaption.
type CaptionConfig struct {
	// Captioner describes the images (safe for concurrent use).
	Captioner *captioning.Captioner
	// ModelID names the decoder in /v1/models and the answers.
	ModelID string
	// Beam is the width when a request names none (0: the Captioner's,
	// captioning.DefaultBeam unless it was given one).
	Beam int
	// MaxPixels bounds an image's width × height (0: the CLI's limit,
	// vision.DefaultMaxPixels); a larger image gets 413 before any pixel
	// is decoded.
	MaxPixels int64
}

// captionService answers POST /v1/captions.
type captionService struct {
	s   *Server
	cfg CaptionConfig
}

// NewCaption returns the server of "caption serve": POST /v1/captions
// and the page that shows each word's attention over the photo.
func NewCaption(cfg CaptionConfig, o Options) (*Server, error) {
	if cfg.Captioner == nil {
		return nil, fmt.Errorf("server: no captioner")
	}
	if cfg.Beam == 0 {
		cfg.Beam = cfg.Captioner.Beam()
	}
	if cfg.Beam < 1 || cfg.Beam > MaxBeam {
		return nil, fmt.Errorf("server: beam %d, want 1..%d", cfg.Beam, MaxBeam)
	}
	if cfg.MaxPixels <= 0 {
		cfg.MaxPixels = vision.DefaultMaxPixels
	}
	s := newServer("caption", []modelInfo{{ID: cfg.ModelID, Object: "model", OwnedBy: "attend"}}, o)
	c := &captionService{s: s, cfg: cfg}
	s.handlePost("/v1/captions", c.caption)
	return s, nil
}

// captionRequest is a caption request, parsed and checked.
type captionRequest struct {
	image        []byte
	beam         int
	alternatives int // how many of the beam's hypotheses to answer
}

// parseCaptionFields checks the parameters of an upload.
func parseCaptionFields(u *upload, defaultBeam int) (*captionRequest, error) {
	req := &captionRequest{image: u.data, beam: defaultBeam, alternatives: -1}
	if v := u.get("beam"); v != "" {
		b, err := strconv.Atoi(v)
		if err != nil || b < 1 || b > MaxBeam {
			return nil, badRequest("beam", "beam %q: want a width of 1..%d", v, MaxBeam)
		}
		req.beam = b
	}
	if v := u.get("alternatives"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > MaxBeam {
			return nil, badRequest("alternatives", "alternatives %q: want 0..%d", v, MaxBeam)
		}
		req.alternatives = n
	}
	return req, nil
}

// CaptionAnswer is the answer of POST /v1/captions: the caption with its
// details (as "caption -json" prints it, less the path; captioning.Caption)
// with the model, the image's size, the beam and the time taken.
type CaptionAnswer struct {
	Model string `json:"model"`
	captioning.Caption
	Width   int     `json:"width"` // of the photo, upright
	Height  int     `json:"height"`
	Beam    int     `json:"beam"`
	Seconds float64 `json:"seconds"`
}

func (c *captionService) caption(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), c.s.o.Timeout)
	defer cancel()
	u, release, err := c.s.receive(w, r, true)
	if err != nil {
		writeError(w, err)
		return
	}
	defer release()
	req, err := parseCaptionFields(u, c.cfg.Beam)
	if err != nil {
		writeError(w, err)
		return
	}
	var ans *CaptionAnswer
	err = c.s.work(ctx, func(ctx context.Context) error {
		ans, err = c.describe(ctx, req)
		return err
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ans)
}

// describe decodes the image and captions it.
func (c *captionService) describe(ctx context.Context, req *captionRequest) (*CaptionAnswer, error) {
	start := time.Now()
	img, _, err := vision.Decode(bytes.NewReader(req.image), &vision.DecodeOptions{MaxPixels: c.cfg.MaxPixels})
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res, err := c.cfg.Captioner.CaptionInput(ctx, &captioning.Input{Image: img, Beam: req.beam})
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	ans := &CaptionAnswer{Model: c.cfg.ModelID, Caption: res.Detailed(), Width: b.Dx(), Height: b.Dy(), Beam: req.beam}
	if alt := ans.Alternatives; req.alternatives >= 0 && req.alternatives < len(alt) {
		ans.Alternatives = alt[:req.alternatives]
	}
	ans.Seconds = math.Round(time.Since(start).Seconds()*1000) / 1000
	return ans, nil
}
