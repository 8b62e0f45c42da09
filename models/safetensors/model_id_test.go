package safetensors

import "testing"

func TestModelID(t *testing.T) {
	tests := []struct {
		name string
		file []byte
		want string
	}{
		// sha256("") = e3b0c44298fc1c149afbf4c8996fb924…
		{"empty", nil, "empty@sha256:e3b0c44298fc"},
		// sha256("abc") = ba7816bf8f01cfea414140de5dae2223…
		{"m", []byte("abc"), "m@sha256:ba7816bf8f01"},
	}
	for _, tc := range tests {
		if got := ModelID(tc.name, tc.file); got != tc.want {
			t.Errorf("ModelID(%q, %q) = %q, want %q", tc.name, tc.file, got, tc.want)
		}
	}
}
