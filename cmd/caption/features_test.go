package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/pipeline/captiondata"
)

// encoderSHA256 is the SHA-256 of the default encoder model file.
const encoderSHA256 = "7aad0c74c5e3c06e5eb3c827e13304fdd68a83da6087d92ee169c24ff9fd4776"

var featuresFixture = filepath.Join("..", "..", "pipeline", "captiondata", "testdata", "flickr8k")

func TestFeaturesArgs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c.safetensors")
	tests := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{name: "no dataset", args: nil, code: 2, stderr: "features needs one dataset, got 0 arguments"},
		{name: "bad grid", args: []string{"-grid", "3x3", featuresFixture}, code: 2, stderr: `-grid "3x3": want 7x7 or 14x14`},
		{name: "bad fit", args: []string{"-fit", "pad", featuresFixture}, code: 2, stderr: `-fit "pad": want crop or squash`},
		{name: "bad workers", args: []string{"-j", "0", featuresFixture}, code: 2, stderr: "-j 0: want at least 1"},
		{name: "bad split", args: []string{"-split", "tst", featuresFixture}, code: 1, stderr: `unknown split "tst" (available: train, dev, test)`},
		{name: "no such dataset", args: []string{"nowhere"}, code: 1, stderr: "nowhere"},
		{name: "dry run", args: []string{"-n", "-split", "train,dev", "-o", out, featuresFixture}, stdout: "dataset flickr8k (flickr8k, split train,dev): 3 images, 5 captions\ncache " + out +
			": 7x7x1280 float16, 122.5 KiB per image, about 367.5 KiB in all\nthe cache does not exist yet\n"},
		{name: "dry run 14x14, the default model's encoder", args: []string{"-n", "-grid", "14x14", "-o", out, featuresFixture}, stdout: "14x14x768 float16, 294.0 KiB per image, about 1.1 MiB in all"},
		{name: "dry run 14x14 of MobileNetV2", args: []string{"-n", "-grid", "14x14", "-encoder", "mobilenet-v2", "-o", out, featuresFixture}, stdout: "14x14x576 float16, 220.5 KiB per image, about 882.0 KiB in all"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := cli.ExitCode("caption", run(append([]string{"features"}, tc.args...), nil, &stdout, &stderr), &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout %q lacks %q", stdout.String(), tc.stdout)
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tc.stderr)
			}
		})
	}
}

func TestDefaultCacheName(t *testing.T) {
	for _, tc := range []struct{ dataset, split, grid, want string }{
		{"../shared/data/flickr8k/", "train, dev", "7x7", "flickr8k-train+dev-7x7.safetensors"},
		{"coco/dataset_coco.json", "", "14x14", "dataset_coco-all-14x14.safetensors"},
	} {
		if got := defaultCacheName(tc.dataset, tc.split, tc.grid); got != tc.want {
			t.Errorf("defaultCacheName(%q, %q, %q) = %q, want %q", tc.dataset, tc.split, tc.grid, got, tc.want)
		}
	}
}

// TestFeaturesExtract extracts the fixture images with the real encoder,
// runs again (nothing left to do), and shows the result with -n.
func TestFeaturesExtract(t *testing.T) {
	model := sharedEncoder(t)
	out := filepath.Join(t.TempDir(), "c.safetensors")
	args := []string{"features", "-encoder", model, "-split", "train,dev", "-j", "2", "-o", out, featuresFixture}
	for i, want := range []string{"3 extracted", "0 extracted"} {
		var stdout, stderr bytes.Buffer
		if err := run(args, nil, &stdout, &stderr); err != nil {
			t.Fatalf("run %d: %v\n%s", i, err, stderr.String())
		}
		if !strings.Contains(stdout.String(), out+": 3 images, 7x7x1280 float16 (368.") || !strings.Contains(stdout.String(), want) {
			t.Errorf("run %d: stdout %q lacks %q", i, stdout.String(), want)
		}
	}
	var stdout, stderr bytes.Buffer
	if err := run([]string{"features", "-n", "-o", out, featuresFixture}, nil, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"the cache exists: 3 of 3 records complete, grid 7x7x1280, encoder SHA-256 " + encoderSHA256, "1 of 4 images are not in the cache (tree.jpg)"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("dry run: stdout %q lacks %q", stdout.String(), want)
		}
	}
	c, err := captiondata.OpenCache(out)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Source() != "flickr8k (flickr8k, split train,dev)" || c.Spec().Preprocess != "CenterCrop 224" {
		t.Errorf("source %q, spec %+v", c.Source(), c.Spec())
	}

	// -mirror makes a cache of its own, and refuses to complete one of
	// unmirrored images.
	stdout.Reset()
	stderr.Reset()
	if err := run([]string{"features", "-mirror", "-encoder", model, "-split", "train,dev", "-o", out, featuresFixture}, nil, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), "mirrored") {
		t.Errorf("-mirror into the unmirrored cache: error %v, want one naming the preprocessing", err)
	}
	mirrored := filepath.Join(t.TempDir(), "m.safetensors")
	if err := run([]string{"features", "-mirror", "-encoder", model, "-split", "train,dev", "-o", mirrored, featuresFixture}, nil, &stdout, &stderr); err != nil {
		t.Fatalf("-mirror: %v\n%s", err, stderr.String())
	}
	m, err := captiondata.OpenCache(mirrored)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if got := m.Spec().Preprocess; got != "CenterCrop 224 mirrored" {
		t.Errorf("-mirror: preprocessing %q, want CenterCrop 224 mirrored", got)
	}
}

// sharedEncoder returns the MobileNetV2 encoder in the shared data
// directory beside the module root, the one the fixture models need,
// skipping the test when it is absent.
func sharedEncoder(t *testing.T) string {
	return shareddata.Path(t, shareddata.EncoderFile)
}
