package captiondata

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Image is one image of a caption dataset with its reference captions.
type Image struct {
	// ID names the image uniquely within its dataset: its file name
	// ("1000268201_693b08cb0e.jpg", "COCO_val2014_000000391895.jpg").
	// Feature caches are indexed by it.
	ID string
	// Path is the image file, the images directory joined with the file
	// name (and, for Karpathy COCO files, its filepath).
	Path string
	// Captions are the reference captions as written in the dataset
	// (untokenized; see Tokenize), in the dataset's order. Only an image
	// folder, which has no captions, gives images without.
	Captions []string
}

// Kind names the layout of a dataset.
type Kind string

// The dataset layouts Read recognizes.
const (
	KindFlickr8k Kind = "flickr8k" // a directory: captions.txt, train.txt, dev.txt, images/
	KindKarpathy Kind = "karpathy" // dataset_flickr8k.json, dataset_coco.json, …
	KindCOCO     Kind = "coco"     // captions_train2014.json and friends
	KindFolder   Kind = "folder"   // a directory of images without captions
)

// Read reads the images of split from the dataset at path, recognizing its
// kind:
//
//   - a directory holding captions.txt or Flickr8k.token.txt: Flickr8k
//     (see ReadFlickr8k);
//   - any other directory: a folder of images (see ReadFolder);
//   - a JSON file whose top level has "annotations": a COCO caption file
//     (see ReadCOCO);
//   - a JSON file whose images have "sentences": a Karpathy split file
//     (see ReadKarpathy).
//
// split is one split name, several joined by commas ("train,dev", read in
// that order, an image listed by two of them kept once), or "" for every
// image of the dataset. "dev" and "val" name the same split in every kind.
// imagesDir is where the image files are; "" means the kind's default
// (the images folder of a Flickr8k directory, the directory of a JSON
// file).
//
// Every image of the result exists as a file (else ErrMissingImage) and,
// except in an image folder, has at least one non-empty caption (else
// ErrFormat). An unknown split fails with ErrSplit listing those the
// dataset has.
func Read(path, split, imagesDir string) ([]Image, error) {
	kind, err := Detect(path)
	if err != nil {
		return nil, err
	}
	switch kind {
	case KindFlickr8k:
		return readFlickr8k(path, split, imagesDir)
	case KindFolder:
		if split != "" {
			return nil, errorf(ErrSplit, path, "split %q asked for, but a folder of images has no splits (use an empty split)", split)
		}
		if imagesDir != "" && filepath.Clean(imagesDir) != filepath.Clean(path) {
			return nil, fmt.Errorf("captiondata: %s: a folder of images takes no separate images directory (got %s)", path, imagesDir)
		}
		return ReadFolder(path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("captiondata: dataset: %w", err)
	}
	if kind == KindKarpathy {
		return parseKarpathy(path, data, split, imagesDir)
	}
	return parseCOCO(path, data, split, imagesDir)
}

// Detect returns the kind of the dataset at path, as Read recognizes it.
func Detect(path string) (Kind, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("captiondata: dataset: %w", err)
	}
	if st.IsDir() {
		if _, err := flickr8kCaptionsFile(path); err == nil {
			return KindFlickr8k, nil
		}
		return KindFolder, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("captiondata: dataset: %w", err)
	}
	return detectJSON(path, data)
}

// detectJSON tells a COCO caption file from a Karpathy split file by their
// top-level keys.
func detectJSON(path string, data []byte) (Kind, error) {
	if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || trimmed[0] != '{' {
		return "", errorf(ErrFormat, path, "not a dataset: want a Flickr8k directory, a folder of images, or a Karpathy or COCO caption JSON file")
	}
	var top struct {
		Annotations *[]struct{} `json:"annotations"`
		Images      []struct {
			Sentences *[]struct{} `json:"sentences"`
		} `json:"images"`
	}
	if err := decodeJSON(data, &top); err != nil {
		return "", errorf(ErrFormat, path, "%v", err)
	}
	switch {
	case top.Annotations != nil:
		return KindCOCO, nil
	case len(top.Images) > 0 && top.Images[0].Sentences != nil:
		return KindKarpathy, nil
	}
	return "", errorf(ErrFormat, path, `JSON is neither a COCO caption file (no "annotations") nor a Karpathy split file (no "images" with "sentences")`)
}

// parseSplits splits a comma-separated list of split names, mapping each
// through canon; "" gives nil, meaning every split.
func parseSplits(source, split string, canon func(string) string) ([]string, error) {
	if split == "" {
		return nil, nil
	}
	var names []string
	for name := range strings.SplitSeq(split, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, errorf(ErrSplit, source, "empty name in split list %q", split)
		}
		if name = canon(name); !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names, nil
}

// unknownSplit returns the error for a split the dataset lacks.
func unknownSplit(source, name string, available []string) error {
	if len(available) == 0 {
		return errorf(ErrSplit, source, "unknown split %q (the dataset has no splits)", name)
	}
	return errorf(ErrSplit, source, "unknown split %q (available: %s)", name, strings.Join(available, ", "))
}

// checkImages verifies that every image file exists and is a regular file,
// reporting how many do not and naming the first few.
func checkImages(source string, images []Image) error {
	const show = 3
	var missing []string
	n := 0
	for _, im := range images {
		st, err := os.Stat(im.Path)
		switch {
		case err == nil && st.Mode().IsRegular():
			continue
		case err == nil:
			err = errors.New("not a regular file")
		case errors.Is(err, fs.ErrNotExist):
			err = errors.New("no such file")
		}
		if n++; n <= show {
			missing = append(missing, fmt.Sprintf("%s (%v)", im.Path, err))
		}
	}
	if n == 0 {
		return nil
	}
	more := ""
	if n > show {
		more = fmt.Sprintf(" and %d more", n-show)
	}
	return errorf(ErrMissingImage, source, "%d of %d images are missing: %s%s (wrong images directory?)",
		n, len(images), strings.Join(missing, ", "), more)
}
