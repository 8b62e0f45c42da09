package whisper

import "fmt"

// numTimestamps is the number of timestamp tokens, <|0.00|> … <|30.00|>
// in steps of 0.02 s.
const numTimestamps = 1501

// timestampStep is the time between consecutive timestamp tokens, in
// seconds.
const timestampStep = 0.02

// specialNames returns the special tokens' texts in id order after a
// base vocabulary, as openai/whisper's get_encoding lists them:
//
//	<|endoftext|> <|startoftranscript|> <|en|> … (numLanguages codes)
//	<|translate|> <|transcribe|> <|startoflm|> <|startofprev|>
//	<|nospeech|> <|notimestamps|> <|0.00|> <|0.02|> … <|30.00|>
func specialNames(numLanguages int) []string {
	names := make([]string, 0, 2+numLanguages+6+numTimestamps)
	names = append(names, "<|endoftext|>", "<|startoftranscript|>")
	for _, l := range languages[:numLanguages] {
		names = append(names, "<|"+l.code+"|>")
	}
	names = append(names, "<|translate|>", "<|transcribe|>", "<|startoflm|>",
		"<|startofprev|>", "<|nospeech|>", "<|notimestamps|>")
	for i := range numTimestamps {
		names = append(names, fmt.Sprintf("<|%.2f|>", float64(i)*timestampStep))
	}
	return names
}

// numSpecials is the number of special tokens for numLanguages languages.
func numSpecials(numLanguages int) int { return 2 + numLanguages + 6 + numTimestamps }
