#!/bin/sh
# Regenerates the decoder fixtures in testdata/decode/ with Debian's sox,
# flac, vorbis-tools and lame (apt-get install sox flac vorbis-tools lame).
# The files are committed, so the tests need none of these tools.
#
# Every fixture is a short sine (0.05 to 0.2 s) whose frequency, amplitude,
# rate and length the tests check after decoding. WAV variants sox cannot
# write (8-bit edge values, NaN floats, RF64, odd chunk layouts) are built
# byte by byte in wav_test.go instead.
set -eu
cd "$(dirname "$0")"
mkdir -p decode
cd decode
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# sox adds no dither when it only writes a synthesized signal (-D).
synth() { # synth OUT RATE CHANNELS SECONDS [sox output options...] -- SYNTH ARGS
	out=$1 rate=$2 ch=$3 secs=$4
	shift 4
	opts=""
	while [ "$1" != "--" ]; do opts="$opts $1"; shift; done
	shift
	# shellcheck disable=SC2086
	sox -D -n -r "$rate" -c "$ch" $opts "$out" synth "$secs" "$@"
}

# WAV: 440 Hz at half scale unless noted.
synth sine_s16.wav 16000 1 0.2 -b 16 -e signed-integer -- sine 440 vol 0.5
synth sine_u8.wav 8000 1 0.2 -b 8 -e unsigned-integer -- sine 440 vol 0.5
synth sine_s24.wav 8000 1 0.2 -b 24 -e signed-integer -- sine 440 vol 0.5
synth sine_s32.wav 8000 1 0.2 -b 32 -e signed-integer -- sine 440 vol 0.5
synth sine_f32.wav 8000 1 0.2 -b 32 -e floating-point -- sine 440 vol 0.5
synth sine_f64.wav 8000 1 0.1 -b 64 -e floating-point -- sine 440 vol 0.5
synth sine_ulaw.wav 8000 1 0.2 -e u-law -- sine 440 vol 0.5
synth sine_alaw.wav 8000 1 0.2 -e a-law -- sine 440 vol 0.5
# Stereo: 440 Hz left, 660 Hz right.
synth sine_s16_stereo.wav 8000 2 0.2 -b 16 -- sine 440 sine 660 vol 0.5
# Six channels, 300..800 Hz; sox writes WAVE_FORMAT_EXTENSIBLE for them.
synth sine_s16_6ch.wav 8000 6 0.05 -b 16 -- sine 300 sine 400 sine 500 sine 600 sine 700 sine 800 vol 0.5

# FLAC: mono 16-bit at 16 kHz, and 24-bit stereo (440/660 Hz) at 8 kHz,
# which exercises inter-channel decorrelation.
flac -s -f --no-padding --best -o sine.flac sine_s16.wav
synth "$tmp/s24_stereo.wav" 8000 2 0.2 -b 24 -- sine 440 sine 660 vol 0.5
flac -s -f --no-padding --best -o sine_s24_stereo.flac "$tmp/s24_stereo.wav"
# FLAC in an Ogg container: recognised but not supported.
flac -s -f --no-padding --ogg --serial-number=1 -o sine_flac.oga sine_s16.wav

# Ogg Vorbis, 16 kHz mono.
oggenc -Q -q 2 --serial 1 -o sine.ogg sine_s16.wav

# MP3: 16 kHz mono (MPEG-2 Layer III) behind an ID3v2 tag, and 44.1 kHz
# stereo (MPEG-1 Layer III) with no tag.
lame --quiet -m m -b 32 --id3v2-only --tt "sine" sine_s16.wav sine_id3.mp3
synth "$tmp/stereo44k.wav" 44100 2 0.2 -b 16 -- sine 440 sine 660 vol 0.5
lame --quiet -m s -b 128 "$tmp/stereo44k.wav" sine_stereo.mp3

# Tiny files (0.02 s) that seed FuzzSniff: the fuzzer minimises and
# mutates short inputs much faster. Ogg Vorbis stays above 2 KB: its setup
# header carries the codebooks.
synth "$tmp/tiny.wav" 16000 1 0.02 -b 16 -- sine 440 vol 0.5
flac -s -f --no-padding -o tiny.flac "$tmp/tiny.wav"
lame --quiet -m m -b 8 --resample 16 "$tmp/tiny.wav" tiny.mp3
# MPEG-2.5 (8 kHz): recognised but not supported by go-mp3.
lame --quiet -m m -b 8 --resample 8 "$tmp/tiny.wav" mpeg25.mp3
synth "$tmp/tiny8k.wav" 8000 1 0.02 -b 16 -- sine 440 vol 0.5
oggenc -Q -q -1 --serial 1 -o tiny.ogg "$tmp/tiny8k.wav"
