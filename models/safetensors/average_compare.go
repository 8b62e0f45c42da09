package safetensors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// compare checks that f, whose model tensors are own, holds the same
// network as the first file added: kind, config, vocabulary, tensor names
// and shapes.
func (a *Averager) compare(f *File, own []Tensor) error {
	first := a.first.Source
	if first == "" {
		first = "the first file"
	}
	if f.Kind != a.first.Kind {
		return fileErrorf(f.Source, ErrKind, "kind %q, but %s is %q", f.Kind, first, a.first.Kind)
	}
	config, err := decodeConfig(f)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(config, a.config) {
		return fileErrorf(f.Source, ErrMismatch, "config differs from %s: %s", first, configDiff(config, a.config))
	}
	if d := vocabDiff(f.Vocab, a.first.Vocab); d != "" {
		return fileErrorf(f.Source, ErrMismatch, "vocabulary differs from %s: %s", first, d)
	}
	var missing, unexpected []string
	have := make(map[string]bool, len(own))
	for _, t := range own {
		have[t.Name] = true
		if _, ok := a.index[t.Name]; !ok {
			unexpected = append(unexpected, t.Name)
		}
	}
	for _, t := range a.tensors {
		if !have[t.Name] {
			missing = append(missing, t.Name)
		}
	}
	if len(missing) > 0 || len(unexpected) > 0 {
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, "missing "+quoteList(missing))
		}
		if len(unexpected) > 0 {
			parts = append(parts, "unexpected "+quoteList(unexpected))
		}
		return fileErrorf(f.Source, ErrMismatch, "tensors differ from %s: %s", first, strings.Join(parts, "; "))
	}
	for _, t := range own {
		if want := a.tensors[a.index[t.Name]].Shape; !equalShapes(t.Shape, want) {
			return fileErrorf(f.Source, ErrMismatch, "tensor %q has shape %v, %s has %v", t.Name, t.Shape, first, want)
		}
	}
	return nil
}

// decodeConfig decodes f's config for comparing: numbers stay as their
// literal text, so that large integers (seeds) compare exactly.
func decodeConfig(f *File) (any, error) {
	config := f.Config
	if len(config) == 0 {
		config = json.RawMessage("{}")
	}
	d := json.NewDecoder(bytes.NewReader(config))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, fileErrorf(f.Source, ErrCorrupt, "config is not valid JSON: %v", err)
	}
	return v, nil
}

// configDiff describes how the decoded config got differs from want: the
// top-level fields that differ, when both are objects.
func configDiff(got, want any) string {
	g, gok := got.(map[string]any)
	w, wok := want.(map[string]any)
	if !gok || !wok {
		return fmt.Sprintf("%s (%s there)", jsonClip(got), jsonClip(want))
	}
	keys := maps.Clone(g)
	maps.Copy(keys, w)
	var diffs []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		gv, inG := g[k]
		wv, inW := w[k]
		switch {
		case !inG:
			diffs = append(diffs, fmt.Sprintf("no %q (%s there)", k, jsonClip(wv)))
		case !inW:
			diffs = append(diffs, fmt.Sprintf("%q is %s (absent there)", k, jsonClip(gv)))
		case !reflect.DeepEqual(gv, wv):
			diffs = append(diffs, fmt.Sprintf("%q is %s (%s there)", k, jsonClip(gv), jsonClip(wv)))
		}
	}
	const max = 4
	if len(diffs) > max {
		diffs = append(diffs[:max], fmt.Sprintf("and %d more", len(diffs)-max))
	}
	return strings.Join(diffs, ", ")
}

// jsonClip formats a decoded JSON value for an error message.
func jsonClip(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return clip(b)
}

// vocabDiff describes how vocabulary got differs from want ("" if not).
func vocabDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("token %d is %q (%q there)", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d tokens (%d there)", len(got), len(want))
	}
	return ""
}
