# The machinery both recipes' run.sh share: their common options, the
# flags of conf/, stage ranges. A run.sh sets tool (asr, caption),
# stop_stage and out, may define "option NAME VALUE" for options of its
# own (failing on a name it does not know), and sources this file with its
# arguments; it then runs from the repository root, out and data absolute.

stage=0 tiny="" data=../shared/data cmd=""
while [ $# -gt 0 ]; do
  case "$1" in
    --stage) stage=$2; shift 2 ;;
    --stop-stage) stop_stage=$2; shift 2 ;;
    --tiny) tiny=1; shift ;;
    --out) out=$2; shift 2 ;;
    --data) data=$2; shift 2 ;;
    --"$tool") cmd=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *)
      if [ $# -ge 2 ] && declare -F option >/dev/null && option "$1" "$2"; then
        shift 2
      else
        echo "run.sh: unknown argument $1 (see --help)" >&2
        exit 2
      fi ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
conf=$here/conf
cd "$here/../../.."
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -d "$data" ]; then data=$(cd "$data" && pwd); fi
if [ -z "$cmd" ]; then
  if command -v "$tool" >/dev/null; then cmd=$tool; else cmd="go run ./cmd/$tool"; fi
fi

# flags NAME... prints the flags of conf/NAME.conf for each name, each
# followed with --tiny by those of conf/tiny/NAME.conf (later flags win).
flags() {
  local name f
  for name in "$@"; do
    for f in "$conf/$name.conf" ${tiny:+"$conf/tiny/$name.conf"}; do
      if [ -e "$f" ]; then sed 's/#.*//' "$f"; fi
    done
  done | tr '\n' ' '
}

# run runs the tool, saying so.
run() {
  echo "+ $tool $*" >&2
  $cmd "$@"
}

# step N says whether stage N is in the range asked for.
step() { [ "$stage" -le "$1" ] && [ "$stop_stage" -ge "$1" ]; }
