// Package pipeline holds the end-to-end jobs behind the command-line tools:
// loading speech and images from files, computing features, and (as the
// models land) transcribing, captioning, batch processing, training and
// evaluation. Every error names the input it concerns.
package pipeline
