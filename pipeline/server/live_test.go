package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/coder/websocket"
)

// offlineText is the text POST /v1/audio/transcriptions answers for wav.
func offlineText(t *testing.T, url string, wav []byte) string {
	t.Helper()
	body, ct := form(t, wav, "model", "whisper-1")
	code, _, data := do(t, "POST", url+"/v1/audio/transcriptions", ct, body)
	if code != 200 {
		t.Fatalf("%d %s", code, data)
	}
	var r struct{ Text string }
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r.Text
}

// TestTranscriptionSSE: stream=true answers server-sent events as
// openai-node reads them (each "data:" line a JSON object): a delta per
// chunk, adding up to the done event's text, which is the text without
// stream.
func TestTranscriptionSSE(t *testing.T) {
	ts := serve(t, newASRServer(t, Options{}))
	_, wav := helloTwice(t)
	want := offlineText(t, ts.URL, wav)
	body, ct := form(t, wav, "model", "whisper-1", "stream", "true")
	resp, err := http.Post(ts.URL+"/v1/audio/transcriptions", ct, body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if got := resp.Header.Get("Content-Type"); got != "text/event-stream" {
		t.Fatalf("content type %q", got)
	}
	// Parse as openai-node's SSEDecoder does: lines "field: value",
	// events ended by a blank line, the data JSON.
	var deltas, done []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		if field != "data" {
			t.Fatalf("line %q: want only data fields", line)
		}
		var e struct{ Type, Delta, Text string }
		if err := json.Unmarshal([]byte(value), &e); err != nil {
			t.Fatalf("data %q: %v", value, err)
		}
		switch e.Type {
		case "transcript.text.delta":
			deltas = append(deltas, e.Delta)
		case "transcript.text.done":
			done = append(done, e.Text)
		default:
			t.Fatalf("event %q", value)
		}
	}
	if len(deltas) != 2 || len(done) != 1 || strings.Join(deltas, "") != done[0] || done[0] != want {
		t.Errorf("deltas %q, done %q; want deltas adding up to %q", deltas, done, want)
	}
}

// pcm16 converts samples to 16-bit little-endian PCM.
func pcm16(x []float32) []byte {
	var b []byte
	for _, v := range x {
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(math.Round(float64(max(-1, min(v, 32767.0/32768))*32768)))))
	}
	return b
}

// helloPCM is hello.wav twice with pauses, as raw PCM, and the offline
// transcript of the same recording.
func helloPCM(t *testing.T, url string) ([]byte, string) {
	pcm, wav := helloTwice(t)
	return pcm, offlineText(t, url, wav)
}

// helloTwice is hello.wav twice with pauses, as raw PCM and as WAV.
func helloTwice(t *testing.T) (pcm, wavFile []byte) {
	t.Helper()
	sig, err := speechmodel.Load(filepath.Join("..", "..", "testdata", "hello.wav"), nil)
	if err != nil {
		t.Fatal(err)
	}
	x := append(append(append([]float32{}, sig.Samples...), make([]float32, 24000)...), sig.Samples...)
	x = append(x, make([]float32, 8000)...)
	var wav bytes.Buffer
	wav.WriteString("RIFF")
	binary.Write(&wav, binary.LittleEndian, uint32(36+2*len(x)))
	wav.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(16000), uint32(32000), uint16(2), uint16(16)} {
		binary.Write(&wav, binary.LittleEndian, v)
	}
	wav.WriteString("data")
	binary.Write(&wav, binary.LittleEndian, uint32(2*len(x)))
	pcm = pcm16(x)
	wav.Write(pcm)
	return pcm, wav.Bytes()
}

// TestLiveVosk talks Vosk's protocol to LivePath: config, PCM in pieces,
// eof. The results' texts are the offline transcript; partials come
// while it is spoken. A garbage message closes the stream with 1003 and
// a reason.
func TestLiveVosk(t *testing.T) {
	ts := serve(t, newASRServer(t, Options{}))
	pcm, want := helloPCM(t, ts.URL)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+LivePath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"config": {"sample_rate": 16000}}`)); err != nil {
		t.Fatal(err)
	}
	var texts []string
	partials := 0
	read := func() bool {
		_, msg, err := c.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) != websocket.StatusNormalClosure {
				t.Fatalf("read: %v", err)
			}
			return false
		}
		var m struct {
			Partial *string
			Text    *string
			Result  []struct {
				Word       string
				Start, End float64
				Conf       float64
			}
		}
		if err := json.Unmarshal(msg, &m); err != nil {
			t.Fatalf("%s: %v", msg, err)
		}
		if m.Partial != nil && *m.Partial != "" {
			partials++
		}
		if m.Text != nil {
			texts = append(texts, *m.Text)
			if len(m.Result) != len(strings.Fields(*m.Text)) {
				t.Errorf("result %s: words do not match the text", msg)
			}
		}
		return true
	}
	for i := 0; i < len(pcm); i += 8000 {
		if err := c.Write(ctx, websocket.MessageBinary, pcm[i:min(i+8000, len(pcm))]); err != nil {
			t.Fatal(err)
		}
		read()
	}
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"eof": 1}`)); err != nil {
		t.Fatal(err)
	}
	for read() {
	}
	if got := strings.Join(texts, " "); got != want || partials == 0 {
		t.Errorf("results %q (%d partials), want %q", texts, partials, want)
	}

	g, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+LivePath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.CloseNow()
	g.Write(ctx, websocket.MessageText, []byte(`hello?`))
	_, _, err = g.Read(ctx)
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusUnsupportedData || !strings.Contains(ce.Reason, "config") {
		t.Errorf("garbage: %v, want close 1003 saying what is wanted", err)
	}
}

// TestLiveVoskPython runs a Vosk-style client written in Python
// (websockets, Debian's python3-websockets) against the endpoint.
func TestLiveVoskPython(t *testing.T) {
	py := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} { // Debian's, where PATH has another
		if path, err := exec.LookPath(p); err == nil && exec.Command(path, "-c", "import websockets").Run() == nil {
			py = path
			break
		}
	}
	if py == "" {
		t.Skip("skipping: no python3 with websockets (apt-get install python3-websockets)")
	}
	ts := serve(t, newASRServer(t, Options{}))
	pcm, want := helloPCM(t, ts.URL)
	cmd := exec.Command(py, filepath.Join("testdata", "vosk_client.py"), "ws"+strings.TrimPrefix(ts.URL, "http")+LivePath)
	cmd.Stdin = bytes.NewReader(pcm)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("the Python client got %q, want %q", got, want)
	}
}

// TestTranscriptionSSENodeSDK transcribes with the official OpenAI Node
// SDK (npm install openai@4.104.0; NODE_PATH naming its node_modules) in
// stream mode: its text is the text without stream.
func TestTranscriptionSSENodeSDK(t *testing.T) {
	node, err := exec.LookPath("node")
	if err == nil {
		err = exec.Command(node, "-e", "require('openai')").Run()
	}
	if err != nil {
		t.Skip("skipping: no node with the openai package (npm install openai@4.104.0, NODE_PATH=…/node_modules)")
	}
	ts := serve(t, newASRServer(t, Options{}))
	wav := filepath.Join("..", "..", "testdata", "hello.wav")
	want := offlineText(t, ts.URL, readTestdata(t, "hello.wav"))
	out, err := exec.Command(node, filepath.Join("testdata", "openai_stream.cjs"), ts.URL+"/v1", wav).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("the Node SDK got %q, want %q", got, want)
	}
}

// TestLiveLimits: a second stream beyond Jobs is refused with 1013
// until the first client goes (mid-utterance, without eof: its slot is
// freed); a message over LiveMaxMessage closes with 1009; a client that
// sends nothing is closed with 1008 after the idle timeout.
func TestLiveLimits(t *testing.T) {
	ts := serve(t, newASRServer(t, Options{Jobs: 1, Timeout: 2 * time.Second}))
	url := "ws" + strings.TrimPrefix(ts.URL, "http") + LivePath
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	closeCode := func(c *websocket.Conn) (websocket.StatusCode, string) {
		for {
			if _, _, err := c.Read(ctx); err != nil {
				var ce websocket.CloseError
				if errors.As(err, &ce) {
					return ce.Code, ce.Reason
				}
				return -1, err.Error()
			}
		}
	}
	pcm, _ := helloTwice(t)
	first, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Write(ctx, websocket.MessageBinary, pcm[:len(pcm)/4]); err != nil {
		t.Fatal(err)
	}
	if _, _, err := first.Read(ctx); err != nil { // the stream is being served
		t.Fatal(err)
	}
	second, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if code, reason := closeCode(second); code != websocket.StatusTryAgainLater {
		t.Errorf("a second stream with one job: close %v %q, want 1013", code, reason)
	}
	first.CloseNow() // gone mid-utterance
	var third *websocket.Conn
	for try := 0; ; try++ { // the server notices the client went
		if third, _, err = websocket.Dial(ctx, url, nil); err != nil {
			t.Fatal(err)
		}
		if err := third.Write(ctx, websocket.MessageBinary, pcm[:3200]); err != nil {
			t.Fatal(err)
		}
		if _, _, err := third.Read(ctx); err == nil {
			break
		}
		if try == 20 {
			t.Fatal("the slot of a client gone mid-utterance was not freed")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := third.Write(ctx, websocket.MessageBinary, make([]byte, LiveMaxMessage+2)); err != nil {
		t.Fatal(err)
	}
	if code, reason := closeCode(third); code != websocket.StatusMessageTooBig {
		t.Errorf("a message over the limit: close %v %q, want 1009", code, reason)
	}
	for try := 0; ; try++ { // once the server has closed the third
		idle, _, err := websocket.Dial(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		code, reason := closeCode(idle)
		if code == websocket.StatusTryAgainLater && try < 20 {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if code != websocket.StatusPolicyViolation || !strings.Contains(reason, "idle") {
			t.Errorf("a silent client: close %v %q, want 1008 idle", code, reason)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("a silent client was closed after %v, want the 2 s timeout", d)
		}
		break
	}
}
