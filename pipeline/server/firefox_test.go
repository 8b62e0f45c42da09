package server

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The Firefox tests drive Debian's firefox-esr (apt-get install -y
// firefox-esr) over WebDriver BiDi, which Firefox serves itself: no
// geckodriver. They upload a file through the page's own input (a File
// set with DataTransfer, as a drop would), wait for the answer, focus a
// word, check the canvases and that no JavaScript error was logged, and
// check the page does not scroll sideways 390 px wide.

// firefoxPaths are where Firefox may be.
var firefoxPaths = []string{"/usr/bin/firefox-esr", "/usr/bin/firefox"}

// bidi is a WebDriver BiDi session with a headless Firefox.
type bidi struct {
	t       *testing.T
	conn    net.Conn
	r       *bufio.Reader
	next    int
	context string // the top-level browsing context
	mu      sync.Mutex
	errors  []string // JavaScript errors and console.error lines
}

// firefox starts headless Firefox for a test and opens a BiDi session,
// or skips the test where there is no Firefox.
func firefox(t *testing.T) *bidi {
	t.Helper()
	path := ""
	for _, p := range firefoxPaths {
		if _, err := os.Stat(p); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		t.Skip("skipping: no Firefox (apt-get install -y firefox-esr)")
	}
	home := t.TempDir()
	profile := filepath.Join(home, "profile")
	if err := os.MkdirAll(profile, 0o755); err != nil {
		t.Fatal(err)
	}
	// Keep Firefox off the network: only the test's loopback server.
	prefs := `user_pref("network.proxy.type", 0);
user_pref("app.update.enabled", false);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.enabled", false);
user_pref("services.settings.server", "http://127.0.0.1:9/");
user_pref("network.connectivity-service.enabled", false);
user_pref("network.captive-portal-service.enabled", false);
user_pref("media.autoplay.default", 0);
`
	if err := os.WriteFile(filepath.Join(profile, "user.js"), []byte(prefs), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, path, "--headless", "--no-remote", "--profile", profile, "--remote-debugging-port", "0", "about:blank")
	cmd.Env = append(os.Environ(), "HOME="+home, "MOZ_HEADLESS=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting Firefox: %v", err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	// Firefox says where it listens: "WebDriver BiDi listening on ws://…".
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`WebDriver BiDi listening on (ws://\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		close(found)
	}()
	var ws string
	select {
	case ws = <-found:
	case <-time.After(60 * time.Second):
	}
	if ws == "" {
		t.Fatal("Firefox did not start WebDriver BiDi")
	}
	b := &bidi{t: t}
	if err := b.dial(strings.TrimSuffix(ws, "/") + "/session"); err != nil {
		t.Fatalf("connecting to Firefox: %v", err)
	}
	t.Cleanup(func() { b.conn.Close() })
	b.call("session.new", map[string]any{"capabilities": map[string]any{}})
	b.call("session.subscribe", map[string]any{"events": []string{"log.entryAdded"}})
	var tree struct {
		Contexts []struct {
			Context string `json:"context"`
		} `json:"contexts"`
	}
	b.decode(b.call("browsingContext.getTree", map[string]any{}), &tree)
	if len(tree.Contexts) == 0 {
		t.Fatal("Firefox has no browsing context")
	}
	b.context = tree.Contexts[0].Context
	b.viewport(1000, 900)
	return b
}

// dial opens the WebSocket (RFC 6455, the client's half).
func (b *bidi) dial(ws string) error {
	u, err := url.Parse(ws)
	if err != nil {
		return err
	}
	b.conn, err = net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		return err
	}
	key := make([]byte, 16)
	_, _ = rand.Read(key)
	fmt.Fprintf(b.conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n",
		u.RequestURI(), u.Host, base64.StdEncoding.EncodeToString(key))
	b.r = bufio.NewReaderSize(b.conn, 1<<16)
	resp, err := http.ReadResponse(b.r, nil)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		return fmt.Errorf("WebSocket handshake: %s", resp.Status)
	}
	return nil
}

// send writes one masked text frame.
func (b *bidi) send(msg []byte) error {
	hdr := []byte{0x81}
	switch n := len(msg); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = binary.BigEndian.AppendUint64(append(hdr, 0x80|127), uint64(n))
	}
	mask := make([]byte, 4)
	_, _ = rand.Read(mask)
	hdr = append(hdr, mask...)
	body := make([]byte, len(msg))
	for i, c := range msg {
		body[i] = c ^ mask[i%4]
	}
	_, err := b.conn.Write(append(hdr, body...))
	return err
}

// receive reads one message, answering pings.
func (b *bidi) receive() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(b.r, h[:]); err != nil {
			return nil, err
		}
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var l [2]byte
			if _, err := io.ReadFull(b.r, l[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(l[:]))
		case 127:
			var l [8]byte
			if _, err := io.ReadFull(b.r, l[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(l[:])
		}
		var mask [4]byte
		if h[1]&0x80 != 0 {
			if _, err := io.ReadFull(b.r, mask[:]); err != nil {
				return nil, err
			}
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(b.r, payload); err != nil {
			return nil, err
		}
		if h[1]&0x80 != 0 {
			for i := range payload {
				payload[i] ^= mask[i%4]
			}
		}
		switch h[0] & 0x0f {
		case 0x8:
			return nil, io.EOF
		case 0x9: // ping: pong
			_, _ = b.conn.Write(append([]byte{0x8a, 0x80 | byte(len(payload))}, append([]byte{0, 0, 0, 0}, payload...)...))
			continue
		case 0xa:
			continue
		}
		msg = append(msg, payload...)
		if h[0]&0x80 != 0 {
			return msg, nil
		}
	}
}

// call sends a command and returns its result, noting the log events
// that come before it.
func (b *bidi) call(method string, params any) json.RawMessage {
	b.t.Helper()
	b.next++
	id := b.next
	req, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		b.t.Fatal(err)
	}
	_ = b.conn.SetDeadline(time.Now().Add(90 * time.Second))
	if err := b.send(req); err != nil {
		b.t.Fatalf("%s: %v", method, err)
	}
	for {
		data, err := b.receive()
		if err != nil {
			b.t.Fatalf("%s: %v", method, err)
		}
		var m struct {
			Type    string          `json:"type"`
			ID      int             `json:"id"`
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params"`
			Result  json.RawMessage `json:"result"`
			Error   string          `json:"error"`
			Message string          `json:"message"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			b.t.Fatalf("%s: %v", method, err)
		}
		switch {
		case m.Type == "event" && m.Method == "log.entryAdded":
			var e struct {
				Level string `json:"level"`
				Type  string `json:"type"`
				Text  string `json:"text"`
			}
			_ = json.Unmarshal(m.Params, &e)
			if e.Level == "error" {
				b.mu.Lock()
				b.errors = append(b.errors, e.Type+": "+e.Text)
				b.mu.Unlock()
			}
		case m.ID == id && m.Type == "error":
			b.t.Fatalf("%s: %s: %s", method, m.Error, m.Message)
		case m.ID == id:
			return m.Result
		}
	}
}

func (b *bidi) decode(raw json.RawMessage, v any) {
	b.t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		b.t.Fatalf("decoding %s: %v", raw, err)
	}
}

// eval evaluates a JavaScript expression (awaiting a promise) and decodes
// its value, passed as JSON.
func (b *bidi) eval(expr string, v any) {
	b.t.Helper()
	var r struct {
		Type   string `json:"type"`
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
		ExceptionDetails struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	b.decode(b.call("script.evaluate", map[string]any{
		"expression":   "(async () => JSON.stringify(await (" + expr + ")))()",
		"target":       map[string]any{"context": b.context},
		"awaitPromise": true,
	}), &r)
	if r.Type != "success" {
		b.t.Fatalf("evaluating %.200s: %s", expr, r.ExceptionDetails.Text)
	}
	if v != nil {
		b.decode(json.RawMessage(r.Result.Value), v)
	}
}

func (b *bidi) navigate(u string) {
	b.t.Helper()
	b.call("browsingContext.navigate", map[string]any{"context": b.context, "url": u, "wait": "complete"})
}

func (b *bidi) viewport(w, h int) {
	b.t.Helper()
	b.call("browsingContext.setViewport", map[string]any{"context": b.context, "viewport": map[string]any{"width": w, "height": h}})
}

// screenshot captures the whole page and checks it as screenshot does.
func (b *bidi) screenshot(name string) {
	b.t.Helper()
	var r struct {
		Data string `json:"data"`
	}
	b.decode(b.call("browsingContext.captureScreenshot", map[string]any{"context": b.context, "origin": "document"}), &r)
	data, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		b.t.Fatal(err)
	}
	checkScreenshot(b.t, data, name, 5, 8)
}

// jsErrors fails the test for the JavaScript errors Firefox logged.
func (b *bidi) jsErrors() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errors {
		b.t.Errorf("Firefox logged an error: %s", e)
	}
}

// upload gives the page's file input a file, as a user choosing it would.
func (b *bidi) upload(path string) {
	b.t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.t.Fatal(err)
	}
	b.eval(fmt.Sprintf(`(() => {
	  const bytes = Uint8Array.from(atob(%q), c => c.charCodeAt(0));
	  const dt = new DataTransfer();
	  dt.items.add(new File([bytes], %q));
	  const input = document.querySelector("#file");
	  input.files = dt.files;
	  input.dispatchEvent(new Event("change", {bubbles: true}));
	  return true;
	})()`, base64.StdEncoding.EncodeToString(data), filepath.Base(path)), nil)
}

// waitFor waits for an element to show.
func (b *bidi) waitFor(sel string) {
	b.t.Helper()
	var ok bool
	b.eval(fmt.Sprintf(`new Promise(done => {
	  const t0 = performance.now();
	  const poll = () => {
	    const e = document.querySelector(%q);
	    if (e && e.getClientRects().length) done(true);
	    else if (performance.now() - t0 > 60000) done(false);
	    else setTimeout(poll, 50);
	  };
	  poll();
	})`, sel), &ok)
	if !ok {
		var st string
		b.eval(`document.querySelector("#status")?.textContent ?? ""`, &st)
		b.t.Fatalf("%s did not show (status %q)", sel, st)
	}
}

// hover moves the mouse over an element (headless, the window has no
// focus, so focusing an element fires no focus event).
func (b *bidi) hover(sel string) {
	b.t.Helper()
	var at struct{ X, Y int }
	b.eval(fmt.Sprintf(`(() => {
	  const e = document.querySelector(%q);
	  e.scrollIntoView({block: "center"});
	  const r = e.getBoundingClientRect();
	  return {X: Math.round(r.left + r.width / 2), Y: Math.round(r.top + r.height / 2)};
	})()`, sel), &at)
	b.call("input.performActions", map[string]any{"context": b.context, "actions": []any{map[string]any{
		"type": "pointer", "id": "mouse", "parameters": map[string]any{"pointerType": "mouse"},
		"actions": []any{
			map[string]any{"type": "pointerMove", "x": 1, "y": 1},
			map[string]any{"type": "pointerMove", "x": at.X, "y": at.Y, "duration": 50},
		},
	}}})
}

// phoneWidth checks the page does not scroll sideways 390 px wide.
func (b *bidi) phoneWidth() {
	b.t.Helper()
	b.viewport(phoneWidth, phoneHeight)
	b.eval(`new Promise(done => setTimeout(() => done(true), 300))`, nil) // the pages redraw 100 ms after a resize
	var o overflowed
	b.eval(overflow, &o)
	if o.Inner != phoneWidth || o.Scroll > o.Inner || len(o.Out) > 0 {
		b.t.Errorf("Firefox at %d px: innerWidth %d, scrollWidth %d; sticking out: %q", phoneWidth, o.Inner, o.Scroll, o.Out)
	}
}

func TestFirefoxASRPage(t *testing.T) {
	b := firefox(t)
	ts := serve(t, newASRServer(t, Options{Jobs: 1}))
	b.navigate(ts.URL + "/")
	b.upload(filepath.Join(repoRoot, "testdata", "hello.wav"))
	b.waitFor("#transcript .word")
	b.waitFor("#figures canvas")
	var words []string
	b.eval(`[...document.querySelectorAll("#transcript .word")].map(b => b.firstChild.textContent)`, &words)
	if len(words) < 2 {
		t.Fatalf("words %q", words)
	}
	b.hover("#transcript .word:nth-child(2)")
	var state map[string]string
	b.eval(`({
	  active: document.querySelector("#transcript .word.active")?.firstChild.textContent ?? "",
	  highlight: document.querySelector("#figures canvas").dataset.highlight ?? "",
	  info: document.querySelector("#info").textContent,
	})`, &state)
	t.Logf("Firefox: words %q, %v", words, state)
	if state["active"] != words[1] || state["highlight"] == "" || !strings.Contains(state["info"], words[1]) {
		t.Errorf("after focusing %q: %v", words[1], state)
	}
	var c ink
	b.eval(canvasInk+`("#figures canvas")`, &c)
	if c.Ink < 0.3 || c.Colors < 20 {
		t.Errorf("the alignment canvas looks blank in Firefox: %+v", c)
	}
	b.screenshot("firefox-asr.png")
	b.phoneWidth()
	b.screenshot("firefox-asr-phone.png")
	b.jsErrors()
}

func TestFirefoxCaptionPage(t *testing.T) {
	b := firefox(t)
	ts := serve(t, newCaptionServer(t, Options{Jobs: 1}))
	b.navigate(ts.URL + "/")
	b.upload(filepath.Join(repoRoot, "testdata", "photos", "chelsea.jpg"))
	b.waitFor("#caption .word")
	var words []string
	b.eval(`[...document.querySelectorAll("#caption .word")].map(b => b.firstChild.textContent)`, &words)
	if len(words) < 2 {
		t.Fatalf("words %q", words)
	}
	b.hover("#caption .word:nth-child(2)")
	var state map[string]string
	b.eval(`({
	  active: document.querySelector("#caption .word.active")?.firstChild.textContent ?? "",
	  info: document.querySelector("#info").textContent,
	})`, &state)
	t.Logf("Firefox: words %q, %v", words, state)
	if state["active"] != words[1] || !strings.Contains(state["info"], "β =") {
		t.Errorf("after focusing %q: %v", words[1], state)
	}
	var c ink
	b.eval(canvasInk+`("#photo")`, &c)
	if c.Ink < 0.5 || c.Colors < 50 {
		t.Errorf("the heatmap canvas looks blank in Firefox: %+v", c)
	}
	b.screenshot("firefox-caption.png")
	b.phoneWidth()
	b.screenshot("firefox-caption-phone.png")
	b.jsErrors()
}
