package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
)

// JSONUsage is the help text of every command's -json flag.
const JSONUsage = "print the result as one JSON object (JSON Lines for several)"

// JSONFlag defines the -json flag in fs, with the help text all commands
// share: with it, a command prints its result to stdout with WriteJSON
// instead of as text, and its progress and logs still go to stderr.
func JSONFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("json", false, JSONUsage)
}

// WriteJSON writes v to w as one line of JSON, a JSON Lines record:
// compact, ended by a newline, with <, > and & left as they are (the
// output is for programs, not for HTML), as batch records are written.
// It fails for a value JSON cannot hold, such as a NaN or an infinite
// float.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("writing the JSON result: %w", err)
	}
	return nil
}
