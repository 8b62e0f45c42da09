package captiondata

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// decodeJSON unmarshals data into v, turning the decoder's byte offsets
// into line and column numbers a person can find.
func decodeJSON(data []byte, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		// Offset counts the bytes read, the offending one included.
		return fmt.Errorf("invalid JSON at %s: %v", position(data, syntax.Offset-1), syntax)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "top level"
		}
		return fmt.Errorf("%s at %s: want %v, got a JSON %s", field, position(data, typ.Offset), typ.Type, typ.Value)
	}
	return err
}

// position renders a byte offset into data as "line L, column C".
func position(data []byte, offset int64) string {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}
