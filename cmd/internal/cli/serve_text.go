package cli

// ServeGuards is the paragraph of "asr serve -h" and "caption serve -h"
// on what keeps strangers from blocking or borrowing a server (Serve's
// flags and pipeline/server's guards).
const ServeGuards = `A request's body is read before it queues for the model, at 16 KiB/s
or faster once 10 s have passed (else 408), and one client address may
have at most half of the requests the server takes (else 429). A page
of another origin may not call the server (403) unless -allow-origin
lists it. With -api-key, or $` + APIKeyEnv + `, the API (not the page)
needs the header "Authorization: Bearer KEY", as OpenAI's clients send
it; the page asks for the key. Listening beyond loopback without a key
prints a warning.
`
