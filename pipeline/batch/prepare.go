package batch

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/attend-go/attend/internal/atomicfile"
)

// runner is one Run.
type runner struct {
	opts     Options
	codec    codec
	out      *output  // nil without Output
	outRoot  *os.Root // OutDir, nil without it
	todo     []Input  // the inputs not done yet
	sidecar  []string // the sidecar path of each todo input ("" for none)
	sum      *Summary
	stderrMu sync.Mutex // serializes panic reports from workers
	// abortHint ends the interruption message when a second interrupt
	// abandons the inputs in flight.
	abortHint string
}

// prepare checks the inputs and outputs and decides what is left to do,
// before any input starts.
func (r *runner) prepare(inputs []Input) error {
	o := &r.opts
	seen := make(map[string]bool, len(inputs))
	for _, in := range inputs {
		if seen[in.Path] {
			return fmt.Errorf("%w: %s is given twice", ErrOptions, in.Path)
		}
		seen[in.Path] = true
	}
	sidecars, err := r.sidecarPaths(inputs, seen)
	if err != nil {
		return err
	}
	if o.Output != "" {
		if err := r.openOutput(); err != nil {
			return err
		}
	}
	if o.OutDir != "" {
		if err := atomicfile.MkdirAll(o.OutDir); err != nil {
			return fmt.Errorf("batch: creating the output directory: %w", err)
		}
		if r.outRoot, err = os.OpenRoot(o.OutDir); err != nil {
			return fmt.Errorf("batch: %w", err)
		}
	}
	var done map[string]bool
	if r.out != nil && r.out.f != nil {
		done = r.out.resumed.done
	}
	var exist []string
	for i, in := range inputs {
		sc := sidecars[i]
		switch {
		case done != nil && done[key(r.codec, in.Path)]:
			r.sum.Skipped++
			continue
		case sc != "":
			fi, err := os.Lstat(sc)
			if err != nil {
				break
			}
			if same, _ := os.Stat(in.Path); same != nil && os.SameFile(fi, same) {
				return fmt.Errorf("%w: %s is %s", ErrOverwriteInput, sc, in.Path)
			}
			if o.Resume && r.out == nil && fi.Mode().IsRegular() {
				r.sum.Skipped++
				continue
			}
			if !o.Resume && !o.Overwrite {
				exist = append(exist, sc)
			}
		}
		r.todo = append(r.todo, in)
		r.sidecar = append(r.sidecar, sc)
	}
	if len(exist) > 0 {
		more := ""
		if len(exist) > 3 {
			more = fmt.Sprintf(" and %d more", len(exist)-3)
		}
		return fmt.Errorf("%w: %s%s; resume to skip the inputs done, or allow overwriting", ErrExists, strings.Join(exist[:min(3, len(exist))], ", "), more)
	}
	return nil
}

// sidecarPaths returns each input's sidecar path ("" for none), failing
// for one that has no safe place, replaces an input, or is shared.
func (r *runner) sidecarPaths(inputs []Input, isInput map[string]bool) ([]string, error) {
	paths := make([]string, len(inputs))
	if r.opts.Sidecar == "" {
		return paths, nil
	}
	owner := make(map[string]string, len(inputs))
	for i, in := range inputs {
		if in.Err != nil {
			continue
		}
		p, err := SidecarPath(in.Root, in.Path, r.opts.OutDir, r.opts.Sidecar)
		if err != nil {
			return nil, err
		}
		if isInput[p] {
			return nil, fmt.Errorf("%w: the %s sidecar of %s would replace the input %s", ErrOverwriteInput, r.opts.Sidecar, in.Path, p)
		}
		if prev, ok := owner[p]; ok {
			return nil, fmt.Errorf("%w: %s and %s would both write %s", ErrOptions, prev, in.Path, p)
		}
		owner[p] = in.Path
		paths[i] = p
	}
	return paths, nil
}

// openOutput opens Output, resuming or replacing it as asked, and says
// what resuming found.
func (r *runner) openOutput() error {
	o := &r.opts
	if o.Output == "-" {
		out, err := openStream(o.Stdout, r.codec)
		r.out = out
		return err
	}
	out, res, err := openOutput(o.Output, r.codec, o.Resume, o.Overwrite, o.SyncEvery)
	if err != nil {
		return err
	}
	r.out = out
	out.resumed = res
	if !o.Resume || o.Quiet {
		return nil
	}
	msg := fmt.Sprintf("%s: resuming %s: %d records kept", o.Name, o.Output, res.kept)
	if res.retried > 0 {
		msg += fmt.Sprintf(", %d failures to retry", res.retried)
	}
	if res.dups > 0 {
		msg += fmt.Sprintf(", %d duplicates dropped", res.dups)
	}
	if res.truncated > 0 {
		msg += fmt.Sprintf(", an incomplete last record (%d bytes) dropped", res.truncated)
	}
	fmt.Fprintln(o.Stderr, msg)
	return nil
}

// writeSidecar writes the sidecar of todo input i.
func (r *runner) writeSidecar(i int, res *Result) error {
	path := r.sidecar[i]
	render := func(w io.Writer) error { return res.render(w, r.opts.Sidecar) }
	if r.outRoot != nil {
		rel, err := filepath.Rel(r.opts.OutDir, path)
		if err != nil {
			return err
		}
		return writeSidecar(r.outRoot, rel, render)
	}
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer root.Close()
	return writeSidecar(root, filepath.Base(path), render)
}

// closeAll closes the outputs; it may be called twice.
func (r *runner) closeAll() error {
	var err error
	if r.out != nil {
		err = r.out.close()
		r.out = nil
	}
	if r.outRoot != nil {
		r.outRoot.Close()
		r.outRoot = nil
	}
	return err
}
