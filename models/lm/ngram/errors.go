package ngram

import (
	"errors"
	"fmt"
)

// ErrFormat is wrapped by every error about a malformed ARPA file.
var ErrFormat = errors.New("ngram: malformed ARPA file")

// A SyntaxError reports what is wrong with an ARPA file and where. It
// wraps ErrFormat.
type SyntaxError struct {
	File string // the file name, or "" for Read
	Line int    // 1-based line number; 0 where no line is to blame
	Msg  string
}

func (e *SyntaxError) Error() string {
	where := e.File
	if e.Line > 0 {
		if where != "" {
			where += ":"
		}
		where += fmt.Sprintf("line %d", e.Line)
	}
	if where == "" {
		return "ngram: " + e.Msg
	}
	return "ngram: " + where + ": " + e.Msg
}

func (e *SyntaxError) Unwrap() error { return ErrFormat }

// syntaxf returns a *SyntaxError for line.
func syntaxf(line int, format string, args ...any) error {
	return &SyntaxError{Line: line, Msg: fmt.Sprintf(format, args...)}
}
