package server

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// repoRoot is the module root, two levels up from this package.
var repoRoot = filepath.Join("..", "..")

var (
	asrOnce  sync.Once
	asrModel *speechmodel.LASModel
	asrErr   error
)

// newASRServer returns an asr server over the embedded model.
func newASRServer(t testing.TB, o Options) *Server {
	t.Helper()
	asrOnce.Do(func() { asrModel, asrErr = speechmodel.OpenModel("") })
	if asrErr != nil {
		t.Fatal(asrErr)
	}
	// Attention alone, no language model: the page then shows the
	// speller's own alignment (with the LM, the default model falls back
	// to CTC on hello.wav, whose alignment is one-hot).
	so := speechmodel.SearchOptions{LengthPenalty: 1, EOSThreshold: 1.5, CTCWeight: 0.3, Beam: 2}
	s, err := NewASR(ASRConfig{Model: speechmodel.NewLAS(asrModel, &so), ModelID: speechmodel.ModelID("")}, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sharedEncoder returns the encoder the embedded default caption model
// needs (captioning.DefaultEncoder: MobileNet-EdgeTPU) from the shared data
// beside the module root, skipping the test when it is absent.
func sharedEncoder(t testing.TB) string {
	return shareddata.Path(t, shareddata.EncoderFor(captioning.DefaultEncoder().File))
}

// newCaptioner returns a captioner over the embedded decoder and the
// shared encoder, with the CLI's search (no <unk>).
func newCaptioner(t testing.TB) *captioning.Captioner {
	t.Helper()
	search := caption.DefaultSearchOptions()
	search.NoUnk = true
	c, err := captioning.NewCaptioner(context.Background(), captioning.CaptionerOptions{Encoder: sharedEncoder(t), Search: &search})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// newCaptionServer returns a caption server over newCaptioner.
func newCaptionServer(t testing.TB, o Options) *Server {
	t.Helper()
	s, err := NewCaption(CaptionConfig{Captioner: newCaptioner(t), ModelID: captioning.ModelID("")}, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// serve starts s on a loopback port for the test.
func serve(t testing.TB, s *Server) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts
}
