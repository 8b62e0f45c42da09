#!/usr/bin/env bash
# The recipe of attend's default caption model, stage by stage, as ESPnet
# writes its egs2/*/asr1/run.sh: the flags of each command are in conf/
# beside this script, the data and the order here, the results in
# docs/model-card-caption.md and docs/training-caption.md.
#
# Usage: docs/recipes/caption/run.sh [--stage N] [--stop-stage N] [--tiny]
#                                    [--out DIR] [--data DIR] [--encoder FILE]
#                                    [--caption COMMAND]
#
#   --stage, --stop-stage  run stages N to M (default 0 to 3):
#        0  features: the encoder over Flickr8k's train and dev images
#           (2-3 minutes)
#        1  the soft-attention decoder, cross-entropy
#        2  self-critical fine-tuning: the release, and the memory of
#           the training images that reranks its beam
#        3  the hard-attention decoder (not shipped)
#   --tiny   every stage on the six images of testdata/caption for a few
#            steps (conf/tiny/ appended to each command): a check that the
#            recipe runs, in seconds; its model is a toy
#   --out    where runs, the feature cache and models go
#            (default runs/recipe-caption)
#   --data   the development data (default ../shared/data)
#   --encoder  the encoder file (default $ATTEND_ENCODER, else
#            DATA/mobilenet-edgetpu/mobilenet_edgetpu_224_1.0_uint8.tflite,
#            MobileNet-EdgeTPU, the default model's; the MobileNetV2 file
#            DATA/mobilenet/mobilenet_v2_1.0_224_quant.tflite makes the
#            previous default); with --tiny and no encoder file, stage 0
#            takes the test features testdata/caption/features-7x7.safetensors
#            instead
#   --caption  the caption command (default: caption on $PATH, else
#            go run ./cmd/caption)
#
# Paths are relative to the repository root, where the script runs.
set -euo pipefail

tool=caption stop_stage=3 out=runs/recipe-caption encoder=${ATTEND_ENCODER:-}
option() {
  case "$1" in
    --encoder) encoder=$2 ;;
    *) return 1 ;;
  esac
}
source "$(dirname "$0")/../lib.sh"
if [ -z "$encoder" ]; then encoder=$data/mobilenet-edgetpu/mobilenet_edgetpu_224_1.0_uint8.tflite; fi
if [ -e "$encoder" ]; then encoder=$(cd "$(dirname "$encoder")" && pwd)/$(basename "$encoder"); fi

if [ -n "$tiny" ]; then dataset=testdata/caption; else dataset=$data/flickr8k; fi
cache=$out/features-7x7.safetensors
r=$out/runs
train() { run train $(flags "$1" train) -cache "$cache" "${@:2}" "$dataset"; }

if step 0; then
  echo "== stage 0: features" >&2
  if [ -n "$tiny" ] && [ ! -e "$encoder" ]; then
    echo "run.sh: no encoder file: the features are testdata/caption/features-7x7.safetensors" >&2
    cp testdata/caption/features-7x7.safetensors "$cache"
  else
    run features -encoder "$encoder" $(flags features) -o "$cache" "$dataset"
  fi
fi

if step 1; then
  echo "== stage 1: the soft-attention decoder" >&2
  train soft -o $r/caption-soft
fi

if step 2; then
  echo "== stage 2: self-critical fine-tuning" >&2
  # From the last checkpoint: the default's cross-entropy run kept
  # improving CIDEr-D after its best BLEU-4.
  train scst -o $r/scst -init $r/caption-soft/last.safetensors
  run export -o $out/default.safetensors $r/scst/best.safetensors
  run memory $(flags memory) -cache "$cache" -o $out/default-memory.safetensors "$dataset"
  echo "run.sh: the model is $out/default.safetensors and its memory $out/default-memory.safetensors (models/caption/ ships both)" >&2
fi

if step 3; then
  echo "== stage 3: the hard-attention decoder (not shipped)" >&2
  train hard -o $r/caption-hard -init $r/caption-soft/best.safetensors
fi
