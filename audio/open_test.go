package audio

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
)

// readStream reads s to its end, chunk samples (rounded down to whole
// frames) at a time, checking the Stream contract on the way.
func readStream(s Stream, chunk int) ([]float32, error) {
	ch := s.Channels()
	buf := make([]float32, max(chunk/ch, 1)*ch)
	var out []float32
	for {
		n, err := s.Read(buf)
		if n%ch != 0 || n < 0 || n > len(buf) {
			return out, errors.New("Read returned a count that is not a whole number of frames")
		}
		out = append(out, buf[:n]...)
		if err == io.EOF {
			if n, err := s.Read(buf); n != 0 || err != io.EOF {
				return out, errors.New("Read after io.EOF did not return 0, io.EOF again")
			}
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

// TestOpenMatchesDecode reads every fixture through Open with several
// buffer sizes, down to one frame, and compares with Decode.
func TestOpenMatchesDecode(t *testing.T) {
	for _, tc := range fixtureCases {
		t.Run(tc.file, func(t *testing.T) {
			data := readFixture(t, tc.file)
			want, err := Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			for _, chunk := range []int{1, 7 * tc.channels, 1000, 1 << 16} {
				st, format, err := Open(bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				if format != tc.format || st.Rate() != tc.rate || st.Channels() != tc.channels {
					t.Fatalf("Open: %v, %d Hz, %d channels; want %v, %d, %d", format, st.Rate(), st.Channels(), tc.format, tc.rate, tc.channels)
				}
				got, err := readStream(st, chunk)
				if err != nil {
					t.Fatalf("chunk %d: %v", chunk, err)
				}
				if !slices.Equal(got, want.Samples) {
					t.Fatalf("chunk %d: %d samples differ from Decode's %d", chunk, len(got), len(want.Samples))
				}
			}
		})
	}
}

func TestOpenShortBuffer(t *testing.T) {
	st, _, err := Open(bytes.NewReader(readFixture(t, "sine_s16_stereo.wav")))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := st.Read(make([]float32, 1)); n != 0 || err != io.ErrShortBuffer {
		t.Fatalf("Read of 1 sample from stereo: %d, %v; want 0, io.ErrShortBuffer", n, err)
	}
}

// TestOpenAtOffset checks that decoding starts at the reader's current
// offset, not at the start of the underlying file.
func TestOpenAtOffset(t *testing.T) {
	for _, file := range []string{"sine_s16.wav", "sine.flac", "sine.ogg", "sine_id3.mp3"} {
		t.Run(file, func(t *testing.T) {
			data := readFixture(t, file)
			want, err := Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			r := bytes.NewReader(slices.Concat([]byte("some other file's bytes"), data))
			if _, err := r.Seek(23, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			got, err := Decode(r)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Samples, want.Samples) {
				t.Fatalf("%d samples differ from the %d decoded at offset 0", len(got.Samples), len(want.Samples))
			}
		})
	}
}

// failingReader serves data until byte failAt, then fails with errDisk.
type failingReader struct {
	*bytes.Reader
	failAt int64
}

var errDisk = errors.New("disk on fire")

func (f *failingReader) Read(p []byte) (int, error) {
	pos, _ := f.Seek(0, io.SeekCurrent)
	if pos >= f.failAt {
		return 0, errDisk
	}
	return f.Reader.Read(p[:min(int64(len(p)), f.failAt-pos)])
}

// TestOpenReadError checks that an input that fails to read is reported
// with its own error, not as a malformed file.
func TestOpenReadError(t *testing.T) {
	for _, tc := range []struct {
		file   string
		failAt int64
	}{
		{"sine_s16.wav", 0},
		{"sine_s16.wav", 20},
		{"sine_s16.wav", 5000},
		{"sine.flac", 30},
		{"sine.flac", 1000},
		{"sine.ogg", 3000},
		{"sine_id3.mp3", 600},
	} {
		data := readFixture(t, tc.file)
		_, err := Decode(&failingReader{bytes.NewReader(data), tc.failAt})
		if !errors.Is(err, errDisk) || errors.Is(err, ErrFormat) {
			t.Errorf("%s failing at byte %d: %v; want an error wrapping the read error, not ErrFormat", tc.file, tc.failAt, err)
		}
	}
}

func TestOpenNilReader(t *testing.T) {
	if _, _, err := Open(nil); err == nil {
		t.Fatal("Open(nil) succeeded")
	}
}

// TestBufReadSeeker checks the buffered window against bytes.Reader over
// a deterministic random mix of reads and seeks.
func TestBufReadSeeker(t *testing.T) {
	data := make([]byte, 100_000)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.IntN(256))
	}
	const base = 1234
	ref := bytes.NewReader(data[base:])
	b := newBufReadSeeker(bytes.NewReader(data), base, int64(len(data)-base))
	for step := range 5000 {
		if rng.IntN(3) == 0 {
			whence := rng.IntN(3)
			off := int64(rng.IntN(len(data))) - int64(len(data)/2)
			if whence == io.SeekStart {
				off = int64(rng.IntN(len(data)))
			}
			want, wantErr := ref.Seek(off, whence)
			got, err := b.Seek(off, whence)
			if (err == nil) != (wantErr == nil) || err == nil && got != want {
				t.Fatalf("step %d: Seek(%d, %d) = %d, %v; want %d, %v", step, off, whence, got, err, want, wantErr)
			}
			continue
		}
		n := []int{1, 3, 100, 40_000, 70_000}[rng.IntN(5)]
		want := make([]byte, n)
		got := make([]byte, n)
		wn, wantErr := io.ReadFull(ref, want)
		gn, err := io.ReadFull(b, got)
		if gn != wn || err != wantErr || !bytes.Equal(got[:gn], want[:wn]) {
			t.Fatalf("step %d: ReadFull(%d) = %d, %v; want %d, %v", step, n, gn, err, wn, wantErr)
		}
	}
}
