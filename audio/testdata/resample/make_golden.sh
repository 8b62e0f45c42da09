#!/bin/sh
# Regenerates sweep_16k.f32, the SoX reference for TestResampleMatchesSox.
#
# The input is a 1 s exponential sine sweep at 44.1 kHz, amplitude 0.5,
# from 20 Hz to 21 kHz:
#
#	x[i] = 0.5·sin(2π·f0·T/ln(f1/f0)·(exp(t·ln(f1/f0)/T) − 1)), t = i/44100,
#
# f0 = 20, f1 = 21000, T = 1, written as a 32-bit float WAV (no
# quantization). resample_test.go computes the same formula in Go, so only
# SoX's output is stored: 16000 little-endian float32 samples.
#
# Needs Debian's sox (14.4.2) and python3-numpy; run from this directory:
#	sh make_golden.sh
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$tmp/sweep_44k.wav" <<'PY'
import sys, wave
import numpy as np

rate, f0, f1, dur = 44100, 20.0, 21000.0, 1.0
t = np.arange(int(rate * dur)) / rate
k = np.log(f1 / f0) / dur
x = (0.5 * np.sin(2 * np.pi * f0 / k * (np.exp(k * t) - 1))).astype("<f4")

# Python's wave module writes only integer PCM; write the float WAV by hand
# (WAVE_FORMAT_IEEE_FLOAT = 3, with the fact chunk float WAVs require).
data = x.tobytes()
fmt = np.array([3, 1], "<u2").tobytes() + np.array([rate, rate * 4], "<u4").tobytes() \
    + np.array([4, 32, 0], "<u2").tobytes()
fact = np.array([len(x)], "<u4").tobytes()
body = b"WAVE" + b"fmt " + np.array([len(fmt)], "<u4").tobytes() + fmt \
    + b"fact" + np.array([4], "<u4").tobytes() + fact \
    + b"data" + np.array([len(data)], "<u4").tobytes() + data
with open(sys.argv[1], "wb") as f:
    f.write(b"RIFF" + np.array([len(body)], "<u4").tobytes() + body)
PY
sox "$tmp/sweep_44k.wav" -r 16000 -e floating-point -b 32 "$tmp/sweep_16k.wav" rate -v
# Strip the WAV header: keep the raw float32 samples.
sox "$tmp/sweep_16k.wav" -t f32 sweep_16k.f32
