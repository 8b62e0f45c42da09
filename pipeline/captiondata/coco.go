package captiondata

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// cocoFile is the part of a COCO caption annotation file this package reads.
type cocoFile struct {
	Images []struct {
		ID       *int64 `json:"id"`
		FileName string `json:"file_name"`
	} `json:"images"`
	Annotations []struct {
		ImageID *int64 `json:"image_id"`
		Caption string `json:"caption"`
	} `json:"annotations"`
}

// cocoSplitName finds the split in a COCO file name:
// captions_train2014.json holds "train", captions_val2017.json "val".
var cocoSplitName = regexp.MustCompile(`^captions_([a-z]+)[0-9]*\.json$`)

// ReadCOCO reads a COCO caption annotation file (captions_train2014.json,
// captions_val2014.json, … from cocodataset.org; Chen et al. 2015): a JSON
// object with "images" (id, file_name) and "annotations" (image_id,
// caption). Images keep the file's order and their captions the order of
// the annotations; the image path is imagesDir/file_name, imagesDir ""
// meaning the directory of the JSON file (COCO keeps the images in
// train2014/ beside annotations/, so pass that).
//
// A COCO file holds one split, so split must be "" or the split the file
// name says (captions_train2014.json: "train"; "dev" means "val"). Use a
// Karpathy split file for the Karpathy splits of COCO. See Read for the
// errors.
func ReadCOCO(path, split, imagesDir string) ([]Image, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, readError(path, err)
	}
	return parseCOCO(path, data, split, imagesDir)
}

func parseCOCO(path string, data []byte, split, imagesDir string) ([]Image, error) {
	var available []string
	if m := cocoSplitName.FindStringSubmatch(filepath.Base(path)); m != nil {
		available = []string{m[1]}
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
	for _, s := range names {
		switch {
		case len(available) == 0:
			return nil, errorf(ErrSplit, path, "split %q asked for, but a COCO caption file holds one split and this file's name does not say which (want captions_<split>2014.json); use an empty split", s)
		case s != available[0]:
			return nil, errorf(ErrSplit, path, "unknown split %q: a COCO caption file holds one split, here %q; pass the file of the split wanted", s, available[0])
		}
	}
	var f cocoFile
	if err := decodeJSON(data, &f); err != nil {
		return nil, errorf(ErrFormat, path, "%v", err)
	}
	if len(f.Images) == 0 {
		return nil, errorf(ErrFormat, path, `no "images"`)
	}
	if imagesDir == "" {
		imagesDir = filepath.Dir(path)
	}
	images := make([]Image, len(f.Images))
	index := make(map[int64]int, len(f.Images))
	seen := make(map[string]bool, len(f.Images))
	for i, im := range f.Images {
		switch {
		case im.ID == nil:
			return nil, errorf(ErrFormat, path, `images[%d]: no "id"`, i)
		case im.FileName == "" || strings.ContainsAny(im.FileName, "/\\"):
			return nil, errorf(ErrFormat, path, "images[%d]: file_name %q is not a file name", i, clip(im.FileName))
		}
		if _, dup := index[*im.ID]; dup {
			return nil, errorf(ErrFormat, path, "images[%d]: id %d appears twice", i, *im.ID)
		}
		if seen[im.FileName] {
			return nil, errorf(ErrFormat, path, "images[%d]: file_name %s appears twice", i, im.FileName)
		}
		index[*im.ID], seen[im.FileName] = i, true
		images[i] = Image{ID: im.FileName, Path: filepath.Join(imagesDir, im.FileName)}
	}
	for j, a := range f.Annotations {
		if a.ImageID == nil {
			return nil, errorf(ErrFormat, path, `annotations[%d]: no "image_id"`, j)
		}
		i, ok := index[*a.ImageID]
		if !ok {
			return nil, errorf(ErrFormat, path, "annotations[%d]: image_id %d is not among the images", j, *a.ImageID)
		}
		c := strings.TrimSpace(a.Caption)
		if c == "" {
			return nil, errorf(ErrFormat, path, "annotations[%d] (image %s): empty caption", j, images[i].ID)
		}
		images[i].Captions = append(images[i].Captions, c)
	}
	for i, im := range images {
		if len(im.Captions) == 0 {
			return nil, errorf(ErrFormat, path, "images[%d] (%s): no captions among the annotations", i, im.ID)
		}
	}
	if err := checkImages(path, images); err != nil {
		return nil, err
	}
	return images, nil
}
