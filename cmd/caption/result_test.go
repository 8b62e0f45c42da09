package main

import "github.com/attend-go/attend/pipeline/captioning"

// captionJSON is the -json object of one image, as the tests decode it.
type captionJSON = captioning.ResultJSON
