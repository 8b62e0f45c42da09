package server

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzReadUpload feeds request parsing arbitrary bodies, content types
// and query strings: it must never panic, never hold more than the limit,
// and answer an APIError with a client status for whatever it refuses.
func FuzzReadUpload(f *testing.F) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	fw, _ := w.CreateFormFile("file", "a.wav")
	fw.Write([]byte("RIFF\x24\x00\x00\x00WAVEfmt "))
	w.WriteField("response_format", "verbose_json")
	w.WriteField("timestamp_granularities[]", "word")
	w.Close()
	f.Add(b.Bytes(), w.FormDataContentType(), "")
	f.Add([]byte("\x89PNG\r\n\x1a\n"), "image/png", "beam=2&alternatives=1")
	f.Add([]byte("--x\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc\r\n--x--\r\n"), "multipart/form-data; boundary=x", "")
	f.Add([]byte("--x\r\nContent-Disposition: form-data; name=\"beam\"\r\n\r\n99\r\n--x--\r\n"), "multipart/form-data; boundary=x", "response_format=srt")
	f.Add([]byte(""), "multipart/form-data", "")
	f.Add([]byte("file=x"), "application/x-www-form-urlencoded", "%zz")
	f.Add(bytes.Repeat([]byte("a"), 5000), "", "timestamp_granularities=word,segment")
	const limit = 4 << 10
	f.Fuzz(func(t *testing.T, body []byte, contentType, query string) {
		for _, raw := range []bool{false, true} {
			r := httptest.NewRequest("POST", "/v1/captions", bytes.NewReader(body))
			r.URL.RawQuery = query
			if contentType != "" {
				r.Header.Set("Content-Type", contentType)
			}
			u, err := readUpload(httptest.NewRecorder(), r, limit, raw)
			if err != nil {
				if e := classify(err); e.Status < 400 || e.Status >= 500 {
					t.Fatalf("refused with %d: %v", e.Status, err)
				}
				continue
			}
			if len(u.data) == 0 || len(u.data) > limit {
				t.Fatalf("accepted a file of %d bytes (limit %d)", len(u.data), limit)
			}
			// The parameters parse or are refused as the client's fault.
			if _, err := parseASRFields(u, "json"); err != nil && classify(err).Status != http.StatusBadRequest {
				t.Fatalf("asr fields: %v", err)
			}
			if _, err := parseCaptionFields(u, 3); err != nil && classify(err).Status != http.StatusBadRequest {
				t.Fatalf("caption fields: %v", err)
			}
		}
	})
}
