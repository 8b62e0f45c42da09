package captiondata

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/attend-go/attend/models/safetensors"
)

// The cache file: a safetensors file (see the package documentation).
const (
	cacheKind    = "caption-features"
	cacheVersion = 1

	featuresTensor = "features" // F16 [N, L, D]
	checksumTensor = "checksum" // U32 [N]: CRC-32C of each record's bytes
	completeTensor = "complete" // U8 [N]: 1 once a record is written

	metaKind      = "attend.kind"
	metaVersion   = "attend.format_version"
	metaEncoder   = "attend.encoder_sha256"
	metaLayer     = "attend.layer"
	metaGrid      = "attend.grid"
	metaPreproc   = "attend.preprocess"
	metaSource    = "attend.source"
	metaIDs       = "attend.ids"
	halfBytes     = 2
	checksumBytes = 4
)

// layout is what a cache header says, and where the parts of the data are
// in the file (absolute offsets).
type layout struct {
	spec   Spec
	ids    []string
	source string

	recordBytes int64 // one image's features: L·D halves
	features    int64 // N records
	checksums   int64 // N little-endian uint32
	complete    int64 // N bytes
	size        int64 // the whole file
}

// n is the number of records.
func (l *layout) n() int { return len(l.ids) }

// recordOffset returns where record i starts.
func (l *layout) recordOffset(i int) int64 { return l.features + int64(i)*l.recordBytes }

// tensorEntry is one tensor of a safetensors header.
type tensorEntry struct {
	DType       string   `json:"dtype"`
	Shape       []int64  `json:"shape"`
	DataOffsets [2]int64 `json:"data_offsets"`
}

// newLayout returns the layout of a new cache and its first bytes: the
// safetensors length prefix and JSON header, padded with spaces to a
// multiple of 8 bytes as the reference writer does.
func newLayout(spec Spec, ids []string, source string) (*layout, []byte, error) {
	if err := spec.validate(); err != nil {
		return nil, nil, err
	}
	if err := checkIDs(ids); err != nil {
		return nil, nil, err
	}
	idsJSON, err := json.Marshal(ids)
	if err != nil {
		return nil, nil, err
	}
	n := int64(len(ids))
	rec := int64(spec.Values()) * halfBytes
	featEnd := n * rec
	sumEnd := featEnd + n*checksumBytes
	doneEnd := sumEnd + n
	h := struct {
		Metadata map[string]string `json:"__metadata__"`
		Features tensorEntry       `json:"features"`
		Checksum tensorEntry       `json:"checksum"`
		Complete tensorEntry       `json:"complete"`
	}{
		Metadata: map[string]string{
			metaKind:    cacheKind,
			metaVersion: strconv.Itoa(cacheVersion),
			metaEncoder: spec.Encoder,
			metaLayer:   spec.Layer,
			metaGrid:    spec.GridString(),
			metaPreproc: spec.Preprocess,
			metaSource:  source,
			metaIDs:     string(idsJSON),
		},
		Features: tensorEntry{"F16", []int64{n, int64(spec.Regions()), int64(spec.D)}, [2]int64{0, featEnd}},
		Checksum: tensorEntry{"U32", []int64{n}, [2]int64{featEnd, sumEnd}},
		Complete: tensorEntry{"U8", []int64{n}, [2]int64{sumEnd, doneEnd}},
	}
	header, err := json.Marshal(h)
	if err != nil {
		return nil, nil, err
	}
	if pad := len(header) % 8; pad != 0 {
		header = append(header, bytes.Repeat([]byte(" "), 8-pad)...)
	}
	head := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	head = append(head, header...)
	data := int64(len(head))
	return &layout{
		spec: spec, ids: ids, source: source,
		recordBytes: rec,
		features:    data,
		checksums:   data + featEnd,
		complete:    data + sumEnd,
		size:        data + doneEnd,
	}, head, nil
}

// readLayout reads and validates the header of the cache file r of the
// given size. path names the file in errors.
func readLayout(r io.ReaderAt, size int64, path string) (*layout, error) {
	st, err := safetensors.NewReader(r, size)
	if err != nil {
		return nil, causef(ErrCache, err, path, "not a feature cache: %v", err)
	}
	bad := func(format string, args ...any) error {
		return errorf(ErrCache, path, "not a valid feature cache: "+format, args...)
	}
	meta := st.Metadata()
	switch kind := meta[metaKind]; {
	case kind == "":
		return nil, bad("no %s in the header (a safetensors file, but not one this package wrote)", metaKind)
	case kind != cacheKind:
		return nil, bad("%s is %q, want %q", metaKind, clip(kind), cacheKind)
	}
	switch v, err := strconv.Atoi(meta[metaVersion]); {
	case err != nil:
		return nil, bad("%s %q is not a number", metaVersion, clip(meta[metaVersion]))
	case v > cacheVersion:
		return nil, bad("format version %d is newer than this build reads (%d)", v, cacheVersion)
	case v < 1:
		return nil, bad("format version %d", v)
	}
	spec := Spec{Encoder: meta[metaEncoder], Layer: meta[metaLayer], Preprocess: meta[metaPreproc]}
	if spec.H, spec.W, spec.D, err = parseGrid(meta[metaGrid]); err != nil {
		return nil, bad("%s: %v", metaGrid, err)
	}
	if err := spec.validate(); err != nil {
		return nil, bad("%v", err)
	}
	var ids []string
	if err := json.Unmarshal([]byte(meta[metaIDs]), &ids); err != nil {
		return nil, bad("%s is not a JSON list of strings: %v", metaIDs, err)
	}
	if err := checkIDs(ids); err != nil {
		return nil, bad("%s: %v", metaIDs, err)
	}
	n := len(ids)
	var prefix [8]byte
	if _, err := r.ReadAt(prefix[:], 0); err != nil {
		return nil, fmt.Errorf("captiondata: %s: %w", path, err)
	}
	data := 8 + int64(binary.LittleEndian.Uint64(prefix[:]))
	l := &layout{spec: spec, ids: ids, source: meta[metaSource], recordBytes: int64(spec.Values()) * halfBytes, size: size}
	for _, want := range []struct {
		name  string
		dtype safetensors.DType
		shape []int
		at    *int64
	}{
		{featuresTensor, safetensors.F16, []int{n, spec.Regions(), spec.D}, &l.features},
		{checksumTensor, "U32", []int{n}, &l.checksums},
		{completeTensor, "U8", []int{n}, &l.complete},
	} {
		t, ok := st.Info(want.name)
		switch {
		case !ok:
			return nil, bad("no %q tensor", want.name)
		case t.DType != want.dtype || !equalInts(t.Shape, want.shape):
			return nil, bad("tensor %q is %s %v, want %s %v (grid %s, %d images)",
				want.name, t.DType, t.Shape, want.dtype, want.shape, spec.GridString(), n)
		}
		*want.at = data + t.Begin
	}
	if len(st.Tensors()) != 3 {
		return nil, bad("%d tensors, want %s, %s and %s", len(st.Tensors()), featuresTensor, checksumTensor, completeTensor)
	}
	return l, nil
}

// parseGrid parses "HxWxD".
func parseGrid(s string) (h, w, d int, err error) {
	parts := strings.Split(s, "x")
	if len(parts) != 3 {
		return 0, 0, 0, fmt.Errorf("%q is not HxWxD", clip(s))
	}
	var v [3]int
	for i, p := range parts {
		if v[i], err = strconv.Atoi(p); err != nil {
			return 0, 0, 0, fmt.Errorf("%q is not HxWxD", clip(s))
		}
	}
	return v[0], v[1], v[2], nil
}

// checkIDs requires at least one ID, none empty and none twice.
func checkIDs(ids []string) error {
	if len(ids) == 0 {
		return fmt.Errorf("no images")
	}
	seen := make(map[string]bool, len(ids))
	for i, id := range ids {
		if id == "" {
			return fmt.Errorf("image %d has an empty ID", i)
		}
		if seen[id] {
			return fmt.Errorf("image ID %q appears twice", clip(id))
		}
		seen[id] = true
	}
	return nil
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
