package captiondata

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// karpathyFile is the part of a Karpathy split file this package reads.
type karpathyFile struct {
	Dataset string `json:"dataset"`
	Images  []struct {
		Filepath  string `json:"filepath"`
		Filename  string `json:"filename"`
		Split     string `json:"split"`
		Sentences []struct {
			Raw    string   `json:"raw"`
			Tokens []string `json:"tokens"`
		} `json:"sentences"`
	} `json:"images"`
}

// ReadKarpathy reads split of a Karpathy split file (dataset_flickr8k.json,
// dataset_flickr30k.json, dataset_coco.json from Karpathy and Fei-Fei's
// "Deep visual-semantic alignments", CVPR 2015): a JSON object whose
// "images" each have a "filename", an optional "filepath" (the COCO
// directory, "train2014" or "val2014"), a "split" and "sentences" with the
// caption in "raw".
//
// The splits are "train", "val" (also called "dev") and "test", plus, in
// the COCO file, "restval": the 30,504 validation images outside the 5,000
// val and 5,000 test ones. As in Karpathy's own training code and the work
// that followed, "train" includes "restval" (113,287 COCO training images);
// "restval" alone selects just those. Images keep the file's order; the
// image path is imagesDir/filepath/filename, imagesDir "" meaning the
// directory of the JSON file. See Read for the errors.
func ReadKarpathy(path, split, imagesDir string) ([]Image, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, readError(path, err)
	}
	return parseKarpathy(path, data, split, imagesDir)
}

func parseKarpathy(path string, data []byte, split, imagesDir string) ([]Image, error) {
	var f karpathyFile
	if err := decodeJSON(data, &f); err != nil {
		return nil, errorf(ErrFormat, path, "%v", err)
	}
	if len(f.Images) == 0 {
		return nil, errorf(ErrFormat, path, `no "images"`)
	}
	names, err := parseSplits(path, split, func(s string) string {
		if s == "dev" {
			return "val"
		}
		return s
	})
	if err != nil {
		return nil, err
	}
	var available []string
	for _, im := range f.Images {
		if !slices.Contains(available, im.Split) {
			available = append(available, im.Split)
		}
	}
	if slices.Contains(available, "restval") && !slices.Contains(available, "train") {
		available = append(available, "train")
	}
	slices.Sort(available)
	for _, s := range names {
		if !slices.Contains(available, s) {
			return nil, unknownSplit(path, s, available)
		}
	}
	want := func(s string) bool {
		return names == nil || slices.Contains(names, s) || s == "restval" && slices.Contains(names, "train")
	}
	if imagesDir == "" {
		imagesDir = filepath.Dir(path)
	}
	var images []Image
	seen := make(map[string]bool)
	for i, im := range f.Images {
		if !want(im.Split) {
			continue
		}
		if im.Filename == "" || strings.ContainsAny(im.Filename, "/\\") {
			return nil, errorf(ErrFormat, path, "images[%d]: filename %q is not a file name", i, clip(im.Filename))
		}
		id := im.Filename
		if seen[id] {
			return nil, errorf(ErrFormat, path, "images[%d]: image %s appears twice", i, id)
		}
		seen[id] = true
		if len(im.Sentences) == 0 {
			return nil, errorf(ErrFormat, path, "images[%d] (%s): no sentences", i, id)
		}
		caps := make([]string, len(im.Sentences))
		for j, s := range im.Sentences {
			if caps[j] = strings.TrimSpace(s.Raw); caps[j] == "" {
				return nil, errorf(ErrFormat, path, "images[%d] (%s): sentences[%d] has an empty \"raw\" caption", i, id, j)
			}
		}
		images = append(images, Image{ID: id, Path: filepath.Join(imagesDir, im.Filepath, im.Filename), Captions: caps})
	}
	if err := checkImages(path, images); err != nil {
		return nil, err
	}
	return images, nil
}
