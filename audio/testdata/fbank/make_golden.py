"""Regenerates the torchaudio reference features for TestFbankMatchesTorchaudio.

Run from this directory with Debian's python3-torchaudio (0.13):

    /usr/bin/python3 make_golden.py

It reads ../../../testdata/hello.wav (16 kHz mono 16-bit; torchaudio.load
scales it to [-1, 1) by 1/32768, as the Go test does) and writes, for each
case below, <name>.f32: frames x num_mel_bins little-endian float32,
frame-major, computed by torchaudio.compliance.kaldi.fbank. The Go test
table in fbank_test.go mirrors these cases.
"""

import os

import numpy as np
import torch
import torchaudio
from torchaudio.compliance import kaldi

HERE = os.path.dirname(os.path.abspath(__file__))
WAV = os.path.join(HERE, "..", "..", "..", "testdata", "hello.wav")

# name: (first N samples or None for all, kaldi.fbank keyword arguments)
CASES = {
    # Kaldi's defaults with 80 bins: Povey window, 25 ms / 10 ms, 20 Hz to
    # Nyquist, pre-emphasis 0.97, DC removal, no dither.
    "povey": (None, dict(num_mel_bins=80)),
    # The Hann window, on the first second.
    "hann": (16000, dict(num_mel_bins=80, window_type="hanning")),
    # Every other option away from its default, on the first second read
    # as if it were 8 kHz audio: window 30 ms / hop 15 ms (240 samples,
    # 256-point FFT), 40 bins from 64 Hz to Nyquist - 200 Hz, no
    # pre-emphasis, DC kept.
    "options": (16000, dict(num_mel_bins=40, sample_frequency=8000, frame_length=30,
                            frame_shift=15, low_freq=64, high_freq=-200,
                            preemphasis_coefficient=0.0, remove_dc_offset=False,
                            window_type="hanning")),
}


def main():
    wave, rate = torchaudio.load(WAV)
    assert rate == 16000 and wave.shape[0] == 1, (rate, wave.shape)
    for name, (n, kw) in CASES.items():
        x = wave if n is None else wave[:, :n]
        feats = kaldi.fbank(x, dither=0.0, **kw)
        out = os.path.join(HERE, name + ".f32")
        feats.numpy().astype("<f4").tofile(out)
        print(f"{name}: {tuple(feats.shape)} -> {out}")


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
