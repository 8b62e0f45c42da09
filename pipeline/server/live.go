package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/attend-go/attend/pipeline/stream"
	"github.com/coder/websocket"
)

// LivePath is the WebSocket endpoint of live transcription, in Vosk's
// server protocol so that Vosk's clients work unchanged:
//
//   - the client may first send a text message {"config": {"sample_rate":
//     R}} (raw PCM at R Hz; 16000 by default, 8000–384000);
//   - then binary messages of raw signed 16-bit little-endian mono PCM,
//     in pieces of any size;
//   - and {"eof": 1} at the end.
//
// The server answers each binary message with one text message, as Vosk
// does: {"partial": "…"} (the partial transcript of the utterance being
// spoken, as it stands; "" when there is none), or, when an utterance
// ended, {"result": [{"word", "start", "end", "conf"}], "text": "…"} (its
// final transcript, times in seconds from the stream's start; a message
// that ends two utterances gets two). After eof come the results of what
// was still open, then a normal close (1000). See pipeline/stream for how
// it decodes.
//
// Limits: at most Options.Jobs streams at once (a further one is closed
// with 1013 "try again later"), each at most the server's MaxDuration of
// audio (1009) and its Timeout of idleness between messages (1008);
// messages of at most LiveMaxMessage bytes (1009); a message that is not
// the config, eof or PCM closes the stream with 1003 and a reason that
// says what was wrong. Audio without speech is never decoded.
const LivePath = "/v1/audio/live"

// Limits of live streams.
const (
	// LiveMaxMessage bounds one WebSocket message: 1 MiB is 32 s of
	// 16 kHz PCM; Vosk's clients send 0.2–0.5 s at a time.
	LiveMaxMessage = 1 << 20
	// LiveIdleTimeout closes a stream that sends nothing for this long
	// (or for the server's Options.Timeout, if shorter).
	LiveIdleTimeout = 30 * time.Second
)

// voskWord is a word of a Vosk result.
type voskWord struct {
	Word  string  `json:"word"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Conf  float64 `json:"conf"`
}

// voskResult is Vosk's final result.
type voskResult struct {
	Result []voskWord `json:"result"`
	Text   string     `json:"text"`
}

// live answers a WebSocket client at LivePath (Vosk's protocol), at
// most Options.Jobs of them at once.
func (a *asrService) live(w http.ResponseWriter, r *http.Request) {
	select {
	case a.liveSlots() <- struct{}{}:
		defer func() { <-a.liveSlots() }()
	default:
		c, err := websocket.Accept(w, r, nil)
		if err == nil {
			c.Close(websocket.StatusTryAgainLater, "server busy: all live streams are taken")
		}
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered
	}
	defer c.CloseNow()
	c.SetReadLimit(LiveMaxMessage)
	status, reason := a.serveLive(r.Context(), c)
	c.Close(status, reason)
}

// liveSlots returns the semaphore of live streams: Jobs of them.
func (a *asrService) liveSlots() chan struct{} {
	a.liveOnce.Do(func() { a.liveSem = make(chan struct{}, a.s.o.Jobs) })
	return a.liveSem
}

// liveIdle is how long a stream may stay silent: LiveIdleTimeout, or the
// server's Options.Timeout if shorter.
func (a *asrService) liveIdle() time.Duration { return min(LiveIdleTimeout, a.s.o.Timeout) }

// serveLive runs one Vosk session and returns how to close it.
func (a *asrService) serveLive(ctx context.Context, c *websocket.Conn) (websocket.StatusCode, string) {
	st, err := stream.New(a.cfg.Model, &stream.Options{PartialLoad: stream.DefaultPartialLoad})
	if err != nil {
		return websocket.StatusInternalError, "server: " + err.Error()
	}
	rate, configured := 16000, false
	var pcm *stream.PCM
	var samples []float32
	send := func(v any) error {
		b, _ := json.Marshal(v)
		wctx, cancel := context.WithTimeout(ctx, a.liveIdle())
		defer cancel()
		return c.Write(wctx, websocket.MessageText, b)
	}
	partial := "" // the partial transcript of the utterance being spoken
	reply := func(events []stream.Event) error {
		finals := 0
		for _, e := range events {
			if !e.Final {
				partial = e.Text
				continue
			}
			partial = ""
			res := voskResult{Text: e.Text, Result: []voskWord{}}
			for _, w := range e.Words {
				res.Result = append(res.Result, voskWord{w.Word, w.Start, w.End, w.Confidence})
			}
			if err := send(res); err != nil {
				return err
			}
			finals++
		}
		if finals > 0 {
			return nil
		}
		return send(map[string]string{"partial": partial})
	}
	// A Read whose context ends drops the connection without a close
	// frame, so idleness is a timer that closes it with its reason.
	var idle atomic.Bool
	idleReason := fmt.Sprintf("idle for %v", a.liveIdle())
	timer := time.AfterFunc(a.liveIdle(), func() {
		idle.Store(true)
		c.Close(websocket.StatusPolicyViolation, idleReason)
	})
	defer timer.Stop()
	for {
		timer.Reset(a.liveIdle())
		typ, msg, err := c.Read(ctx)
		timer.Stop() // decoding is not idleness
		switch {
		case idle.Load():
			return websocket.StatusPolicyViolation, idleReason
		case websocket.CloseStatus(err) != -1:
			return websocket.StatusNormalClosure, ""
		case err != nil:
			var ce websocket.CloseError
			if errors.As(err, &ce) {
				return ce.Code, ce.Reason
			}
			return websocket.StatusMessageTooBig, "message too big or connection lost: " + err.Error()
		}
		if typ == websocket.MessageText {
			var m struct {
				Config *struct {
					SampleRate float64 `json:"sample_rate"`
				} `json:"config"`
				EOF *int `json:"eof"`
			}
			if err := json.Unmarshal(msg, &m); err != nil || (m.Config == nil && m.EOF == nil) {
				return websocket.StatusUnsupportedData, `want {"config": {"sample_rate": R}}, binary 16-bit PCM or {"eof": 1}`
			}
			if m.Config != nil {
				if configured || pcm != nil {
					return websocket.StatusUnsupportedData, "config must come once, before the audio"
				}
				rate, configured = int(m.Config.SampleRate), true
				continue
			}
			events, err := st.Close()
			if err != nil {
				return websocket.StatusInternalError, "server: " + err.Error()
			}
			for _, e := range events {
				if e.Final {
					if err := reply([]stream.Event{e}); err != nil {
						return websocket.StatusNormalClosure, ""
					}
				}
			}
			return websocket.StatusNormalClosure, ""
		}
		if pcm == nil {
			if pcm, err = stream.NewPCM(rate, 1); err != nil {
				return websocket.StatusUnsupportedData, err.Error()
			}
		}
		samples = pcm.Decode(samples[:0], msg)
		if st.Received()+time.Duration(len(samples))*time.Second/16000 > a.cfg.MaxDuration {
			return websocket.StatusMessageTooBig, fmt.Sprintf("stream longer than %v", a.cfg.MaxDuration)
		}
		events, err := st.Write(samples)
		if err != nil {
			return websocket.StatusInternalError, "server: " + err.Error()
		}
		if err := reply(events); err != nil {
			return websocket.StatusNormalClosure, ""
		}
	}
}
