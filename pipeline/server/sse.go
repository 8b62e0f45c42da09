package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speech"
)

// streamEvents answers a transcription request with stream=true as
// OpenAI's streaming transcription does: server-sent events
// (text/event-stream), one
//
//	data: {"type":"transcript.text.delta","delta":"…"}
//
// per chunk of audio as soon as it is decoded (the text of the chunk,
// after a space from the second on), then
//
//	data: {"type":"transcript.text.done","text":"…"}
//
// with the whole text. The official SDKs (openai-node's Stream, the
// Python one alike) read each data line as JSON and end with the
// connection. An error once events have started goes as
// data: {"type":"error","error":{…}}, which the SDKs raise.
func (a *asrService) streamEvents(ctx context.Context, w http.ResponseWriter, req *asrRequest) {
	flusher, _ := w.(http.Flusher)
	started := false
	send := func(v any) {
		if !started {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-cache")
			w.WriteHeader(http.StatusOK)
			started = true
		}
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	var texts []string
	err := a.s.work(ctx, func(ctx context.Context) error {
		m, err := a.pick(req)
		if err != nil {
			return err
		}
		model, err := m.modelFor(req.language)
		if err != nil {
			return err
		}
		tr, err := speech.NewTranscriber(model, &speech.TranscribeOptions{OnChunk: func(c speech.Chunk) {
			if c.Text == "" {
				return
			}
			delta := c.Text
			if len(texts) > 0 {
				delta = " " + delta
			}
			texts = append(texts, c.Text)
			send(map[string]string{"type": "transcript.text.delta", "delta": delta})
		}})
		if err != nil {
			return err
		}
		st, _, err := audio.OpenWithOptions(strings.NewReader(string(req.audio)), &audio.DecodeOptions{MaxDuration: a.cfg.MaxDuration})
		if err != nil {
			return err
		}
		name := req.name
		if name == "" {
			name = "upload"
		}
		_, err = tr.StreamContext(ctx, name, &ctxStream{Stream: st, ctx: ctx})
		return err
	})
	if err != nil {
		if !started {
			writeError(w, err)
			return
		}
		send(map[string]any{"type": "error", "error": map[string]string{"message": err.Error()}})
		return
	}
	send(map[string]string{"type": "transcript.text.done", "text": strings.Join(texts, " ")})
}
