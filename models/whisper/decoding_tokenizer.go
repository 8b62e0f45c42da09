package whisper

// TokenizerText adapts *Tokenizer to TextTokenizer, what decoding needs.
func TokenizerText(t *Tokenizer) TextTokenizer { return tokenizerText{t} }

type tokenizerText struct{ *Tokenizer }

func (t tokenizerText) Specials() Specials {
	return Specials{
		EOT: t.EOT, SOT: t.SOT, Translate: t.Translate, Transcribe: t.Transcribe, SOTLM: t.SOTLM,
		SOTPrev: t.SOTPrev, NoSpeech: t.NoSpeech, NoTimestamps: t.NoTimestamps, TimestampBegin: t.TimestampBegin,
	}
}

func (t tokenizerText) LanguageTokens() ([]string, []int) {
	return t.Languages, t.Tokenizer.LanguageTokens()
}
