#!/usr/bin/env bash
# The recipe of attend's default speech model, stage by stage, as ESPnet
# writes its egs2/*/asr1/run.sh: the flags of each command are in conf/
# beside this script, the data and the order here, the results in
# docs/model-card-asr.md and docs/training-speech.md.
#
# Usage: docs/recipes/asr/run.sh [--stage N] [--stop-stage N] [--tiny]
#                                [--out DIR] [--data DIR] [--asr COMMAND]
#
#   --stage, --stop-stage  run stages N to M (default 0 to 11):
#        0  data: the speechocean762 dev/train split, the native sets, the
#           Asterisk prompts, the first synthetic set
#        1  the model from scratch          6  a fourth listener layer
#        2  fine-tuned on the new split     7  a fifth layer, synth3
#        3  augmented copies                8  the phone head moved up, synth4
#        4  a phone CTC head                9  all of synth4, slow synth5
#        5  a third listener layer         10  an annealed epoch: the release
#       11  the word language model (with --tiny, a test 3-gram mixed in)
#   --tiny   every stage on the test clips of testdata/speech for a few
#            steps (conf/tiny/ appended to each command): a check that the
#            recipe runs, in well under a minute; its model is a toy
#   --out    where runs, manifests and models go (default runs/recipe-asr)
#   --data   the development data (default ../shared/data)
#   --asr    the asr command (default: asr on $PATH, else go run ./cmd/asr)
#
# Paths are relative to the repository root, where the script runs. The
# full recipe takes days on 2 cores and needs Debian's espeak-ng flite
# festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts
# asterisk-core-sounds-en-wav asterisk-core-sounds-en pocketsphinx-en-us;
# its snapshot steps are those of our runs, deterministic for their seeds.
set -euo pipefail

tool=asr stop_stage=11 out=runs/recipe-asr
source "$(dirname "$0")/../lib.sh"

train() { run train $(flags "$1" train) "${@:2}"; }
# average OUT DIR STEP... averages the snapshots of those steps of DIR
# (--tiny: the snapshots there are).
average() {
  local dst=$1 dir=$2 s snaps=()
  shift 2
  if [ -n "$tiny" ]; then
    snaps=("$dir"/snapshot-*.safetensors)
  else
    for s in "$@"; do snaps+=("$dir/snapshot-$s.safetensors"); done
  fi
  run average -o "$dst" "${snaps[@]}"
}
export_f16() { run export -o "$2" "$1"; }
# synth DIR CONF renders a synthetic set (--tiny, with no TTS engine
# installed: the test clips of testdata/speech/synthetic.tsv instead).
synth() {
  if [ -n "$tiny" ] && ! command -v espeak-ng >/dev/null && ! command -v flite >/dev/null && ! command -v festival >/dev/null; then
    echo "run.sh: no TTS engine: $1 is testdata/speech/synthetic.tsv" >&2
    mkdir -p "$1"
    absolute testdata/speech/synthetic.tsv >"$1/manifest.tsv"
    return
  fi
  run synth -o "$1" $(flags "$2" synth) $text
}
# absolute MANIFEST prints a manifest with its paths made absolute.
absolute() {
  awk -F'\t' -v OFS='\t' -v s="$(cd "$(dirname "$1")" && pwd)" 'NR==1 && $1=="path"{print;next} {$1=s"/"$1; print}' "$1"
}

m=$out   # manifests and stage models
r=$out/runs
if [ -n "$tiny" ]; then
  text=testdata/sentences.txt
else
  text="$data/text/*.txt"
fi
S=$m/synth2/manifest.tsv,$m/synth3/manifest.tsv,$m/synth4/manifest.tsv,$m/synth5/manifest.tsv
dev="-dev $m/so-dev.tsv"
base="$m/so-train.tsv $m/native-train.tsv $m/asterisk.tsv"

if step 0; then
  echo "== stage 0: data" >&2
  if [ -n "$tiny" ]; then
    for f in so-train so-dev native-dev; do absolute testdata/speech/manifest.tsv >"$m/$f.tsv"; done
    for f in native-train asterisk; do absolute testdata/speech/synthetic.tsv >"$m/$f.tsv"; done
  else
    # The dev split of docs/model-card-asr.md#evaluation-data.
    so=$data/speechocean762 native=$data/native-speech
    held='0026|0104|1336|1372|2168|2208|3208|9604|9615|9616|9639|9643|3012|0133|3060|1181|0461|2112'
    for f in train extra; do awk -F'\t' -v OFS='\t' -v s=$so 'NR>1{print s"/"$1,$2,$3}' $so/$f.tsv; done >"$m/so-all.tsv"
    (printf 'path\ttext\tspeaker\n'; grep -P "\t($held)\$" "$m/so-all.tsv") >"$m/so-dev.tsv"
    (printf 'path\ttext\tspeaker\n'; grep -vP "\t($held)\$" "$m/so-all.tsv") >"$m/so-train.tsv"
    awk -F'\t' -v OFS='\t' -v s=$native 'NR==1{print;next} $1~/^voxforge/{print s"/"$1,$2,$3}' $native/manifest.tsv >"$m/native-dev.tsv"
    awk -F'\t' -v OFS='\t' -v s=$native 'NR==1{print;next} $1!~/^voxforge/{print s"/"$1,$2,$3}' $native/manifest.tsv >"$m/native-train.tsv"
    ( printf 'path\ttext\tspeaker\n'
      zcat /usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz | grep -v '^;' | grep ': ' | grep -v ': \[' |
      while IFS= read -r l; do f=/usr/share/asterisk/sounds/en/${l%%: *}.wav
        [ -e "$f" ] && printf '%s\t%s\tasterisk\n' "$f" "${l#*: }"; done ) >"$m/asterisk.tsv"
  fi
  synth "$m/synth" synth1
fi

if step 1; then
  echo "== stage 1: from scratch" >&2
  # speechocean762's train.tsv whole: asr train holds out 12 speakers itself
  first=$data/speechocean762/train.tsv
  if [ -n "$tiny" ]; then first=$m/so-train.tsv; fi
  d="$first $m/asterisk.tsv $m/synth/manifest.tsv"
  train stage1 -o $r/asr $d
  train stage1b -o $r/asr $d
  average $m/stage1.safetensors $r/asr 7226 8674 9760   # epochs 21, 23, 24
fi

if step 2; then
  echo "== stage 2: fine-tuned on the new split" >&2
  train stage2 -o $r/ft1 -init $m/stage1.safetensors $dev $base
  average $m/stage2.safetensors $r/ft1 4270 4575 4880 5185   # epochs 14-17
  synth "$m/synth2" synth2
  train stage2b -o $r/ft1 -init $m/stage1.safetensors $dev $base $m/synth2/manifest.tsv
  average $m/stage2b.safetensors $r/ft1 5490 5795 6600 7405   # epochs 18-21
fi

if step 3; then
  echo "== stage 3: augmented copies" >&2
  train stage3 -o $r/ft2 -init $m/stage2b.safetensors -synthetic $m/synth2/manifest.tsv $dev $base $m/synth2/manifest.tsv
  average $m/stage3.safetensors $r/ft2 2832 4248 5664 7080   # epochs 2-5
fi

if step 4; then
  echo "== stage 4: a phone CTC head" >&2
  train stage4 -o $r/ph1 -init $m/stage3.safetensors -synthetic $m/synth2/manifest.tsv $dev $base $m/synth2/manifest.tsv
  average $m/stage4.safetensors $r/ph1 4248 5664 7080 8496   # epochs 3-6
  export_f16 $m/stage4.safetensors $m/stage4-f16.safetensors
fi

if step 5; then
  echo "== stage 5: a third listener layer" >&2
  train stage5 -o $r/grow1 -init $m/stage4-f16.safetensors -synthetic $m/synth2/manifest.tsv $dev $base $m/synth2/manifest.tsv
  average $m/stage5.safetensors $r/grow1 4248 5664 7080   # epochs 3-5
  export_f16 $m/stage5.safetensors $m/stage5-f16.safetensors
fi

if step 6; then
  echo "== stage 6: a fourth listener layer" >&2
  train stage6a -o $r/grow1 -init $m/stage4-f16.safetensors -synthetic $m/synth2/manifest.tsv $dev $base $m/synth2/manifest.tsv
  average $m/stage5b.safetensors $r/grow1 4248 5664 7080 8496 9912 11328   # epochs 3-8
  train stage6 -o $r/grow4 -init $m/stage5b.safetensors -synthetic $m/synth2/manifest.tsv $dev $base $m/synth2/manifest.tsv
  average $m/stage6.safetensors $r/grow4 8496 9912 11328   # epochs 6-8
  export_f16 $m/stage6.safetensors $m/stage6-f16.safetensors
fi

if step 7; then
  echo "== stage 7: a fifth listener layer, synth3" >&2
  synth "$m/synth3" synth3
  train stage7 -o $r/grow5 -init $m/stage6.safetensors -synthetic $m/synth2/manifest.tsv,$m/synth3/manifest.tsv \
    $dev $base $m/synth2/manifest.tsv $m/synth3/manifest.tsv
  average $m/stage7.safetensors $r/grow5 7998 10664   # epochs 3-4
  export_f16 $m/stage7.safetensors $m/stage7-f16.safetensors
fi

if step 8; then
  echo "== stage 8: the phone head on the third layer, synth4's first 7,620 clips" >&2
  # Our run stopped synth4 after 7,620 clips; rendering all 20,000 now costs only
  # time (the clips are the same), and the manifest lists them in order.
  synth "$m/synth4" synth4
  if [ -n "$tiny" ]; then keep=2; else keep=7621; fi
  head -n $keep $m/synth4/manifest.tsv >$m/synth4/first.tsv
  train stage8 -o $r/phl2 -init $m/stage7.safetensors \
    -synthetic $m/synth2/manifest.tsv,$m/synth3/manifest.tsv,$m/synth4/first.tsv \
    $dev $base $m/synth2/manifest.tsv $m/synth3/manifest.tsv $m/synth4/first.tsv
  average $m/stage8.safetensors $r/phl2 9426 12568 15710   # epochs 3-5
  export_f16 $m/stage8.safetensors $m/stage8-f16.safetensors
fi

if step 9; then
  echo "== stage 9: all of synth4, slow synth5" >&2
  synth "$m/synth4" synth4   # all 20,000 (done already here)
  synth "$m/synth5" synth5
  train stage9 -o $r/s9 -init $m/stage8-f16.safetensors -synthetic $S $dev $base ${S//,/ }
  average $m/stage9.safetensors $r/s9 5200 6500 7800 9100 10054   # epoch 2's five snapshots
  export_f16 $m/stage9.safetensors $m/stage9-f16.safetensors
fi

if step 10; then
  echo "== stage 10: an annealed epoch, averaged with stage 9" >&2
  train stage10 -o $r/s10 -init $m/stage9-f16.safetensors -synthetic $S $dev $base ${S//,/ }
  if [ -n "$tiny" ]; then
    run average -o $m/stage10.safetensors $m/stage9-f16.safetensors $(ls $r/s10/snapshot-*.safetensors | tail -n 1)
  else
    run average -o $m/stage10.safetensors $m/stage9-f16.safetensors $r/s10/snapshot-5027.safetensors   # the anneal's end
  fi
  export_f16 $m/stage10.safetensors $m/default.safetensors
  echo "run.sh: the model is $m/default.safetensors (models/asr/default.safetensors ships it)" >&2
fi

if step 11; then
  echo "== stage 11: the word language model" >&2
  in="$m/so-train.tsv $m/native-train.tsv $m/asterisk.tsv"
  run train-lm -o $m/default-lm.arpa.gz $(flags lm lm-mix) -dev $m/so-dev.tsv $text $in $in $in $in $in
  echo "run.sh: the language model is $m/default-lm.arpa.gz (models/lm ships it)" >&2
fi
