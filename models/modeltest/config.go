package modeltest

import (
	"encoding/json"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// EditConfig returns a file edit for load-error tables: it decodes the
// file's JSON config into a map, applies edit and encodes it back, so a
// test can make a config that lies (a negative size, an unknown field)
// without a model that could hold it.
func EditConfig(t testing.TB, edit func(map[string]any)) func(*safetensors.File) {
	return func(f *safetensors.File) {
		var c map[string]any
		if err := json.Unmarshal(f.Config, &c); err != nil {
			t.Fatal(err)
		}
		edit(c)
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		f.Config = b
	}
}
