// Package speechdata reads and writes speech manifests (which audio file
// says what, by whom), normalizes transcripts to the recognizer's
// alphabet, and splits a corpus into training and dev speakers. It
// touches no audio: paths are handed on to the audio package.
//
// # Manifests
//
// Read takes a path and recognizes three kinds of manifest:
//
// TSV file. One utterance per line, fields separated by tabs:
//
//	path	text	speaker	gender	age
//	train/SPEAKER0001/000010011.ogg	WE CALL IT BEAR	0001	m	6
//
// The first line is a header when its first field is literally "path";
// the header must then name a "text" column and may name "speaker" and
// "id" columns (other columns are ignored). Without a header, the first
// field is the path and the second the text, and further fields are
// ignored. A relative path is resolved against the manifest's directory.
// The id is the id column when present and non-empty, otherwise the path
// as written. WriteTSV writes the header path, text, speaker, id, which
// Read reads back to the same utterances; fields cannot hold tabs or line
// breaks.
//
// Kaldi data directory (it holds wav.scp or text). wav.scp lines are
// "utterance-id path", text lines "utterance-id words…", and the optional
// utt2spk lines "utterance-id speaker-id". Every utterance in text must be
// in wav.scp and utt2spk (when present) and the reverse. Relative paths
// are resolved against the data directory (Kaldi resolves them against
// the recipe's working directory; its data directories normally hold
// absolute paths). Piped commands ("id sox in.sph -t wav - |"), archive
// offsets ("foo.ark:1234") and a segments file are not supported
// (ErrUnsupported): convert such data to audio files first.
//
// LibriSpeech-style tree (any other directory). Every *.trans.txt found
// recursively holds lines "ID WORDS…"; the audio is ID.flac beside it (or
// ID.wav, ID.ogg, ID.mp3); the speaker is the ID up to its first '-'
// (LibriSpeech IDs are speaker-chapter-utterance).
//
// In every kind, blank lines are skipped, a UTF-8 byte-order mark and
// CRLF line endings are accepted, transcripts are kept as written, and
// errors name the file and line: malformed lines (ErrSyntax), duplicate
// ids (ErrDuplicateID, naming the first occurrence too), entries without
// their counterpart (ErrMissing), an empty manifest (ErrEmpty).
//
// # Normalization
//
// Normalize turns a transcript into the training target and the form that
// is scored: lower-case words over Alphabet (a–z, apostrophe, space)
// separated by single spaces. Numbers are spelled out, diacritics removed,
// punctuation turned into word boundaries; the rules are tabulated on
// Normalize. It is idempotent, and references and hypotheses go through
// the same function before WER and CER are computed, so a hypothesis is
// never penalized for a spelling the normalizer would produce.
//
//	Normalize("Dr. Smith's 2nd café—open 24/7, 50% off!")
//	  == "dr smith's second cafe open twenty four seven fifty percent off"
//
// # Dev split
//
// A dev set must not share speakers with the training set, or it rewards
// memorizing voices. SplitBySpeaker holds out a number of whole speakers,
// chosen from the sorted set of speakers by a seeded PCG shuffle: the same
// seed and speakers give the same split whatever the order of the
// utterances.
//
// # Pronunciations
//
// ReadPronunciations reads a pronouncing dictionary in the CMU format
// (Debian's pocketsphinx-en-us installs one at DefaultPronunciations) and
// Pronunciations.Transcript turns a normalized transcript into ARPAbet
// phones, the targets of the speech model's auxiliary phone CTC head.
package speechdata
