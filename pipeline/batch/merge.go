package batch

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

var (
	// ErrDuplicate is returned by Merge when two records have one path.
	ErrDuplicate = errors.New("batch: duplicate records")
	// ErrIncomplete is returned by Merge for an output whose last record
	// is cut short: the run that wrote it did not finish.
	ErrIncomplete = errors.New("batch: incomplete output")
)

// MergeOptions configures Merge; nil means defaults.
type MergeOptions struct {
	// Format of the outputs and of the merge: jsonl, tsv or csv.
	// Default: from the first output's extension (FormatOf).
	Format string
}

// MergeStats counts what Merge wrote.
type MergeStats struct {
	Outputs, Records, Failed int
}

// Merge writes the records of the combined outputs of several runs
// (the shards of one corpus) to w as one output sorted by path (byte
// order), each record's line exactly as it was. All outputs must be in
// the same format; TSV and CSV get one header.
//
// Merge checks the shards fit together: two records with the same path
// fail with ErrDuplicate, naming them and their files, and an output
// with an incomplete last record with ErrIncomplete. Nothing is written
// then. Failure records are kept (Failed counts them). Merge holds every
// record in memory.
func Merge(outputs []string, w io.Writer, opts *MergeOptions) (*MergeStats, error) {
	if len(outputs) == 0 {
		return nil, fmt.Errorf("%w: no outputs to merge", ErrOptions)
	}
	var explicit string
	if opts != nil {
		explicit = opts.Format
	}
	format, err := FormatOf(outputs[0], explicit)
	if err != nil {
		return nil, err
	}
	c := codecFor(format)
	type entry struct {
		path string
		line []byte
		file int
	}
	var entries []entry
	st := &MergeStats{Outputs: len(outputs)}
	for k, name := range outputs {
		if explicit == "" {
			if f, _ := FormatOf(name, ""); f != format {
				return nil, fmt.Errorf("%w: %s is %s but %s is %s; merge outputs of one format", ErrOptions, outputs[0], format, name, f)
			}
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("batch: %w", err)
		}
		_, tail, err := scan(bytes.NewReader(data), c, name, func(line []byte, r *Record) error {
			entries = append(entries, entry{r.Path, line, k})
			if r.Failed() {
				st.Failed++
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if tail > 0 {
			return nil, fmt.Errorf("%w: %s ends in an incomplete record (%d bytes); finish its run with resume first", ErrIncomplete, name, tail)
		}
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return cmp.Compare(a.path, b.path) })
	var dups []string
	ndup := 0
	for i := 1; i < len(entries); i++ {
		if a, b := entries[i-1], entries[i]; a.path == b.path {
			ndup++
			if len(dups) < 5 {
				dups = append(dups, fmt.Sprintf("%s (in %s and %s)", b.path, outputs[a.file], outputs[b.file]))
			}
		}
	}
	if ndup > 0 {
		more := ""
		if ndup > len(dups) {
			more = fmt.Sprintf(" and %d more", ndup-len(dups))
		}
		return nil, fmt.Errorf("%w: %d: %s%s", ErrDuplicate, ndup, strings.Join(dups, ", "), more)
	}
	buf := append([]byte(nil), c.header()...)
	for _, e := range entries {
		buf = append(append(buf, e.line...), '\n')
		if len(buf) >= 1<<20 {
			if _, err := w.Write(buf); err != nil {
				return nil, fmt.Errorf("batch: writing the merge: %w", err)
			}
			buf = buf[:0]
		}
	}
	if _, err := w.Write(buf); err != nil {
		return nil, fmt.Errorf("batch: writing the merge: %w", err)
	}
	st.Records = len(entries)
	return st, nil
}
