package vision

import (
	"encoding/binary"
	"errors"
	"testing"
)

// FuzzReadTFLite feeds arbitrary bytes to the model reader and, when they
// parse, to the graph compiler and one forward pass: none may panic, and
// every error must wrap ErrModel or ErrUnsupported. The seeds are the tiny
// test model (about 6 KB), pieces of it and small damaged variants.
func FuzzReadTFLite(f *testing.F) {
	good := newTinyNet(1).model.flatbuffer()
	f.Add(good)
	for _, n := range []int{8, 64, len(good) / 2, len(good) - 1} {
		f.Add(good[:n])
	}
	for _, off := range []int{0, 16, 40, 200, 1000} {
		b := append([]byte(nil), good...)
		binary.LittleEndian.PutUint32(b[off:], 0xfffffff0)
		f.Add(b)
	}
	f.Add([]byte("\x08\x00\x00\x00TFL3\x04\x00\x04\x00\x04\x00\x00\x00"))
	f.Add(flatbuffer(fbTable{uint32(3), []fbTable{{int8(3)}}, []fbTable{{}}}, "TFL3"))

	// Keep the activations and work of a parsed graph small, so that a
	// few bytes claiming a huge image fail fast instead of allocating and
	// computing.
	savedFloats, savedMACs := maxActivationFloats, maxMACs
	maxActivationFloats, maxMACs = 1<<14, 1<<22
	defer func() { maxActivationFloats, maxMACs = savedFloats, savedMACs }()

	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := readTFLite(data)
		if err != nil {
			if !errors.Is(err, ErrModel) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("readTFLite error wraps neither ErrModel nor ErrUnsupported: %v", err)
			}
			return
		}
		net, err := compile(m)
		if err != nil {
			if !errors.Is(err, ErrModel) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("compile error wraps neither ErrModel nor ErrUnsupported: %v", err)
			}
			return
		}
		s := newState(net, 1)
		for _, l := range net.layers {
			l.run(&s)
		}
	})
}
