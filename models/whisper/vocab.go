package whisper

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/base64"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// The vocabularies of openai/whisper's whisper/assets (MIT, see
// assets/LICENSE.openai-whisper), gzip-compressed: each line is a token's
// bytes in base64 and its rank, which is also its id.
//
//go:embed assets/gpt2.tiktoken.gz assets/multilingual.tiktoken.gz
var vocabAssets embed.FS

// Base vocabulary sizes (ranks before the special tokens): GPT-2's 50,256
// byte-level BPE tokens for English-only models; the multilingual
// vocabulary has 50,257, its last token being empty.
const (
	gpt2BaseVocab         = 50256
	multilingualBaseVocab = 50257
)

// bpeVocab is a byte-level BPE vocabulary: tokens[id] is the token's
// bytes and ranks maps them back (rank = id). It is immutable once built.
type bpeVocab struct {
	tokens [][]byte
	ranks  map[string]int
}

var embeddedVocabs = map[string]func() (*bpeVocab, error){
	"gpt2":         sync.OnceValues(func() (*bpeVocab, error) { return loadEmbedded("gpt2") }),
	"multilingual": sync.OnceValues(func() (*bpeVocab, error) { return loadEmbedded("multilingual") }),
}

// loadEmbedded parses the embedded vocabulary name ("gpt2" or
// "multilingual").
func loadEmbedded(name string) (*bpeVocab, error) {
	f, err := vocabAssets.Open("assets/" + name + ".tiktoken.gz")
	if err != nil {
		return nil, fmt.Errorf("whisper: embedded vocabulary %s: %w", name, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("whisper: embedded vocabulary %s: %w", name, err)
	}
	v, err := parseTiktoken(zr)
	if err != nil {
		return nil, fmt.Errorf("whisper: embedded vocabulary %s: %w", name, err)
	}
	return v, nil
}

// parseTiktoken reads a .tiktoken file: lines "BASE64 RANK" whose ranks
// are 0, 1, 2, … in order (as openai/whisper's files are; ranks are ids).
func parseTiktoken(r io.Reader) (*bpeVocab, error) {
	var tokens [][]byte
	var scratch []byte // every token's bytes, back to back; copied by newBPEVocab
	var ends []int
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		sp := bytes.IndexByte(line, ' ')
		if sp < 0 {
			return nil, fmt.Errorf("line %d: no rank", len(ends)+1)
		}
		// Padding is dropped first: the multilingual file writes its
		// empty token as "=", which Python's b64decode reads as b"".
		b64 := bytes.TrimRight(line[:sp], "=")
		var err error
		if scratch, err = base64.RawStdEncoding.AppendDecode(scratch, b64); err != nil {
			return nil, fmt.Errorf("line %d: %w", len(ends)+1, err)
		}
		rank, err := strconv.Atoi(string(line[sp+1:]))
		if err != nil || rank != len(ends) {
			return nil, fmt.Errorf("line %d: rank %q is not %d", len(ends)+1, line[sp+1:], len(ends))
		}
		ends = append(ends, len(scratch))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	tokens = make([][]byte, len(ends))
	start := 0
	for i, end := range ends {
		tokens[i] = scratch[start:end]
		start = end
	}
	return newBPEVocab(tokens)
}

// newBPEVocab indexes a copy of tokens (rank = id). Every single byte
// must be a token, so that any text encodes, and no token may repeat; an
// empty token (the multilingual vocabulary's last) is kept for its id but
// never matches. The copy lives in one block, and the map's keys are
// substrings of one string, so a vocabulary costs a few allocations.
func newBPEVocab(tokens [][]byte) (*bpeVocab, error) {
	size := 0
	for _, t := range tokens {
		size += len(t)
	}
	arena := make([]byte, 0, size)
	for _, t := range tokens {
		arena = append(arena, t...)
	}
	keys := string(arena)
	v := &bpeVocab{tokens: make([][]byte, len(tokens)), ranks: make(map[string]int, len(tokens))}
	off := 0
	for id, t := range tokens {
		end := off + len(t)
		v.tokens[id] = arena[off:end:end]
		if len(t) > 0 {
			key := keys[off:end]
			if prev, dup := v.ranks[key]; dup {
				return nil, fmt.Errorf("token %d repeats token %d (%q)", id, prev, t)
			}
			v.ranks[key] = id
		}
		off = end
	}
	for b := range 256 {
		if _, ok := v.ranks[string([]byte{byte(b)})]; !ok {
			return nil, fmt.Errorf("no token for the single byte %#02x", b)
		}
	}
	return v, nil
}
