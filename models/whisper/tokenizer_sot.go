package whisper

import "fmt"

// SOTSequence returns the start-of-transcript sequence that opens every
// decoding window (tokenizer.py's sot_sequence): SOT, then for
// multilingual models the language token and the task token.
//
// language is a code or name ("en", "English"; resolved as get_tokenizer
// does) or "" for none (as when detecting the language); task is
// "transcribe", "translate" or "" for none. English-only models take
// neither: their sequence is SOT alone, whatever the arguments.
func (t *Tokenizer) SOTSequence(language, task string) ([]int, error) {
	seq := []int{t.SOT}
	if !t.multilingual {
		return seq, nil
	}
	if language != "" {
		code, ok := LookupLanguage(language)
		if !ok {
			return nil, fmt.Errorf("whisper: unsupported language %q", language)
		}
		tok, ok := t.LanguageToken(code)
		if !ok {
			return nil, fmt.Errorf("whisper: language %q has no token in this model's vocabulary", language)
		}
		seq = append(seq, tok)
	}
	switch task {
	case "":
	case "transcribe":
		seq = append(seq, t.Transcribe)
	case "translate":
		seq = append(seq, t.Translate)
	default:
		return nil, fmt.Errorf("whisper: unknown task %q (want transcribe or translate)", task)
	}
	return seq, nil
}

// SOTSequenceIncludingNoTimestamps is SOTSequence followed by
// NoTimestamps (tokenizer.py's sot_sequence_including_notimestamps).
func (t *Tokenizer) SOTSequenceIncludingNoTimestamps(language, task string) ([]int, error) {
	seq, err := t.SOTSequence(language, task)
	if err != nil {
		return nil, err
	}
	return append(seq, t.NoTimestamps), nil
}
