// Package audio turns audio files into what the speech models read: it
// decodes WAV, FLAC, Ogg Vorbis and MP3 into float32 samples, changes their
// rate, downmixes them to mono, computes log-mel filterbank features with
// normalisation and augmentation, finds where someone speaks (voice
// activity detection), and cuts long recordings into segments.
//
// It uses only the standard library and pure-Go codecs: no cgo, and never
// gorgonia.
//
// # Samples
//
// A Signal holds a whole recording in memory: float32 samples in [-1, 1],
// interleaved by channel, so Samples[f*Channels+c] is channel c of frame f
// and len(Samples) = Frames()·Channels. A Stream delivers the same
// interleaved samples piece by piece, so that hours of audio never have to
// be one slice; Signal.Stream serves a Signal as a Stream.
//
// # Decoding
//
// Decode reads a whole file into a Signal. Open returns a Stream that
// decodes as it is read, in memory independent of the file's length. Both
// read from an io.ReadSeeker starting at its current offset and sniff the
// format from the bytes, never from a file name (Sniff exposes the
// sniffer):
//
//	Format      magic bytes                          decoder
//	WAV         "RIFF"/"RF64"/"BW64" … "WAVE"        this package
//	FLAC        "fLaC", after optional ID3v2 tags    github.com/mewkiz/flac
//	Ogg Vorbis  "OggS", first packet "\x01vorbis"    github.com/jfreymuth/oggvorbis
//	MP3         ID3v2 tag or MPEG Layer III sync     github.com/hajimehoshi/go-mp3
//
// WAV files may hold linear PCM of 1 to 32 bits (unsigned 8-bit, signed
// otherwise, left-justified in 1- to 4-byte containers), IEEE float of 32
// or 64 bits, or G.711 A-law or µ-law, in a plain or WAVE_FORMAT_EXTENSIBLE
// fmt chunk, with any number of channels. Chunks other than fmt, data and
// ds64 (LIST, fact, bext, JUNK, …) may appear anywhere and are skipped,
// odd-sized ones with their pad byte. go-audio/wav is not used to parse:
// it allocates what untrusted chunk headers claim and reads neither float
// nor G.711 data; the tests use it as a reference for integer PCM.
//
// Recognised but unsupported inputs fail with an error wrapping ErrFormat
// that says what they are: Ogg Opus, FLAC in Ogg, MPEG Layer I/II and
// MPEG-2.5, free-format MP3, compressed WAV (ADPCM, GSM, …), AIFF, MP4/M4A,
// Matroska, images and text ("looks like text, not audio: …").
//
// Sample values. An integer sample x in a b-bit container becomes
// x/2^(b−1) (WAV stores 12- or 20-bit samples left-justified, so they scale
// with their container), so the most negative code is exactly −1 and the
// most positive 1−2^(1−b):
//
//	8-bit (unsigned u)  (u−128)/128   0x00 → −1, 0x80 → 0, 0xFF → 127/128
//	16-bit              x/32768       −32768 → −1, 32767 → 32767/32768
//	24-bit              x/2^23
//	32-bit              x/2^31        float32 keeps 24 bits: 2^31−1 → 1
//	A-law, µ-law        ITU-T G.711 16-bit value/32768 (at most ±32256, ±32124)
//	FLAC                x/2^(b−1), b the stream's bits per sample
//	MP3                 go-mp3's 16-bit output/32768
//	float, Vorbis       as stored, clamped as below
//
// Policies, each chosen so that a batch job over thousands of files gets
// either usable audio or one clear error per file:
//
//   - Out-of-range floats are clamped, not rejected: NaN becomes 0, and
//     values beyond ±1, ±Inf included, become ±1. Float WAV files that
//     clipped in processing are common, and one bad sample should not
//     lose a recording.
//   - Sample rates outside [MinRate, MaxRate] = [1 kHz, 1 MHz] and zero
//     channels are malformed headers (ErrFormat).
//   - A file without sample frames (an empty WAV data chunk, say) is an
//     error wrapping ErrNoAudio from Decode; Open returns a Stream that
//     reports io.EOF at once.
//   - A WAV data chunk that declares more bytes than the file holds (a
//     recorder that was cut off), or the streaming size 0xFFFFFFFF, is
//     read to the end of the file without error; a partial last frame is
//     dropped. The data chunk's own size is honoured otherwise, so chunks
//     after it are never taken for audio.
//   - DecodeOptions.MaxDuration (default 4 h) bounds the length: it is
//     checked against the header before decoding where the format declares
//     a length (WAV data size, FLAC STREAMINFO, the last Ogg granule, the
//     MP3 frame count) and while reading in every case, and exceeding it is
//     an error wrapping ErrTooLong. DecodeOptions.MaxSamples (default 2^30,
//     4 GiB of float32) bounds Decode's memory the same way. No buffer is
//     sized from a header without a cap: a declared length is trusted in
//     full only for WAV, whose bytes are checked to be in the file.
//   - Corrupt input never panics. go-mp3 and oggvorbis panic on some
//     malformed data (found by fuzzing); those calls recover into errors
//     wrapping ErrFormat.
//   - When the reader itself fails, its error is returned, wrapped, and not
//     reported as ErrFormat.
//   - MP3 output keeps the encoder delay (about 1,100 samples) and the
//     silent Xing/Info frame at the start: go-mp3 does not trim them.
//
// # Resampling
//
// Resample (a whole Signal), ResampleStream (a Stream, in bounded memory)
// and Resampler (chunks pushed with Process, then Flush) convert between
// any two sample rates; the three give bit-identical samples. The
// rates are reduced by their GCD to to/from = L/M, and output sample n,
// at input time t = n·M/L, is the input convolved with a Kaiser-windowed
// sinc h evaluated at the offsets t − k (Smith, "Digital Audio
// Resampling"; Kaiser 1974):
//
//	y[n] = Σ_k x[k]·h(t − k),   h(u) = 2c·sinc(2c·u)·w_β(u/W),  |u| < W,
//
// with c the cutoff in cycles per input sample. The design is fixed:
// passband to 0.9 and stopband from 1.0 of the lower Nyquist frequency,
// 96 dB attenuation (β = 9.62), W from Kaiser's length formula. For
// 44.1 → 16 kHz that keeps 0–7.2 kHz flat (ripple < 0.001 dB; measured
// −0.0001 dB at 7.2 kHz, −6 dB at 7.6 kHz), rejects 8 kHz and up by at
// least 96 dB (nothing aliases into the band), and costs 340 taps per
// output sample over 160 exact phases (up to L = 1024 phases are stored
// exactly; beyond that 1024 are stored and interpolated linearly). Each
// phase is normalized to unit DC gain. The filter's delay is compensated, the
// input is taken as silent before it starts and after it ends, and n
// input frames give n·L/M output frames rounded to the nearest, as
// `sox rate` does. On a 20 Hz–21 kHz sweep the output matches
// `sox rate -v` at lag 0 to 88 dB SNR wherever the sweep is outside
// 7–9 kHz, where the two transition bands differ (sox passes up to
// 7.6 kHz with a steeper, costlier filter). Downsampling by more than
// about 130:1 is refused.
//
// Downmix and DownmixStream mix channels to mono by averaging them.
//
// # Features
//
// Fbank computes log-mel filterbank energies compatible with Kaldi's
// compute-fbank-feats and torchaudio.compliance.kaldi.fbank (largest
// difference 5e-4 on testdata/hello.wav). With the default FbankOptions,
// at 16 kHz, frame t holds samples [160t, 160t+400) — 25 ms windows
// every 10 ms, only whole windows (Kaldi's snip_edges), so n samples give
// 1 + ⌊(n − 400)/160⌋ frames — and becomes 80 values:
//
//	x ← x − mean(x)                                  remove DC
//	x[i] ← x[i] − 0.97·x[i−1],  x[0] ← 0.03·x[0]     pre-emphasis
//	x[i] ← x[i]·(½ − ½·cos(2πi/399))^0.85            Povey window (or Hann)
//	P[k] = |DFT₅₁₂(x)[k]|²,   k = 0 … 256            zero-padded to 512
//	F[t, m] = ln max(Σ_k H_m[k]·P[k], 1.19e-7),  m = 0 … 79
//
// H_m is Kaldi's triangle on the mel scale mel(f) = 1127·ln(1 + f/700):
// 82 points equally spaced in mel from 20 Hz to the Nyquist frequency,
// triangle m rising from point m to m+1 and falling to m+2 (unnormalized,
// Nyquist bin excluded). The DFT is go-dsp's FFT, two real frames packed
// in each complex transform. Samples are in [-1, 1]; Kaldi's binaries
// read 16-bit integers, so their values are ours plus 2·ln 32768 ≈ 20.79.
// The result is a Features matrix, Frames × Bins float32, frame-major.
//
// For training and inference the features are then normalized per
// utterance with CMVN (each bin to mean 0, variance 1), and, for training
// only, augmented with SpecAugment (Park et al. 2019): frequency and time
// masks set to 0, the post-CMVN mean.
//
// FbankOptions.Warp (or Fbank.SetWarp) perturbs the vocal tract length
// (VTLP, Jaitly & Hinton 2013) for training-time augmentation: each FFT
// bin's frequency f is warped to f' before H_m weighs it, f' = α·f up to
// F_hi·min(α, 1)/α (F_hi = 4800 Hz at 16 kHz) and a straight line from
// there to the Nyquist frequency, so a formant at f lands in the filter
// of α·f. α = 1 gives exactly the unwarped features.
//
// Whisper models read a different front end, openai/whisper's
// log_mel_spectrogram (whisper/audio.py), which WhisperMel reproduces:
// 400-sample periodic-Hann frames every 160 samples, centered (200
// samples reflected at each end, the last frame dropped), power spectrum,
// the model's mel filters (slaney-normalized, WhisperMelFilters; 80 or
// 128 bins), log10 clamped at 1e-10 and at the maximum − 8, (x+4)/4. Its
// WhisperSpectrogram is mel-major (Mels × Frames), as Whisper's encoder
// reads it, and Window cuts the 3000-frame windows transcribe() feeds the
// encoder, zero-padded as pad_or_trim pads them. On the reference clips
// it stays within 5e-5 of openai/whisper's own values.
//
// # Noise and reverberation
//
// For augmentation, MakeNoise draws white, pink or brown Gaussian noise
// (power ∝ 1/f^k, k = 0, 1, 2, shaped exactly in the frequency domain,
// zero below NoiseLowCut), and AddNoise and MixNoise add noise at an exact
// signal-to-noise ratio, the ratio of mean powers over the whole clip.
// ImpulseResponse makes a statistical room response (a direct impulse and
// an exponentially decaying Gaussian tail of a given RT60 and
// direct-to-reverberant ratio) and Convolve applies it by FFT.
//
// # Voice activity
//
// A VAD gives every 20 ms frame of 16 kHz mono audio a probability that
// it holds speech, so that a recognizer decodes only speech: the default
// speech model, given silence, noise or music, spells letters anyway.
// It costs far less than the features the recognizer reads: digital
// silence is a single pass over the samples (about 1.5 s for two hours
// through asr transcribe, decoding included), anything louder one
// 512-point real FFT and one 4 kHz autocorrelation per 20 ms (BenchmarkVADNoise).
//
// Each frame of 512 samples (32 ms, Hann window) every 320 yields
//
//	energy    10·log10 of its mean square, dBFS
//	flatness  geometric over arithmetic mean of the power, 250 Hz–4 kHz, dB
//	          (white noise ≈ −2.5 dB, speech and tones far below)
//	voicing   peak normalized cross-correlation of the frame (decimated to
//	          4 kHz) with itself 2.5–15 ms later (67–400 Hz; Talkin's NCCF),
//	          and the shortest lag within 5 % of that peak, the period
//	flux      mean |Δ| of 16 mel-spaced log band energies from the frame
//	          before, dB: how fast the spectrum changes
//	low share energy below 1 kHz over 100 Hz–8 kHz, dB
//
// and the classifier of frame t reads ten context features:
//
//	e(t), e(t) − floor(t)          smoothed energy (±40 ms mean) and its height
//	                               over the noise floor, the least smoothed
//	                               energy within ±1 s
//	max of e − floor over ±240 ms  speech nearby
//	std of energy over ±240 ms     syllabic modulation: speech rises and falls
//	                               3–8 times a second, steady noise and tones
//	                               do not
//	mean flatness, voicing, flux and low share over ±240 ms
//	voiced share over ±240 ms      frames with voicing above 0.7
//	steadiness over ±240 ms        of consecutive voiced frames, the share with
//	                               the very same period: instruments and tones
//	                               hold a pitch, voices glide
//
// into a small MLP (10 inputs, standardized; 16 tanh units; logistic
// output), whose weights live in vad_weights.go. TestFitVAD fits them
// (go test ./audio -run TestFitVAD -vad.fit MANIFESTS, seeded, about a
// minute) on frames of 600 training utterances (speechocean762 train,
// native-speech train, Asterisk prompts; never a test split), padded with
// silence, scaled to peaks of −40…−1 dBFS and mixed half the time with
// white, pink or brown noise, music-like notes or mains hum at 0–25 dB SNR,
// labelled speech within 30 dB of their loudest 100 ms; and on as many
// generated clips of non-speech (package audiotest: silence, dither,
// noises, tones, chords, note sequences, hum) at −5…−60 dBFS. A frame is
// speech above DefaultVADThreshold 0.5, but for one rule that overrides
// the classifier: a frame that starts or ends 240 ms of steady noise (no
// two consecutive voiced frames, frame energies within a standard
// deviation of 0.5 dB, at least 3 dB above the noise floor) has
// probability 0. Speech rises and falls by several dB within a syllable;
// broadband noise (hiss, white noise) keeps 32 ms frames within a few
// tenths of a dB. The classifier, which saw noise only as a bed under a
// whole clip, calls such noise speech (p ≈ 0.5) where it stops or starts
// against a quieter background, as in the pauses of cleaned-up speech
// joined together, and the one-sided windows catch the noise next to
// speech too, whose ±240 ms context spans the step. Coloured noise varies
// more from frame to frame (pink noise often reads as voiced at 4 kHz) and
// is left to the classifier, and so is noise at the floor, which it knows:
// under speech, the rule would take the weak edges of words buried in the
// noise (in white, pink and brown noise at 10 dB SNR, 200 speechocean762
// training utterances lost 0.71 % of their words with the rule at any
// level, 0.48 % with none or with this one). Frames within 1 s of an end see one-sided context;
// the last frames of a stream are measured on its last 32 ms rather than
// on zeros, so the end of a file does not look like a pause.
//
// Probabilities come 1 s (the noise floor's look-ahead) after their
// frame, from Write and Close in any pieces: streamed, they equal those
// of the whole recording. On the speechocean762 and native dev
// utterances the segmenter below drops the audio of 0.13 % and none of
// the reference words (words timed by forced alignment; a word is lost
// when less than half of it is kept); see pipeline/speech's
// TestVADWordLoss.
//
// # Segmentation
//
// A Segmenter splits a long recording into segments of at most
// SegmentOptions.MaxLength (15 s by default) for a recognizer that
// attends over whole utterances. It reads any Stream (mixing to mono and
// resampling to 16 kHz on the fly), and holds one segment of samples at a
// time, so hours of audio segment in about 1 MB. Segments carry their
// samples and their sample offsets in the recording, contiguous from 0 to
// the end.
//
// Without a VAD, each cut goes at the quietest point — the frame boundary
// with the lowest mean energy over the surrounding 100 ms — within the
// last 3 s before the limit; if that point is not 10 dB below the
// segment's mean energy there is no pause and the cut falls at exactly
// MaxLength.
//
// With SegmentOptions.VAD, the frames the VAD calls speech are widened by
// SpeechPad (200 ms) on each side, but only by NoisePad (150 ms) over
// frames of probability 0 (steady noise or silence), which hold no weak
// onset to keep, only noise the recognizer would decode. Gaps between them
// of MinNoSpeech (300 ms) or more become NoSpeech segments, which hold no
// samples however long (two hours of silence is one segment, read in
// bounded memory), so leading and trailing silence is trimmed and each
// speech segment starts at its true offset. A stretch of speech longer
// than MaxLength is cut in the middle of the longest run of frames the VAD
// called non-speech within the SearchWindow before the limit — a pause too
// short to be skipped, but a pause — and, only where there is none, at the
// quietest point as above. A speech segment longer than twice
// SentenceLength (3 s) is split in the middle of its longest pause of at
// least SentencePause (400 ms, before padding) that leaves SentenceLength
// on each side: a pause between two read sentences is often too short to
// end a segment, and a recognizer trained on single sentences decodes them
// better apart.
//
// TrimDigitalSilence finds the digital silence (samples within one 16-bit
// step of zero) at the ends of a segment, which a recognizer should not
// be fed: it is quieter than any microphone and skews the per-utterance
// normalization of log-mel features.
//
// # References
//
//   - IBM and Microsoft, Multimedia Programming Interface and Data
//     Specifications 1.0, 1991: RIFF and the WAVE form.
//   - Microsoft, WAVEFORMATEXTENSIBLE (mmreg.h, ksmedia.h); RFC 2361, WAVE
//     and AVI Codec Registries.
//   - EBU Tech 3306, MBWF/RF64: an extended file format for audio, 2009.
//   - ITU-T G.711, Pulse code modulation of voice frequencies, 1988.
//   - RFC 9639, Free Lossless Audio Codec (FLAC), 2024.
//   - RFC 3533, The Ogg Encapsulation Format; Xiph.Org, Vorbis I
//     specification.
//   - ISO/IEC 11172-3 and 13818-3, MPEG-1 and MPEG-2 audio.
//   - D. Talkin, A Robust Algorithm for Pitch Tracking (RAPT), in Speech
//     Coding and Synthesis, Elsevier, 1995: the normalized
//     cross-correlation function.
//   - J. Ramírez, J. C. Segura et al., Efficient voice activity detection
//     algorithms using long-term speech information, Speech Communication
//     42, 2004: context windows and hangover around frame decisions.
//   - N. Jaitly, G. E. Hinton, Vocal Tract Length Perturbation (VTLP)
//     improves speech recognition, ICML Workshop on Deep Learning for
//     Audio, Speech and Language, 2013: the frequency warp of FbankOptions.Warp.
//   - ID3 tag version 2.4.0, Main structure, id3.org, 2000.
//   - A. Radford, J. W. Kim et al., Robust Speech Recognition via
//     Large-Scale Weak Supervision, 2022 (Whisper); its front end is
//     openai/whisper's whisper/audio.py, its filters librosa's
//     filters.mel (M. Slaney, Auditory Toolbox, 1998: the mel scale and
//     the unit-area triangles).
package audio
