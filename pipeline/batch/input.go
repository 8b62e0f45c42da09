package batch

import (
	"path/filepath"
)

// Input is one file of a batch.
type Input struct {
	// Path is the file to open, as the user named it or as the walk
	// found it below a directory argument ("corpus/spk1/a.wav"). It is
	// the record's identity in the output: resume and merge match
	// records by it.
	Path string
	// Root is the directory Path is taken relative to for sharding and
	// for mirroring the tree under an output directory: the directory
	// argument it was found under, the directory of a file argument, and
	// "." (or "/" for an absolute path) for an entry of a list.
	Root string
	// Err, when set, is why the input could not even be examined (an
	// unreadable directory or file); Run records it as a failure
	// without calling the processor.
	Err error
}

// Rel returns Path relative to Root with forward slashes: the key
// Shard hashes and the path mirrored under an output directory. It
// returns Path itself when the two do not relate.
func (in Input) Rel() string {
	rel, err := filepath.Rel(in.Root, in.Path)
	if err != nil {
		rel = in.Path
	}
	return filepath.ToSlash(rel)
}
