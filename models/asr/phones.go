package asr

// Phones is the phone CTC head's inventory after the blank: the 39
// ARPAbet phones of the CMU pronouncing dictionary without stress marks
// (15 vowels, 24 consonants). Phone id i+1 is Phones[i]; id PhoneBlank
// (0) is the CTC blank. There is no word-boundary symbol: the character
// CTC head and the speller already see the spaces, and a phone-only target
// keeps the auxiliary task the low-level one of Toshniwal et al. (2017).
var Phones = [...]string{
	"AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH",
	"EH", "ER", "EY", "F", "G", "HH", "IH", "IY", "JH", "K",
	"L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH",
	"T", "TH", "UH", "UW", "V", "W", "Y", "Z", "ZH",
}

// PhoneBlank is the phone CTC head's blank id.
const PhoneBlank = 0

// PhoneSetSize is P, the phone head's outputs: the blank and Phones.
const PhoneSetSize = len(Phones) + 1

var phoneIDs = func() map[string]int {
	ids := make(map[string]int, len(Phones))
	for i, p := range Phones {
		ids[p] = i + 1
	}
	return ids
}()

// PhoneID returns the id of an ARPAbet phone without stress ("AH" → 3),
// or false for a string not in Phones.
func PhoneID(phone string) (int, bool) {
	id, ok := phoneIDs[phone]
	return id, ok
}
