package batch

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

// readList reads the paths of a list file ("-": stdin): one per line, or
// NUL-separated when the data holds a NUL byte (find -print0, which
// allows any file name). A trailing CR is dropped from lines; blank
// entries are skipped.
func readList(name string, stdin io.Reader) ([]string, error) {
	var data []byte
	var err error
	if name == "-" {
		if stdin == nil {
			return nil, fmt.Errorf("batch: reading the list from standard input: no standard input")
		}
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, fmt.Errorf("batch: reading the list %s: %w", listName(name), err)
	}
	sep, trimCR := []byte{'\n'}, true
	if bytes.IndexByte(data, 0) >= 0 {
		sep, trimCR = []byte{0}, false
	}
	var paths []string
	for _, f := range bytes.Split(data, sep) {
		s := string(f)
		if trimCR {
			s = strings.TrimSuffix(s, "\r")
		}
		if s != "" {
			paths = append(paths, s)
		}
	}
	return paths, nil
}

func listName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}
