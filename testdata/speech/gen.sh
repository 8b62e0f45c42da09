#!/bin/sh
# Renders the tiny speech manifests used by the "asr train" smoke test and
# the manifest examples: six short phrases, two espeak-ng voices (two
# "speakers"), 16 kHz mono FLAC. Requires espeak-ng, sox and flac.
set -eu
cd "$(dirname "$0")"
printf 'path\ttext\tspeaker\n' > manifest.tsv
i=0
for voice in en-us en-gb; do
	for text in "yes" "no" "seven" "good morning" "thank you" "open the door"; do
		i=$((i + 1))
		name=$(printf 'u%02d.flac' "$i")
		espeak-ng -v "$voice" -s 150 -w /tmp/gen-$$.wav "$text"
		sox /tmp/gen-$$.wav -r 16000 -c 1 -b 16 /tmp/gen-$$-16k.wav
		flac -s -f --best -o "$name" /tmp/gen-$$-16k.wav
		printf '%s\t%s\t%s\n' "$name" "$(echo "$text" | tr a-z A-Z)" "$voice" >> manifest.tsv
	done
done
rm -f /tmp/gen-$$.wav /tmp/gen-$$-16k.wav
# synthetic.tsv names four of them again, the "synthetic" manifest of the
# asr train -augment example (all of it is TTS, after all).
awk -F '\t' 'NR == 1 || $1 ~ /^u(01|04|09|12)\./' manifest.tsv > synthetic.tsv
# cmudict-tiny.dict: the manifest's words from the CMU pronouncing
# dictionary as Debian's pocketsphinx-en-us ships it, for
# asr train -phone-ctc-weight.
dict=/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict
{
	echo ";;; The words of manifest.tsv and synthetic.tsv, from Debian's pocketsphinx-en-us"
	echo ";;; cmudict-en-us.dict (CMU pronouncing dictionary, BSD licence); made by gen.sh."
	for w in yes no seven good morning thank you open the door; do
		grep -E "^$w(\([0-9]+\))? " "$dict"
	done
} > cmudict-tiny.dict
