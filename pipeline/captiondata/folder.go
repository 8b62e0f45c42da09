package captiondata

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// imageExtensions are the file name endings ReadFolder takes for images
// (compared in lower case): the formats vision decodes.
var imageExtensions = []string{".jpg", ".jpeg", ".png", ".gif", ".bmp", ".tif", ".tiff", ".webp"}

// ReadFolder lists the images directly inside dir (not in subdirectories)
// whose names end in an image extension (.jpg, .jpeg, .png, .gif, .bmp,
// .tif, .tiff, .webp, any case), sorted by name, without captions. It
// serves feature extraction for images to be captioned later; the IDs are
// the file names, as in the other kinds, so a cache made from Flickr8k's
// images folder serves Flickr8k. A folder with no images is an error
// (ErrFormat).
func ReadFolder(dir string) ([]Image, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, readError(dir, err)
	}
	var images []Image
	for _, e := range entries {
		name := e.Name()
		if !slices.Contains(imageExtensions, strings.ToLower(filepath.Ext(name))) || strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			continue // a dangling link or a directory named like an image
		}
		images = append(images, Image{ID: name, Path: p})
	}
	if len(images) == 0 {
		return nil, errorf(ErrFormat, dir, "no images (%s files) and no Flickr8k captions file", strings.Join(imageExtensions, ", "))
	}
	return images, nil
}
