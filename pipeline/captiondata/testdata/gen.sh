#!/bin/sh
# Regenerates the fixture images: four tiny JPEGs (ImageMagick). The
# caption and split files beside them are written by hand.
set -e
cd "$(dirname "$0")/flickr8k/images"
convert -size 16x12 gradient:white-brown -quality 90 dog.jpg
convert -size 12x16 gradient:gray-orange -quality 90 cat.jpg
convert -size 16x16 gradient:skyblue-navy -quality 90 boat.jpg
convert -size 20x10 gradient:lightgreen-darkgreen -quality 90 tree.jpg
