package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLoad sends concurrent requests, good and bad, to an asr server on
// the loopback interface: nothing may crash, every good request must get
// the transcript a lone request gets (or, were the queue full, 429),
// every bad one a 4xx, and the heap must stay bounded. It logs requests/s
// and the p50/p95 latency of the good requests. Bounded: loadRequests
// requests, loadTime at most.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the load test in -short mode")
	}
	const (
		loadRequests = 120
		clients      = 8
		loadTime     = 90 * time.Second
	)
	s := newASRServer(t, Options{Jobs: runtime.GOMAXPROCS(0), MaxBytes: 1 << 20})
	ts := serve(t, s)
	wav := readTestdata(t, "hello.wav")
	want := transcribeOnce(t, ts.URL, wav)

	bad := [][]byte{[]byte("not audio at all"), wav[:30], append([]byte("RIFF"), bytes.Repeat([]byte{0xff}, 2000)...), make([]byte, 2<<20)}
	type result struct {
		good    bool
		status  int
		text    string
		latency time.Duration
	}
	results := make([]result, loadRequests)
	var next atomic.Int64
	var peakHeap atomic.Uint64
	ctx, cancel := context.WithTimeout(context.Background(), loadTime)
	defer cancel()
	stopSampling := make(chan struct{})
	go func() { // sample the heap while the load runs
		var m runtime.MemStats
		for {
			select {
			case <-stopSampling:
				return
			case <-time.After(20 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peakHeap.Load() {
				peakHeap.Store(m.HeapAlloc)
			}
		}
	}()
	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= loadRequests {
					return
				}
				good := i%4 != 3 // a quarter bad
				file := wav
				if !good {
					file = bad[(i/4)%len(bad)]
				}
				body, ct := form(t, file, "response_format", "json")
				req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/audio/transcriptions", body)
				req.Header.Set("Content-Type", ct)
				t0 := time.Now()
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					results[i] = result{good: good, status: -1, text: err.Error()}
					continue
				}
				data, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				var v struct{ Text string }
				json.Unmarshal(data, &v)
				results[i] = result{good: good, status: resp.StatusCode, text: v.Text, latency: time.Since(t0)}
				if resp.StatusCode != 200 {
					results[i].text = string(data)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(stopSampling)
	var lat []time.Duration
	done, busy := 0, 0
	for i, r := range results {
		switch {
		case r.status == 0:
			continue // not sent within loadTime
		case r.good && r.status == 200:
			if r.text != want {
				t.Errorf("request %d: %q, want %q", i, r.text, want)
			}
			lat = append(lat, r.latency)
		case r.good && r.status == http.StatusTooManyRequests:
			busy++
		case r.good:
			t.Errorf("good request %d: status %d: %s", i, r.status, r.text)
		case r.status < 400 || r.status >= 500:
			t.Errorf("bad request %d: status %d: %s", i, r.status, r.text)
		}
		done++
	}
	if done < loadRequests/2 || len(lat) == 0 {
		t.Fatalf("only %d of %d requests done in %v", done, loadRequests, loadTime)
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	t.Logf("%d requests (%d good answered, %d 429) by %d clients in %v: %.1f requests/s; good p50 %v, p95 %v; heap peak %d MiB, after %d MiB; %d jobs, GOMAXPROCS %d",
		done, len(lat), busy, clients, elapsed.Round(time.Millisecond), float64(done)/elapsed.Seconds(),
		pct(0.50).Round(time.Millisecond), pct(0.95).Round(time.Millisecond), peakHeap.Load()>>20, m.HeapAlloc>>20, s.o.Jobs, runtime.GOMAXPROCS(0))
	// Each request in the server holds at most its 1 MiB body, its
	// decoded audio and a transcriber's buffers: a few MiB per request
	// admitted, well under this bound whatever the load.
	if peak := peakHeap.Load(); peak > 1<<30 {
		t.Errorf("heap peaked at %d MiB", peak>>20)
	}
	if n := len(s.admitted); n != 0 {
		t.Errorf("%d requests still admitted after the load", n)
	}
}

// transcribeOnce transcribes wav alone, for the expected text.
func transcribeOnce(t *testing.T, url string, wav []byte) string {
	body, ct := form(t, wav)
	status, _, data := do(t, "POST", url+"/v1/audio/transcriptions", ct, body)
	var v struct{ Text string }
	if status != 200 || json.Unmarshal(data, &v) != nil || v.Text == "" {
		t.Fatalf("a lone request: %d %s", status, data)
	}
	return v.Text
}
