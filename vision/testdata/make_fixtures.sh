#!/bin/sh
# Regenerates the image fixtures that Go cannot encode itself: WebP (no Go
# encoder) and CMYK/YCCK JPEG (image/jpeg writes only Gray and YCbCr).
# Every other fixture is made by the tests in Go.
#
# Needs Debian's python3-pil, imagemagick and webp. Run from this directory:
#   sh make_fixtures.sh
#
# Each image is made of four flat quadrants (top-left, top-right,
# bottom-left, bottom-right) whose colors vision/fixtures_test.go checks:
#
#   webp_lossless.webp  16x16 VP8L  red, green, transparent blue (alpha 0),
#                                   black at alpha 128
#   webp_lossy.webp     32x32 VP8   red, green, blue, gray 128
#   webp_alpha.webp     32x32 VP8X+ALPH  red, green, transparent, gray 128
#
# plus webp_photo.webp, a 32x32 lossy WebP of gradients and a moire pattern,
# and webp_photo.libwebp.png, libwebp's own decoding of it (dwebp -nofancy:
# chroma replicated as Go does), the reference for the color range of
# lossy WebP decoding.
#   cmyk.jpg            32x32 Adobe CMYK (transform 0), written by PIL
#   ycck.jpg            32x32 Adobe YCCK (transform 2), written by ImageMagick
#
# CMYK quadrants are C,M,Y,K = (0,255,255,0) red, (255,0,255,0) green,
# (255,255,0,0) blue, (0,0,0,128) gray.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

/usr/bin/python3 - "$tmp" <<'PY'
import sys
from PIL import Image

out = sys.argv[1]

def quadrants(mode, size, colors):
    im = Image.new(mode, (size, size))
    h = size // 2
    boxes = [(0, 0, h, h), (h, 0, size, h), (0, h, h, size), (h, h, size, size)]
    for box, c in zip(boxes, colors):
        im.paste(c, box)
    return im

quadrants("RGBA", 16, [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 0), (0, 0, 0, 128)]).save(out + "/lossless.png")
quadrants("RGB", 32, [(255, 0, 0), (0, 255, 0), (0, 0, 255), (128, 128, 128)]).save(out + "/lossy.png")
quadrants("RGBA", 32, [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 0), (128, 128, 128, 255)]).save(out + "/alpha.png")
photo = Image.new("RGB", (32, 32))
photo.putdata([(8 * x, 8 * y, (x * y * 7) % 256) for y in range(32) for x in range(32)])
photo.save(out + "/photo.png")
cmyk = quadrants("CMYK", 32, [(0, 255, 255, 0), (255, 0, 255, 0), (255, 255, 0, 0), (0, 0, 0, 128)])
cmyk.save("cmyk.jpg", quality=95)
cmyk.save(out + "/cmyk.tif")
PY

cwebp -quiet -lossless -exact "$tmp/lossless.png" -o webp_lossless.webp
cwebp -quiet -q 90 "$tmp/lossy.png" -o webp_lossy.webp
cwebp -quiet -q 90 -alpha_q 100 "$tmp/alpha.png" -o webp_alpha.webp
cwebp -quiet -q 75 "$tmp/photo.png" -o webp_photo.webp
dwebp -quiet -nofancy webp_photo.webp -o webp_photo.libwebp.png
convert "$tmp/cmyk.tif" -strip -quality 95 ycck.jpg

# Check the Adobe APP14 transform byte: 0 for CMYK, 2 for YCCK.
/usr/bin/python3 - <<'PY'
for name, want in (("cmyk.jpg", 0), ("ycck.jpg", 2)):
    d = open(name, "rb").read()
    i = d.find(b"\xff\xee")
    while i >= 0 and d[i + 4:i + 9] != b"Adobe":
        i = d.find(b"\xff\xee", i + 1)
    assert i >= 0, name + ": no Adobe APP14 segment"
    got = d[i + 15]
    assert got == want, "%s: Adobe transform %d, want %d" % (name, got, want)
PY
ls -l webp_lossless.webp webp_lossy.webp webp_alpha.webp webp_photo.webp webp_photo.libwebp.png cmyk.jpg ycck.jpg
