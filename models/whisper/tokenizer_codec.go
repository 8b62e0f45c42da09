package whisper

// Encode returns the token ids of text, as tiktoken's encode_ordinary:
// pre-tokenized by GPT-2's regular expression, each piece merged by byte
// pair ranks. Special tokens' texts ("<|endoftext|>") are encoded as
// ordinary text (tokenizer.py's encode, through tiktoken's encode, would
// refuse them).
func (t *Tokenizer) Encode(text string) []int {
	ids := make([]int, 0, len(text)/3+1)
	splitPieces(text, func(piece string) {
		if id, ok := t.vocab.ranks[piece]; ok {
			ids = append(ids, id)
			return
		}
		ids = bytePairMerge(ids, piece, t.vocab.ranks)
	})
	return ids
}

// Decode returns the text of ids as tokenizer.py's decode: timestamp
// tokens (≥ TimestampBegin) are dropped, other special tokens give their
// text ("<|en|>"), and bytes that are not valid UTF-8 become U+FFFD as
// Python's errors="replace" makes them. Ids outside the vocabulary are
// skipped.
func (t *Tokenizer) Decode(ids []int) string {
	return decodeUTF8Replace(t.appendBytes(make([]byte, 0, 4*len(ids)), ids, false))
}

// DecodeWithTimestamps is Decode keeping timestamp tokens, written as
// "<|1.08|>" (tokenizer.py's decode_with_timestamps).
func (t *Tokenizer) DecodeWithTimestamps(ids []int) string {
	return decodeUTF8Replace(t.appendBytes(make([]byte, 0, 4*len(ids)), ids, true))
}

// appendBytes appends the bytes of ids to dst.
func (t *Tokenizer) appendBytes(dst []byte, ids []int, timestamps bool) []byte {
	for _, id := range ids {
		if id >= t.TimestampBegin && !timestamps {
			continue
		}
		dst = append(dst, t.TokenBytes(id)...)
	}
	return dst
}
