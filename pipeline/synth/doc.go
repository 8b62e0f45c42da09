// Package synth renders text into labelled training speech with the
// text-to-speech engines installed on the machine, and augments it so that
// a recognizer trained on it meets real rooms, noise and telephones.
//
// # Engines and voices
//
// Three engines are known (Engines), each an external program run once per
// clip:
//
//	engine     program      voices (Debian)                               output
//	espeak-ng  espeak-ng    8 English accents × (plain + ~100 variants)   22.05 kHz
//	flite      flite        kal, kal16, awb, rms, slt                     8 / 16 kHz
//	festival   text2wave    kal_diphone, ked_diphone, cmu_us_slt_arctic_hts  16 / 32 kHz
//
// Discover asks each for its voices at run time (espeak-ng --voices, flite
// -lv, festival's voice.list, with a test render or language check where a
// listing can name voices that do not work) and reports an engine that is
// not installed with ErrNotInstalled, so a command can say "not installed
// (skipped)" and go on with the rest. A Voice, "engine/name", is the
// manifest's speaker: a speaker-disjoint dev split holds whole voices out.
// Some voices share a human donor across engines (Kal: flite kal and kal16,
// festival kal_diphone; SLT: flite slt, festival cmu_us_slt_arctic_hts),
// so such a split is voice-disjoint, not donor-disjoint.
//
// # The plan of a clip
//
// Every random choice for sentence i is drawn by NewPlan from a PCG
// generator seeded with (Seed, i), never from a shared stream, so the same
// seed, sentences and voices give bit-identical clips whatever the number
// of workers and the order they finish in. The engine is drawn uniformly,
// then a voice of it: espeak-ng's hundreds of variants would otherwise
// take nearly every clip, though its formant synthesis is the least
// natural of the three.
//
// # The augmentation chain
//
// Augment applies, in this order (defaults are the Options ranges; the
// command line's fractions in brackets):
//
//  1. Speaking rate, 0.85–1.25× the voice's own, set by the engine itself
//     (espeak-ng -s words per minute, flite duration_stretch, festival
//     Duration_Stretch or the HTS engine's -r). The range is a judgement:
//     wide enough to vary rhythm, narrow enough to keep the diphone voices
//     free of stretching artefacts.
//  2. Pitch, 0.9–1.1: the engine's output is read as if sampled at
//     rate·Pitch and resampled to 16 kHz (audio.Resample, Kaiser-windowed
//     sinc), which scales every frequency, F0 and formants alike, by
//     Pitch — the speed perturbation of Ko et al. (2015, "Audio
//     augmentation for speech recognition"), whose 0.9/1.0/1.1 factors
//     this range spans. It also speeds speech up by Pitch, so the engine
//     is asked for rate/Pitch and the net rate stays in step 1's range.
//     Formants moving with F0 imitate a shorter or longer vocal tract,
//     which is what makes new "speakers" out of a handful of voices.
//  3. Reverberation [30% of clips]: convolution (FFT, audio.Convolve) with
//     audio.ImpulseResponse, a unit direct impulse followed after 3 ms by
//     Gaussian noise decaying by 60 dB in RT60 = 0.2–0.8 s (living rooms
//     to classrooms), scaled to a direct-to-reverberant ratio of 0–15 dB.
//     The clip grows by the response's length.
//  4. Additive noise [75% of clips]: white, pink or brown (power ∝ 1/f^k,
//     k = 0, 1, 2, zero below 20 Hz) Gaussian noise, shaped exactly in the
//     frequency domain, at 10–40 dB SNR, where SNR is the ratio of mean
//     powers over the whole clip (pauses included): from clearly noisy to
//     barely audible.
//  5. Telephone line [0% of clips; asr train can do it on the fly
//     instead]: resampling to 8 kHz and back, with G.711 µ-law companding
//     at 8 kHz in between (audio.Telephone). Measured on tones: 0–3.6 kHz
//     pass within 0.001 dB, 3.8 kHz is down 12 dB and 4.2 kHz and up more
//     than 100 dB, as in narrowband telephony (300–3400 Hz, G.711), so the
//     model also learns from speech with no energy above 4 kHz and with
//     the codec's level-dependent quantization noise (about 38 dB below
//     the signal).
//  6. Peak level −6 to −1 dBFS, then 16-bit PCM: level variety without
//     clipping (the front end's normalization removes most of it anyway).
//
// Reverberation comes before noise because background noise reaches the
// microphone diffusely, not as the talker's reflections; the telephone
// band comes after both, since a telephone filters what the room
// delivers.
//
// # Text
//
// ReadSentences reads one sentence per line. The transcript is
// pipeline/speechdata.Normalize of the line, the form asr train trains and
// scores on. Lines whose speech would not match it are skipped and
// counted: digits (engines and Normalize read numbers differently),
// symbols an engine reads aloud ("&", "%", "@"), letters outside ASCII,
// all-capital words (spelled by some engines, read as words by others),
// lone letters other than a, i, o (read as their names) and common
// abbreviations ("mr" is read "mister"). Select removes repeated
// transcripts and draws a seeded sample.
//
// # Output and resuming
//
// Run renders a Job with parallel workers into a directory:
//
//	DIR/manifest.tsv     header "path\ttext\tspeaker", rows in sentence order
//	DIR/wav/000123.wav   sentence 123: 16 kHz mono 16-bit PCM, written atomically
//	DIR/settings.json    sentences (SHA-256), voices and options
//
// Running the same job again renders only the missing clips and rewrites
// the manifest; a directory rendered with other settings is refused
// (ErrSettingsChanged), since its clips would get the wrong labels.
// Sentences that fail (an engine error, silence) are listed in the
// Summary and left out of the manifest.
package synth
