package captiondata

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Flickr8k directory layouts. The project's copy has captions.txt,
// train.txt, dev.txt and images/; the original distribution has
// Flickr8k.token.txt, Flickr_8k.trainImages.txt (dev, test) and
// Flicker8k_Dataset/ (sic). Either is recognized, names tried in order.
var (
	flickr8kCaptionFiles = []string{"captions.txt", "Flickr8k.token.txt"}
	flickr8kImageDirs    = []string{"images", "Flicker8k_Dataset", "Flickr8k_Dataset"}
	flickr8kSplits       = []string{"train", "dev", "test"}
)

// ReadFlickr8k reads split of the Flickr8k dataset in dir ("train", "dev"
// or "test", several joined by commas, or "" for all those present; "val"
// means "dev").
//
// The captions file has one caption per line, "IMAGE#N<TAB>caption", N
// numbering the captions of an image (0–4); the split files list image
// file names, one per line. Images keep the split file's order and
// captions are ordered by N. Captions of images outside the split are not
// checked, beyond the line format. See Read for the errors.
func ReadFlickr8k(dir, split string) ([]Image, error) {
	return readFlickr8k(dir, split, "")
}

func readFlickr8k(dir, split, imagesDir string) ([]Image, error) {
	names, err := parseSplits(dir, split, func(s string) string {
		if s == "val" {
			return "dev"
		}
		return s
	})
	if err != nil {
		return nil, err
	}
	available := make(map[string]string)
	var availableNames []string
	for _, s := range flickr8kSplits {
		if p, ok := flickr8kSplitFile(dir, s); ok {
			available[s] = p
			availableNames = append(availableNames, s)
		}
	}
	if names == nil {
		if len(availableNames) == 0 {
			return nil, errorf(ErrFormat, dir, "no split lists (train.txt, dev.txt, test.txt or Flickr_8k.trainImages.txt, …)")
		}
		names = availableNames
	}
	for _, s := range names {
		if _, ok := available[s]; !ok {
			return nil, unknownSplit(dir, s, availableNames)
		}
	}
	capPath, err := flickr8kCaptionsFile(dir)
	if err != nil {
		return nil, err
	}
	captions, err := readFlickr8kCaptions(capPath)
	if err != nil {
		return nil, err
	}
	if imagesDir == "" {
		if imagesDir, err = flickr8kImageDir(dir); err != nil {
			return nil, err
		}
	}
	var images []Image
	seen := make(map[string]bool)
	for _, s := range names {
		list, err := readNameList(available[s])
		if err != nil {
			return nil, err
		}
		for _, name := range list {
			if seen[name] {
				continue
			}
			seen[name] = true
			caps := captions[name]
			if len(caps) == 0 {
				return nil, errorf(ErrFormat, available[s], "image %s has no captions in %s", name, capPath)
			}
			texts := make([]string, len(caps))
			for i, c := range caps {
				texts[i] = c.text
			}
			images = append(images, Image{ID: name, Path: filepath.Join(imagesDir, name), Captions: texts})
		}
	}
	if err := checkImages(dir, images); err != nil {
		return nil, err
	}
	return images, nil
}

// flickr8kCaptionsFile returns the captions file of a Flickr8k directory.
func flickr8kCaptionsFile(dir string) (string, error) {
	for _, name := range flickr8kCaptionFiles {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	return "", errorf(ErrFormat, dir, "not a Flickr8k directory: no %s", strings.Join(flickr8kCaptionFiles, " or "))
}

// flickr8kImageDir returns the images directory of a Flickr8k directory.
func flickr8kImageDir(dir string) (string, error) {
	for _, name := range flickr8kImageDirs {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p, nil
		}
	}
	return "", errorf(ErrMissingImage, dir, "no images directory (%s)", strings.Join(flickr8kImageDirs, ", "))
}

// flickr8kSplitFile returns the list file of split s, if present.
func flickr8kSplitFile(dir, s string) (string, bool) {
	for _, name := range []string{s + ".txt", "Flickr_8k." + s + "Images.txt"} {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, true
		}
	}
	return "", false
}

// numberedCaption is one caption line: its number N and text.
type numberedCaption struct {
	n    int
	text string
}

// readFlickr8kCaptions parses the captions file into captions by image
// name, each image's sorted by number.
func readFlickr8kCaptions(path string) (map[string][]numberedCaption, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, readError(path, err)
	}
	return parseFlickr8kCaptions(path, data)
}

// parseFlickr8kCaptions parses the contents of the captions file path.
func parseFlickr8kCaptions(path string, data []byte) (map[string][]numberedCaption, error) {
	out := make(map[string][]numberedCaption)
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		key, text, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, errorf(ErrFormat, path, "line %d: want IMAGE#N<TAB>caption, found no tab in %q", i+1, clip(line))
		}
		name, num, ok := strings.Cut(key, "#")
		n, err := strconv.Atoi(num)
		if !ok || name == "" || err != nil || n < 0 {
			return nil, errorf(ErrFormat, path, "line %d: want IMAGE#N before the tab (N a caption number), got %q", i+1, clip(key))
		}
		if text = strings.TrimSpace(text); text == "" {
			return nil, errorf(ErrFormat, path, "line %d: caption %s is empty", i+1, key)
		}
		if slices.ContainsFunc(out[name], func(c numberedCaption) bool { return c.n == n }) {
			return nil, errorf(ErrFormat, path, "line %d: caption %s appears twice", i+1, key)
		}
		out[name] = append(out[name], numberedCaption{n, text})
	}
	for _, caps := range out {
		slices.SortFunc(caps, func(a, b numberedCaption) int { return cmp.Compare(a.n, b.n) })
	}
	return out, nil
}

// readNameList reads a file of image names, one per line, blank lines
// skipped.
func readNameList(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, readError(path, err)
	}
	var names []string
	for i, line := range strings.Split(string(data), "\n") {
		name := strings.TrimSpace(line)
		if name == "" {
			continue
		}
		if strings.ContainsAny(name, "\t/\\") || name == "." || name == ".." {
			return nil, errorf(ErrFormat, path, "line %d: %q is not an image file name", i+1, clip(name))
		}
		names = append(names, name)
	}
	return names, nil
}

// readError wraps a failure to read a dataset file.
func readError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &dataError{msg: "captiondata: " + path + ": " + err.Error(), errs: []error{err}}
}

// clip shortens s for an error message.
func clip(s string) string {
	const limit = 60
	if len(s) <= limit {
		return s
	}
	return strings.ToValidUTF8(s[:limit], "") + "…"
}
