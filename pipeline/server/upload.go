package server

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
)

// Limits of the form fields beside the file: enough for every parameter
// of the APIs, too little to cost memory.
const (
	maxFields     = 32
	maxFieldBytes = 1 << 10
)

// upload is a request's file and parameters. The file is held in memory
// (up to Options.MaxBytes) and never touches the server's disk; its name
// is the client's and only shown back.
type upload struct {
	data   []byte
	name   string
	fields url.Values
}

// get returns the value of the parameter name ("" when absent).
func (u *upload) get(name string) string { return u.fields.Get(name) }

// readUpload reads a request's file and parameters, with the body
// bounded to maxBytes: multipart/form-data with the file in the part
// named "file" (and the other parts as parameters), or, with raw, a body
// that is the file itself (any other media type), its parameters in the
// query string. Errors are APIErrors: 413 over maxBytes, 415 for a media
// type that cannot carry a file, 400 for the rest.
func readUpload(w http.ResponseWriter, r *http.Request, maxBytes int64, raw bool) (*upload, error) {
	r.Body = http.MaxBytesReader(w, r.Body, maxBytes)
	u := &upload{fields: url.Values{}}
	if q, err := url.ParseQuery(r.URL.RawQuery); err == nil {
		u.fields = q
	} else {
		return nil, badRequest("", "bad query string: %v", err)
	}
	ct := r.Header.Get("Content-Type")
	mediaType, params, err := mime.ParseMediaType(ct)
	switch {
	case ct == "" && raw:
		mediaType = "application/octet-stream"
	case ct == "":
		return nil, &APIError{Status: http.StatusUnsupportedMediaType, Type: typeInvalid,
			Message: "no Content-Type: send multipart/form-data with the audio in the part \"file\""}
	case err != nil:
		return nil, &APIError{Status: http.StatusUnsupportedMediaType, Type: typeInvalid, Message: "bad Content-Type: " + err.Error()}
	}
	switch {
	case mediaType == "multipart/form-data":
		if err := u.readMultipart(r.Body, params["boundary"]); err != nil {
			return nil, err
		}
	case mediaType == "application/x-www-form-urlencoded", strings.HasPrefix(mediaType, "multipart/"), strings.HasPrefix(mediaType, "text/"):
		return nil, &APIError{Status: http.StatusUnsupportedMediaType, Type: typeInvalid,
			Message: "Content-Type " + mediaType + " carries no file: send multipart/form-data with the part \"file\""}
	case raw:
		if u.data, err = io.ReadAll(r.Body); err != nil {
			return nil, readError(err)
		}
	default:
		return nil, &APIError{Status: http.StatusUnsupportedMediaType, Type: typeInvalid,
			Message: "Content-Type " + mediaType + ": send multipart/form-data with the file in the part \"file\""}
	}
	if len(u.data) == 0 {
		return nil, badRequest("file", "no file: send it in the multipart part \"file\"")
	}
	return u, nil
}

// readMultipart reads the parts of a multipart/form-data body: "file"
// is the file, every other part a parameter of at most maxFieldBytes.
func (u *upload) readMultipart(body io.Reader, boundary string) error {
	if boundary == "" {
		return badRequest("", "multipart/form-data without a boundary")
	}
	mr := multipart.NewReader(body, boundary)
	fields, haveFile := 0, false
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return readError(err)
		}
		name := p.FormName()
		switch {
		case name == "file":
			if haveFile {
				return badRequest("file", "more than one part named \"file\"")
			}
			haveFile = true
			if u.data, err = io.ReadAll(p); err != nil {
				return readError(err)
			}
			u.name = p.FileName()
		case name == "":
			return badRequest("", "a multipart part without a form name")
		default:
			if fields++; fields > maxFields {
				return badRequest("", "more than %d form fields", maxFields)
			}
			v, err := io.ReadAll(io.LimitReader(p, maxFieldBytes+1))
			if err != nil {
				return readError(err)
			}
			if len(v) > maxFieldBytes {
				return badRequest(name, "form field %q is over %d bytes", name, maxFieldBytes)
			}
			u.fields[name] = append(u.fields[name], string(v)) // form fields come after the query's
		}
	}
}

// readError is the APIError of a failed body read: 413 past the limit,
// 408 for a body too slow (rateReader), 400 for a malformed body.
func readError(err error) error {
	var tooBig *http.MaxBytesError
	var api *APIError
	if errors.As(err, &tooBig) || errors.As(err, &api) {
		return classify(err)
	}
	return badRequest("", "reading the request body: %v", err)
}
