#!/bin/sh
# Regenerates the speech fixtures in testdata/ from text with Debian's espeak-ng
# and sox (apt-get install espeak-ng sox). The rendered files are committed, so
# tests and the README's first command need neither tool.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# hello.wav: a short English sentence, 16 kHz mono 16-bit PCM.
text="the quick brown fox jumps over the lazy dog"
printf '%s\n' "$text" > hello.txt
espeak-ng -v en-us -s 150 -w "$tmp/hello22k.wav" "$text"
sox "$tmp/hello22k.wav" -r 16000 -c 1 -b 16 hello.wav rate -v

# gradient.png: a 64×48 RGB gradient (red across, green down), made with
# Debian's python3-pil.
/usr/bin/python3 - <<'PY'
from PIL import Image
w, h = 64, 48
img = Image.new("RGB", (w, h))
img.putdata([(x * 255 // (w - 1), y * 255 // (h - 1), 128) for y in range(h) for x in range(w)])
img.save("gradient.png", optimize=True)
PY
