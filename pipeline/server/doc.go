// Package server is the HTTP server of "asr serve" and "caption serve":
// a JSON API that existing clients already speak, and a page, embedded in
// the binary, that makes the attention figures interactive.
//
// # Speech (NewASR)
//
//	POST /v1/audio/transcriptions   OpenAI's transcription API
//	POST /inference                 whisper.cpp's server endpoint
//
// Both take multipart/form-data with the audio (WAV, FLAC, OGG Vorbis or
// MP3, recognized by content) in the part "file", and response_format:
// json ({"text": …}, the default), text, srt, vtt or verbose_json.
// verbose_json is OpenAI's (task, language, duration, text, segments,
// and words when timestamp_granularities[] includes word), each word
// with attend's confidence and each segment with its chunk's
// no_speech_prob (the voice activity detector's; a chunk without speech
// has no segment), plus "attend": per chunk whether it holds speech, the
// characters spelled, the alignment (characters × encoder frames: the
// attention, or after a CTC fallback the CTC posteriors, as
// alignment_source says) and the log-mel spectrogram, quantized to bytes
// and base64-encoded (see VerboseAttend; include_attention=false leaves
// them out). model,
// prompt and temperature are accepted and ignored; language must be
// English if given.
//
// # Images (NewCaption)
//
//	POST /v1/captions
//
// takes an image (JPEG, PNG, GIF, WebP, BMP…) in the multipart part
// "file" or as the whole body, beam (1..MaxBeam) and alternatives, and
// answers CaptionAnswer: the caption, the beam's alternatives, and per
// word the attention grid (7×7 for the default model), the gate β and,
// for a model with adaptive attention, the sentinel weight.
//
// # Both
//
//	GET /                the page (web/: plain HTML, CSS and JavaScript)
//	GET /healthz         {"status": "ok", …, "working", "waiting"}
//	GET /v1/models       OpenAI's model list
//	GET /v1/colormaps    vision's colormap tables, for the page
//
// Errors are OpenAI's JSON {"error": {"message", "type", "param",
// "code"}} with the status that says whose fault it is: 400 a bad
// parameter or undecodable media, 413 a body over Options.MaxBytes, audio
// over ASRConfig.MaxDuration or an image over CaptionConfig.MaxPixels,
// 415 a body that is no multipart form (or, for images, not an image),
// 401 without the API key, 403 from another origin's page, 408 a body
// too slow, 429 when the queue is full, 503 when a request waited or worked past
// Options.Timeout.
//
// # Safety
//
// No request names a file on the server: uploads are read into memory,
// bounded by Options.MaxBytes, and never written to disk. Options.Jobs
// requests are worked on at once (a Transcriber each; captions share the
// encoder, which encodes one image at a time), Options.Queue more wait,
// and the rest are refused with 429.
//
// A request's body is read before the request queues for a worker, so a
// slow upload holds no worker's place: it must arrive at Options.MinRate
// or faster once Options.RateGrace has passed (else 408), at most
// Options.Uploads bodies are read at once, and one client address may
// have at most Options.PerClient requests in the server (else 429), so
// that neither a few slow uploads nor one greedy address lock the others
// out.
//
// A browser's request from a page of another origin (a simple
// cross-origin POST needs no preflight) is refused with 403 unless
// Options.AllowOrigins lists the origin, which then gets CORS answers.
// With Options.APIKey the API endpoints need "Authorization: Bearer
// KEY", as OpenAI's clients send it (401 otherwise); the page, its
// assets and /healthz stay open, and the page asks for the key. /static/
// serves files only, never a folder's listing.
//
// ListenAndServe shuts down gracefully when its context ends, finishing
// the requests in flight (Abort cuts that short); when it listens on a
// loopback address it answers only requests whose Host is a loopback
// name, so that a web page cannot reach it through DNS rebinding.
package server
