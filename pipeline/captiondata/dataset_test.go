package captiondata

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

var (
	fixtureFlickr8k = filepath.Join("testdata", "flickr8k")
	fixtureImages   = filepath.Join("testdata", "flickr8k", "images")
	fixtureKarpathy = filepath.Join("testdata", "dataset_flickr8k.json")
	fixtureCOCO     = filepath.Join("testdata", "captions_val2014.json")
)

func TestRead(t *testing.T) {
	tests := []struct {
		name, path, split, images string
		kind                      Kind
		ids                       []string
	}{
		{"flickr8k train", fixtureFlickr8k, "train", "", KindFlickr8k, []string{"dog.jpg", "cat.jpg"}},
		{"flickr8k dev", fixtureFlickr8k, "dev", "", KindFlickr8k, []string{"boat.jpg"}},
		{"flickr8k val means dev", fixtureFlickr8k, "val", "", KindFlickr8k, []string{"boat.jpg"}},
		{"flickr8k train,dev", fixtureFlickr8k, "train,dev", "", KindFlickr8k, []string{"dog.jpg", "cat.jpg", "boat.jpg"}},
		{"flickr8k dev,train,dev", fixtureFlickr8k, "dev, train,dev", "", KindFlickr8k, []string{"boat.jpg", "dog.jpg", "cat.jpg"}},
		{"flickr8k all", fixtureFlickr8k, "", "", KindFlickr8k, []string{"dog.jpg", "cat.jpg", "boat.jpg", "tree.jpg"}},
		{"karpathy train has restval", fixtureKarpathy, "train", fixtureImages, KindKarpathy, []string{"dog.jpg", "cat.jpg"}},
		{"karpathy restval", fixtureKarpathy, "restval", fixtureImages, KindKarpathy, []string{"cat.jpg"}},
		{"karpathy val", fixtureKarpathy, "val", fixtureImages, KindKarpathy, []string{"boat.jpg"}},
		{"karpathy dev means val", fixtureKarpathy, "dev", fixtureImages, KindKarpathy, []string{"boat.jpg"}},
		{"karpathy test", fixtureKarpathy, "test", fixtureImages, KindKarpathy, []string{"tree.jpg"}},
		{"karpathy train,restval", fixtureKarpathy, "train,restval", fixtureImages, KindKarpathy, []string{"dog.jpg", "cat.jpg"}},
		{"karpathy all", fixtureKarpathy, "", fixtureImages, KindKarpathy, []string{"dog.jpg", "boat.jpg", "cat.jpg", "tree.jpg"}},
		{"coco", fixtureCOCO, "", fixtureImages, KindCOCO, []string{"boat.jpg", "dog.jpg"}},
		{"coco val", fixtureCOCO, "val", fixtureImages, KindCOCO, []string{"boat.jpg", "dog.jpg"}},
		{"coco dev means val", fixtureCOCO, "dev", fixtureImages, KindCOCO, []string{"boat.jpg", "dog.jpg"}},
		{"folder", fixtureImages, "", "", KindFolder, []string{"boat.jpg", "cat.jpg", "dog.jpg", "tree.jpg"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			kind, err := Detect(tc.path)
			if err != nil || kind != tc.kind {
				t.Errorf("Detect = %q, %v; want %q", kind, err, tc.kind)
			}
			images, err := Read(tc.path, tc.split, tc.images)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(images); !equalStrings(got, tc.ids) {
				t.Errorf("IDs %q, want %q", got, tc.ids)
			}
			for _, im := range images {
				if want := filepath.Join(fixtureImages, im.ID); im.Path != want {
					t.Errorf("%s: path %s, want %s", im.ID, im.Path, want)
				}
				if (len(im.Captions) == 0) != (tc.kind == KindFolder) {
					t.Errorf("%s: %d captions", im.ID, len(im.Captions))
				}
			}
		})
	}
}

func TestReadCaptions(t *testing.T) {
	tests := []struct {
		name, path, split, images string
		want                      map[string][]string
	}{
		{"flickr8k sorted by number and trimmed", fixtureFlickr8k, "train,dev", "", map[string][]string{
			"dog.jpg":  {"A dog is running .", "A brown dog runs across the grass ."},
			"cat.jpg":  {"A cat sits on a mat ."},
			"boat.jpg": {"A boat on the water .", "Two people row a boat !"},
		}},
		{"karpathy raw trimmed", fixtureKarpathy, "", fixtureImages, map[string][]string{
			"dog.jpg":  {"A dog is running.", "A brown dog."},
			"boat.jpg": {"A boat."},
			"cat.jpg":  {"A cat."},
			"tree.jpg": {"A tree."},
		}},
		{"coco in annotation order", fixtureCOCO, "", fixtureImages, map[string][]string{
			"boat.jpg": {"A boat on a lake."},
			"dog.jpg":  {"A dog running on grass.", "A brown dog."},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			images, err := Read(tc.path, tc.split, tc.images)
			if err != nil {
				t.Fatal(err)
			}
			if len(images) != len(tc.want) {
				t.Errorf("%d images, want %d", len(images), len(tc.want))
			}
			for _, im := range images {
				if !equalStrings(im.Captions, tc.want[im.ID]) {
					t.Errorf("%s: captions %q, want %q", im.ID, im.Captions, tc.want[im.ID])
				}
			}
		})
	}
}

// The original Flickr8k distribution's file names are recognized too.
func TestReadFlickr8kOriginalLayout(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Flickr8k.token.txt":         "a.jpg#0\tA dog.\r\na.jpg#1\tA brown dog.\r\nb.jpg#0\tA cat.\r\n",
		"Flickr_8k.trainImages.txt":  "a.jpg\r\n",
		"Flickr_8k.devImages.txt":    "b.jpg\r\n",
		"Flicker8k_Dataset/a.jpg":    "",
		"Flicker8k_Dataset/b.jpg":    "",
		"Flickr8k.lemma.token.txt":   "ignored",
		"Flickr_8k.unusedImages.txt": "ignored",
	})
	images, err := ReadFlickr8k(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(images); !equalStrings(got, []string{"a.jpg", "b.jpg"}) {
		t.Errorf("IDs %q", got)
	}
	if got := images[0].Captions; !equalStrings(got, []string{"A dog.", "A brown dog."}) {
		t.Errorf("captions %q", got)
	}
	if want := filepath.Join(dir, "Flicker8k_Dataset", "a.jpg"); images[0].Path != want {
		t.Errorf("path %s, want %s", images[0].Path, want)
	}
}

func TestReadErrors(t *testing.T) {
	flickr := func(captions, train string) map[string]string {
		return map[string]string{"captions.txt": captions, "train.txt": train, "dev.txt": "b.jpg\n", "images/a.jpg": "", "images/b.jpg": ""}
	}
	const goodCaptions = "a.jpg#0\tA dog.\nb.jpg#0\tA cat.\n"
	karpathy := func(images string) map[string]string {
		return map[string]string{"k.json": `{"images": [` + images + `], "dataset": "x"}`, "a.jpg": ""}
	}
	coco := func(images, annotations string) map[string]string {
		return map[string]string{"captions_train2014.json": `{"images": [` + images + `], "annotations": [` + annotations + `]}`, "a.jpg": "", "b.jpg": ""}
	}
	tests := []struct {
		name   string
		files  map[string]string
		path   string // relative to the test's directory
		split  string
		images string // relative to the test's directory
		err    error
		msg    string
	}{
		{name: "no such path", path: "nothing", err: fs.ErrNotExist, msg: "nothing"},
		{name: "not JSON", files: map[string]string{"x.txt": "hello"}, path: "x.txt", err: ErrFormat, msg: "not a dataset"},
		{name: "JSON of another kind", files: map[string]string{"x.json": `{"images": []}`}, path: "x.json", err: ErrFormat, msg: "neither a COCO"},
		{name: "empty folder", files: map[string]string{"d/readme.md": ""}, path: "d", err: ErrFormat, msg: "no images"},
		{name: "folder with a split", files: map[string]string{"d/a.png": ""}, path: "d", split: "train", err: ErrSplit, msg: "has no splits"},

		{name: "flickr8k no tab", files: flickr("a.jpg#0 A dog.\n", "a.jpg\n"), path: ".", err: ErrFormat, msg: "captions.txt: line 1: want IMAGE#N<TAB>caption"},
		{name: "flickr8k no number", files: flickr("a.jpg\tA dog.\n", "a.jpg\n"), path: ".", err: ErrFormat, msg: "line 1: want IMAGE#N before the tab"},
		{name: "flickr8k bad number", files: flickr("a.jpg#x\tA dog.\n", "a.jpg\n"), path: ".", err: ErrFormat, msg: `got "a.jpg#x"`},
		{name: "flickr8k empty caption", files: flickr("a.jpg#0\tA dog.\nb.jpg#0\t  \n", "a.jpg\n"), path: ".", err: ErrFormat, msg: "line 2: caption b.jpg#0 is empty"},
		{name: "flickr8k caption twice", files: flickr("a.jpg#0\tA dog.\na.jpg#0\tA cat.\n", "a.jpg\n"), path: ".", err: ErrFormat, msg: "line 2: caption a.jpg#0 appears twice"},
		{name: "flickr8k image without captions", files: flickr(goodCaptions, "a.jpg\nc.jpg\n"), path: ".", split: "train", err: ErrFormat, msg: "train.txt: image c.jpg has no captions in"},
		{name: "flickr8k bad name in list", files: flickr(goodCaptions, "x/a.jpg\n"), path: ".", err: ErrFormat, msg: `train.txt: line 1: "x/a.jpg" is not an image file name`},
		{name: "flickr8k unknown split", files: flickr(goodCaptions, "a.jpg\n"), path: ".", split: "test", err: ErrSplit, msg: `unknown split "test" (available: train, dev)`},
		{name: "flickr8k empty split name", files: flickr(goodCaptions, "a.jpg\n"), path: ".", split: "train,", err: ErrSplit, msg: `empty name in split list "train,"`},
		{name: "flickr8k no split lists", files: map[string]string{"captions.txt": goodCaptions}, path: ".", err: ErrFormat, msg: "no split lists"},
		{name: "flickr8k no images dir", files: map[string]string{"captions.txt": goodCaptions, "train.txt": "a.jpg\n"}, path: ".", err: ErrMissingImage, msg: "no images directory"},
		{name: "flickr8k missing image", files: map[string]string{"captions.txt": goodCaptions, "train.txt": "a.jpg\nb.jpg\n", "images/b.jpg": ""}, path: ".", err: ErrMissingImage,
			msg: filepath.Join("images", "a.jpg") + " (no such file) (wrong images directory?)"},
		{name: "flickr8k images dir elsewhere", files: flickr(goodCaptions, "a.jpg\n"), path: ".", split: "train", images: "elsewhere", err: ErrMissingImage, msg: filepath.Join("elsewhere", "a.jpg")},

		{name: "karpathy syntax", files: map[string]string{"k.json": "{\"images\": [\n  {\"filename\": \"a.jpg\",,}]}"}, path: "k.json", err: ErrFormat, msg: "invalid JSON at line 2, column 24"},
		{name: "karpathy type", files: karpathy(`{"filename": "a.jpg", "split": "train", "sentences": [{"raw": 7}]}`), path: "k.json", err: ErrFormat, msg: "images.sentences.raw at line 1"},
		{name: "karpathy no sentences", files: karpathy(`{"filename": "a.jpg", "split": "train", "sentences": []}`), path: "k.json", err: ErrFormat, msg: "images[0] (a.jpg): no sentences"},
		{name: "karpathy empty raw", files: karpathy(`{"filename": "a.jpg", "split": "train", "sentences": [{"raw": "A."}, {"raw": " "}]}`), path: "k.json", err: ErrFormat, msg: `sentences[1] has an empty "raw" caption`},
		{name: "karpathy bad filename", files: karpathy(`{"filename": "../a.jpg", "split": "train", "sentences": [{"raw": "A."}]}`), path: "k.json", err: ErrFormat, msg: `filename "../a.jpg" is not a file name`},
		{name: "karpathy twice", files: karpathy(`{"filename": "a.jpg", "split": "train", "sentences": [{"raw": "A."}]}, {"filename": "a.jpg", "split": "val", "sentences": [{"raw": "A."}]}`),
			path: "k.json", err: ErrFormat, msg: "images[1]: image a.jpg appears twice"},
		{name: "karpathy unknown split", files: karpathy(`{"filename": "a.jpg", "split": "restval", "sentences": [{"raw": "A."}]}`), path: "k.json", split: "tset", err: ErrSplit, msg: `unknown split "tset" (available: restval, train)`},
		{name: "karpathy missing image", files: karpathy(`{"filename": "b.jpg", "split": "train", "sentences": [{"raw": "A."}]}`), path: "k.json", err: ErrMissingImage, msg: "1 of 1 images are missing"},

		{name: "coco no id", files: coco(`{"file_name": "a.jpg"}`, ``), path: "captions_train2014.json", err: ErrFormat, msg: `images[0]: no "id"`},
		{name: "coco id twice", files: coco(`{"id": 1, "file_name": "a.jpg"}, {"id": 1, "file_name": "b.jpg"}`, ``), path: "captions_train2014.json", err: ErrFormat, msg: "images[1]: id 1 appears twice"},
		{name: "coco file twice", files: coco(`{"id": 1, "file_name": "a.jpg"}, {"id": 2, "file_name": "a.jpg"}`, ``), path: "captions_train2014.json", err: ErrFormat, msg: "file_name a.jpg appears twice"},
		{name: "coco unknown image", files: coco(`{"id": 1, "file_name": "a.jpg"}`, `{"image_id": 2, "caption": "A."}`), path: "captions_train2014.json", err: ErrFormat, msg: "annotations[0]: image_id 2 is not among the images"},
		{name: "coco empty caption", files: coco(`{"id": 1, "file_name": "a.jpg"}`, `{"image_id": 1, "caption": ""}`), path: "captions_train2014.json", err: ErrFormat, msg: "annotations[0] (image a.jpg): empty caption"},
		{name: "coco no captions", files: coco(`{"id": 1, "file_name": "a.jpg"}, {"id": 2, "file_name": "b.jpg"}`, `{"image_id": 1, "caption": "A."}`), path: "captions_train2014.json", err: ErrFormat, msg: "images[1] (b.jpg): no captions"},
		{name: "coco other split", files: coco(`{"id": 1, "file_name": "a.jpg"}`, `{"image_id": 1, "caption": "A."}`), path: "captions_train2014.json", split: "val", err: ErrSplit, msg: `unknown split "val": a COCO caption file holds one split, here "train"`},
		{name: "coco unnamed split", files: map[string]string{"c.json": `{"images": [{"id": 1, "file_name": "a.jpg"}], "annotations": []}`}, path: "c.json", split: "train", err: ErrSplit, msg: "does not say which"},
		{name: "coco missing image", files: coco(`{"id": 1, "file_name": "c.jpg"}`, `{"image_id": 1, "caption": "A."}`), path: "captions_train2014.json", err: ErrMissingImage, msg: "c.jpg (no such file)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			images := ""
			if tc.images != "" {
				images = filepath.Join(dir, tc.images)
			}
			got, err := Read(filepath.Join(dir, tc.path), tc.split, images)
			if err == nil {
				t.Fatalf("no error; read %q", ids(got))
			}
			if !errors.Is(err, tc.err) {
				t.Errorf("error %q does not wrap %q", err, tc.err)
			}
			if !strings.Contains(err.Error(), tc.msg) || !strings.HasPrefix(err.Error(), "captiondata: ") {
				t.Errorf("error %q lacks %q", err, tc.msg)
			}
		})
	}
}

// TestReadFlickr8kShared reads the project's copy of Flickr8k.
func TestReadFlickr8kShared(t *testing.T) {
	dir := shareddata.Path(t, "flickr8k")
	seen := map[string]string{}
	for split, want := range map[string]int{"train": 6000, "dev": 1000} {
		images, err := ReadFlickr8k(dir, split)
		if err != nil {
			t.Fatal(err)
		}
		if len(images) != want {
			t.Errorf("%s: %d images, want %d", split, len(images), want)
		}
		for _, im := range images {
			if other, ok := seen[im.ID]; ok {
				t.Errorf("%s is in %s and %s", im.ID, other, split)
			}
			seen[im.ID] = split
			if len(im.Captions) != 5 {
				t.Errorf("%s: %d captions, want 5", im.ID, len(im.Captions))
			}
			for _, c := range im.Captions {
				if len(Tokenize(c)) == 0 {
					t.Errorf("%s: caption %q has no words", im.ID, c)
				}
			}
		}
	}
	if _, err := ReadFlickr8k(dir, "test"); !errors.Is(err, ErrSplit) || !strings.Contains(err.Error(), "available: train, dev") {
		t.Errorf("test split: %v, want ErrSplit listing train, dev", err)
	}
}
