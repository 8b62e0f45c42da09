package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/vision"
)

// Error types of the JSON error body, as OpenAI's API names them where
// it has a name for the case.
const (
	typeInvalid  = "invalid_request_error" // 400, 413, 415: fix the request
	typeBusy     = "server_busy"           // 429 queue full, 503 shutting down or waited too long
	typeTimeout  = "timeout"               // 503: the work took longer than the request timeout
	typeNotFound = "not_found_error"       // 404, 405
	typeInternal = "server_error"          // 500: a bug or a broken model
)

// APIError is an error answered to a client: an HTTP status and the body
// {"error": {"message", "type", "param", "code"}} of OpenAI's API, so
// its client libraries raise their usual exceptions.
type APIError struct {
	Status  int    `json:"-"`
	Message string `json:"message"`
	Type    string `json:"type"`
	Param   string `json:"param,omitempty"`
	Code    string `json:"code,omitempty"`
}

func (e *APIError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Type, e.Message) }

// badRequest is a 400 about the request parameter param ("" for none).
func badRequest(param, format string, args ...any) *APIError {
	return &APIError{Status: http.StatusBadRequest, Type: typeInvalid, Param: param, Message: fmt.Sprintf(format, args...)}
}

// classify turns an error from reading, decoding or the models into the
// APIError answered for it: bad or oversized media are the client's
// fault (400, 413, 415), anything else is the server's (500).
func classify(err error) *APIError {
	var api *APIError
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &api):
		return api
	case errors.As(err, &tooBig):
		return &APIError{Status: http.StatusRequestEntityTooLarge, Type: typeInvalid, Code: "file_too_large",
			Message: fmt.Sprintf("the request body is over the limit of %d bytes", tooBig.Limit)}
	case errors.Is(err, audio.ErrTooLong), errors.Is(err, vision.ErrTooLarge):
		return &APIError{Status: http.StatusRequestEntityTooLarge, Type: typeInvalid, Param: "file", Code: "media_too_large", Message: err.Error()}
	case errors.Is(err, audio.ErrFormat), errors.Is(err, vision.ErrFormat):
		return &APIError{Status: http.StatusUnsupportedMediaType, Type: typeInvalid, Param: "file", Code: "unsupported_media", Message: err.Error()}
	case errors.Is(err, audio.ErrNoAudio), errors.Is(err, vision.ErrDimensions), errors.Is(err, vision.ErrCorrupt):
		return &APIError{Status: http.StatusBadRequest, Type: typeInvalid, Param: "file", Code: "invalid_media", Message: err.Error()}
	case errors.Is(err, errTimeout):
		return &APIError{Status: http.StatusServiceUnavailable, Type: typeTimeout, Message: err.Error()}
	}
	return &APIError{Status: http.StatusInternalServerError, Type: typeInternal, Message: err.Error()}
}

// writeError answers err as JSON with its status.
func writeError(w http.ResponseWriter, err error) {
	e := classify(err)
	if e.Status == http.StatusTooManyRequests || e.Status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, e.Status, struct {
		Error *APIError `json:"error"`
	}{e})
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		data = []byte(`{"error":{"message":"encoding the answer failed","type":"server_error"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(data, '\n'))
}
