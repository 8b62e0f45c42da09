#!/usr/bin/env bash
# bench/run.sh: our Go benchmarks against their PyTorch twins, side by side.
#
# Usage: bench/run.sh [--quick] [--rounds N] [--tags openblas] [--threads 1,2]
#                     [--only W1,W2] [--bf16] [--replicas] [--log FILE]
#
#   --quick         one round with few iterations: a smoke run (1-3 min)
#   --rounds N      rounds of alternating runs; each cell keeps its best (default 3)
#   --tags openblas build ours with -tags openblas (cgo, OpenBLAS sgemm)
#   --bf16          our training workloads with bfloat16 products and
#                   float32 sums (the *BF16 benchmarks; AVX512_BF16 CPUs);
#                   PyTorch stays float32, so the ratio compares precisions
#   --replicas      at two threads or more, our training workloads run their
#                   batch as two replicas on two goroutines (the
#                   *Replicas benchmarks; asr train -replicas 2); PyTorch
#                   keeps one batch with intra-op threads
#   --threads LIST  thread counts: GOMAXPROCS for ours, torch + OpenMP +
#                   OpenBLAS threads for PyTorch (default 1,2)
#   --only LIST     workloads among decoder_train, bilstm_train,
#                   decoder_step_B1, decoder_step_B8 (default all)
#   --omp-wait P    OMP_WAIT_POLICY for PyTorch: passive (default) or active
#   --log FILE      keep every raw output line there (default: discarded)
#
# See bench/README.md for what is compared and how to read the table.
set -euo pipefail

die() { echo "bench/run.sh: $*" >&2; exit 2; }

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=/usr/bin/python3
TIME=/usr/bin/time
# glibc malloc raised so that PyTorch's large activations neither go to
# mmap/munmap on every allocation nor get trimmed back to the kernel
# (DESIGN.md: the default costs PyTorch 20-130%). glibc 2.36 accepts an
# mmap threshold above 32 MiB when set through the environment.
TUNED_MALLOC=(MALLOC_MMAP_THRESHOLD_=1073741824 MALLOC_TRIM_THRESHOLD_=1073741824 MALLOC_TOP_PAD_=268435456)

rounds=3 quick=0 tags="" threads="1,2" only="" log="" omp_wait=passive bf16=0 replicas=0
while (($#)); do
	case $1 in
	--quick) quick=1 rounds=1 ;;
	--rounds) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--rounds wants a positive integer, got '${2:-}'"; rounds=$2; shift ;;
	--tags) [[ ${2:-} == openblas ]] || die "--tags supports only 'openblas', got '${2:-}'"; tags=$2; shift ;;
	--threads) [[ ${2:-} =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "--threads wants a list like 1,2, got '${2:-}'"; threads=$2; shift ;;
	--bf16) bf16=1 ;;
	--replicas) replicas=1 ;;
	--only) [[ -n ${2:-} ]] || die "--only wants a list of workloads"; only=$2; shift ;;
	--log) [[ -n ${2:-} ]] || die "--log wants a file name"; log=$2; shift ;;
	--omp-wait) [[ ${2:-} =~ ^(passive|active)$ ]] || die "--omp-wait wants passive or active, got '${2:-}'"; omp_wait=$2; shift ;;
	-h | --help) sed -n '2,/^set -e/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
	shift
done
IFS=, read -r -a THREADS <<<"$threads"

# Workload table: name, Go binary, -test.bench pattern, Go iterations,
# PyTorch script + arguments, PyTorch iterations + warm-up; quick variants.
ALL_WORKLOADS=(decoder_train bilstm_train decoder_step_B1 decoder_step_B8)
declare -A GO_BIN=([decoder_train]=models/asr [bilstm_train]=models [decoder_step_B1]=models/asr [decoder_step_B8]=models/asr)
declare -A GO_PAT=([decoder_train]='^BenchmarkDecoderTrainStep$' [bilstm_train]='^BenchmarkBiLSTMTrainStep$'
	[decoder_step_B1]='^BenchmarkDecoderStepEager$/^B=1$' [decoder_step_B8]='^BenchmarkDecoderStepEager$/^B=8$')
if ((bf16)); then
	[[ -z $tags ]] || die "--bf16 needs the default build's kernels, not --tags $tags"
	grep -qw avx512_bf16 /proc/cpuinfo || die "--bf16: this CPU has no AVX512_BF16 (see /proc/cpuinfo flags)"
	GO_PAT[decoder_train]='^BenchmarkDecoderTrainStepBF16$'
	GO_PAT[bilstm_train]='^BenchmarkBiLSTMTrainStepBF16$'
fi
# With --replicas, the training workloads' patterns at two threads or more.
declare -A GO_PAT_R=([decoder_train]="${GO_PAT[decoder_train]/Step/StepReplicas}"
	[bilstm_train]="${GO_PAT[bilstm_train]/Step/StepReplicas}")
declare -A PY_CMD=([decoder_train]='decoder_step.py' [bilstm_train]='bilstm_step.py'
	[decoder_step_B1]='decoder_infer.py --batch 1' [decoder_step_B8]='decoder_infer.py --batch 8')
declare -A UNIT=([decoder_train]=s [bilstm_train]=s [decoder_step_B1]=ms [decoder_step_B8]=ms)
if ((quick)); then
	declare -A GO_N=([decoder_train]=1 [bilstm_train]=1 [decoder_step_B1]=200 [decoder_step_B8]=50)
	declare -A PY_ARGS=([decoder_train]='--warmup 1 --iters 2' [bilstm_train]='--warmup 1 --iters 1'
		[decoder_step_B1]='--warmup 20 --iters 200' [decoder_step_B8]='--warmup 20 --iters 100')
else
	declare -A GO_N=([decoder_train]=3 [bilstm_train]=1 [decoder_step_B1]=2000 [decoder_step_B8]=500)
	declare -A PY_ARGS=([decoder_train]='--warmup 2 --iters 5' [bilstm_train]='--warmup 1 --iters 3'
		[decoder_step_B1]='--warmup 100 --iters 2000' [decoder_step_B8]='--warmup 50 --iters 1000')
fi
if [[ -n $only ]]; then
	IFS=, read -r -a WORKLOADS <<<"$only"
	for w in "${WORKLOADS[@]}"; do [[ -n ${GO_PAT[$w]:-} ]] || die "unknown workload '$w' (want one of ${ALL_WORKLOADS[*]})"; done
else
	WORKLOADS=("${ALL_WORKLOADS[@]}")
fi

[[ -x $PY ]] && $PY -c 'import torch' 2>/dev/null || die "$PY cannot import torch (Debian python3-torch)"
[[ -x $TIME ]] || die "$TIME missing (Debian package 'time')"
command -v go >/dev/null || die "go not on PATH"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/attend-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
LOG=${log:-$WORK/raw.log}
: >"$LOG"
note() { echo "$*" | tee -a "$LOG" >&2; }
load() { awk '{print $1, $2, $3}' /proc/loadavg; }

# --- build ours once ------------------------------------------------------
cd "$ROOT"
build_flags=()
[[ -n $tags ]] && build_flags=(-tags "$tags")
note "building test binaries${tags:+ (-tags $tags)}"
for pkg in models/asr models; do
	go test -c "${build_flags[@]}" -o "$WORK/${pkg//\//_}.test" "./$pkg" >>"$LOG" 2>&1 ||
		{ tail -20 "$LOG" >&2; die "go test -c ./$pkg failed"; }
done
for cmd in paramcount parity; do
	go build "${build_flags[@]}" -o "$WORK/$cmd" "./bench/$cmd" >>"$LOG" 2>&1 || { tail -20 "$LOG" >&2; die "building bench/$cmd failed"; }
done

# --- parameter counts -----------------------------------------------------
count() { sed -n "s/^PARAMS model=$1 trainable=\([0-9]*\)$/\1/p"; }
go_counts=$("$WORK/paramcount")
ours_dec=$(count decoder <<<"$go_counts") ours_lis=$(count listener <<<"$go_counts")
py_dec=$($PY bench/pytorch/decoder_step.py --params | count decoder)
py_lis=$($PY bench/pytorch/bilstm_step.py --params | count listener)
params_ok=1
[[ $ours_dec == "$py_dec" && $ours_lis == "$py_lis" ]] || params_ok=0

# --- parity: the twins compute our functions (bench/parity, pytorch/parity.py)
note "checking parity of the PyTorch twins with our models"
"$WORK/parity" -o "$WORK/parity.safetensors" >>"$LOG" 2>&1 || { tail -20 "$LOG" >&2; die "bench/parity failed"; }
parity_out=$($PY bench/pytorch/parity.py "$WORK/parity.safetensors" 2>&1) || true
echo "$parity_out" >>"$LOG"
parity=$(sed -n 's/^PARITY //p' <<<"$parity_out")
parity_fail=$(sed -n 's/^parity: FAIL //p' <<<"$parity_out")
[[ $parity == ok* ]] && parity_ok=1 || parity_ok=0
rm -f "$WORK/parity.safetensors"

# --- one measurement --------------------------------------------------------
# Each run is wrapped in /usr/bin/time -v (peak RSS, the run's own CPU
# time) and /proc/stat is read around it: the busy CPU time of the whole
# machine minus the run's own is what other processes took meanwhile,
# reported in cores ("others"). run_* set SEC (seconds per iteration), RSS
# (peak KiB) and OTHERS, or leave SEC empty on failure (output in the log).
declare -A BEST BEST_OTHERS RSSMAX
failures=0
busy_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
timed() { # command...: runs it under time -v, sets OUT and OTHERS
	local b0 b1
	b0=$(busy_jiffies)
	OUT=$("$TIME" -v -o "$WORK/time.out" "$@" 2>&1) || true
	b1=$(busy_jiffies)
	echo "$OUT" >>"$LOG"
	RSS=$(sed -n 's/^\s*Maximum resident set size (kbytes): //p' "$WORK/time.out")
	OTHERS=$(awk -v busy=$((b1 - b0)) -v hz="$(getconf CLK_TCK)" '
		/User time \(seconds\)/ { own += $NF } /System time \(seconds\)/ { own += $NF }
		/Elapsed \(wall clock\)/ { n = split($NF, p, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
		END { o = (busy / hz - own) / wall; printf "%.2f", (o < 0 ? 0 : o) }' "$WORK/time.out")
}
record() { # key
	local key=$1
	if [[ -z $SEC ]]; then
		failures=$((failures + 1))
		note "  FAILED: $key (see the log${log:+ $log})"
		return
	fi
	if [[ -z ${BEST[$key]:-} ]] || awk -v a="$SEC" -v b="${BEST[$key]}" 'BEGIN{exit !(a < b)}'; then
		BEST[$key]=$SEC BEST_OTHERS[$key]=$OTHERS
	fi
	if [[ -n $RSS ]] && ((RSS > ${RSSMAX[$key]:-0})); then RSSMAX[$key]=$RSS; fi
	note "  $key: $SEC s/iter, peak RSS ${RSS:-?} KiB, others ${OTHERS} cores (load $(load))"
}

run_ours() { # workload threads
	local w=$1 t=$2 pat=${GO_PAT[$1]}
	SEC=""
	((replicas && t > 1)) && [[ -n ${GO_PAT_R[$w]:-} ]] && pat=${GO_PAT_R[$w]}
	timed env -C "$ROOT/${GO_BIN[$w]}" GOMAXPROCS="$t" OPENBLAS_NUM_THREADS="$t" \
		"$WORK/${GO_BIN[$w]//\//_}.test" -test.run '^$' \
		-test.bench "$pat" -test.benchtime "${GO_N[$w]}x" -test.benchmem
	SEC=$(awk '/^Benchmark/ { for (i = 2; i <= NF; i++) if ($i == "ns/op") printf "%.9g\n", $(i-1) / 1e9 }' <<<"$OUT" | tail -1)
}

run_torch() { # workload threads malloc(default|tuned)
	local w=$1 t=$2 m=$3 envs=()
	SEC=""
	[[ $m == tuned ]] && envs=("${TUNED_MALLOC[@]}")
	# shellcheck disable=SC2086 # PY_CMD and PY_ARGS are word lists
	timed env -u MALLOC_MMAP_THRESHOLD_ -u MALLOC_TRIM_THRESHOLD_ -u MALLOC_TOP_PAD_ "${envs[@]}" \
		OPENBLAS_NUM_THREADS="$t" OMP_NUM_THREADS="$t" MKL_NUM_THREADS="$t" OMP_WAIT_POLICY="$omp_wait" \
		"$PY" bench/pytorch/${PY_CMD[$w]} --threads "$t" ${PY_ARGS[$w]}
	SEC=$(sed -n 's/^RESULT .* sec_per_iter=\([^ ]*\) .*/\1/p' <<<"$OUT" | tail -1)
}

# --- rounds -----------------------------------------------------------------
start_load=$(load)
note "start: $(uptime)"
for ((r = 1; r <= rounds; r++)); do
	note "round $r/$rounds (load $(load))"
	for w in "${WORKLOADS[@]}"; do
		for t in "${THREADS[@]}"; do
			# Alternate who goes first, so that neither side always runs
			# right after the other's cache and frequency footprint.
			if ((r % 2)); then order=(ours torch torch_tuned); else order=(torch_tuned torch ours); fi
			for side in "${order[@]}"; do
				case $side in
				ours) run_ours "$w" "$t" ;;
				torch) run_torch "$w" "$t" default ;;
				torch_tuned) run_torch "$w" "$t" tuned ;;
				esac
				record "$w/$t/$side"
			done
		done
	done
done
end_load=$(load)
note "end: $(uptime)"

# --- table --------------------------------------------------------------------
fmt_time() { # seconds unit
	[[ -n $1 ]] || { echo "-"; return; }
	awk -v s="$1" -v u="$2" 'BEGIN { if (u == "ms") printf "%.3f ms", s * 1e3; else printf "%.3f s", s }'
}
fmt_ratio() { # torch ours
	[[ -n $1 && -n $2 ]] || { echo "-"; return; }
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}
fmt_mib() { if [[ -n $1 ]]; then awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; else echo "-"; fi; }
max_others() { printf '%s\n' "$@" | awk 'NF && $1 > m { m = $1 } END { printf "%.2f", m }'; }

commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
[[ -z $(git -C "$ROOT" status --porcelain -- attention models 2>/dev/null) ]] || commit+=" + uncommitted changes in attention/, models/"
row='%-16s %3s %11s %11s %11s %6s %7s %6s %8s %8s %8s\n'
echo
echo "attend vs PyTorch $($PY -c 'import torch; print(torch.__version__)') on $(nproc) CPUs ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1))"
echo "ours: $(go version | awk '{print $3}')${tags:+ -tags $tags}$( ((bf16)) && echo ', training products in bfloat16 (--bf16; PyTorch float32)'), commit $commit"
((replicas)) && echo "ours at two threads or more: training workloads as two replicas (--replicas)"
echo "$rounds round(s)$( ((quick)) && echo ' (--quick)'); each cell is the best (min) seconds per iteration; PyTorch OMP_WAIT_POLICY=$omp_wait"
echo "load average (1, 5, 15 min) at start: $start_load, at end: $end_load"
echo "trainable parameters: decoder ours $ours_dec, PyTorch $py_dec; listener ours $ours_lis, PyTorch $py_lis$( ((params_ok)) && echo ' (match)' || echo ' (MISMATCH)')"
echo "parity (outputs, losses, gradients vs ours, relative): ${parity:-no result}"
if ((!parity_ok)); then
	[[ -n $parity_fail ]] && sed 's/^/  /' <<<"$parity_fail" | head -8
	(($(wc -l <<<"$parity_fail") > 8)) && echo "  … (all in the log)"
fi
echo "ratio = PyTorch / ours (> 1: we are faster); +m = glibc malloc raised (${TUNED_MALLOC[*]})"
echo "others = CPU cores other processes used during the worst of the row's best runs (0 = quiet machine)"
echo
printf "$row" workload thr ours PyTorch PyTorch+m ratio ratio+m others "RSS ours" "RSS PT" "RSS PT+m"
printf "$row" "" "" "" "" "" "" "" "" MiB MiB MiB
for w in "${WORKLOADS[@]}"; do
	for t in "${THREADS[@]}"; do
		o=${BEST[$w/$t/ours]:-} p=${BEST[$w/$t/torch]:-} q=${BEST[$w/$t/torch_tuned]:-}
		printf "$row" "$w" "$t" \
			"$(fmt_time "$o" "${UNIT[$w]}")" "$(fmt_time "$p" "${UNIT[$w]}")" "$(fmt_time "$q" "${UNIT[$w]}")" \
			"$(fmt_ratio "$p" "$o")" "$(fmt_ratio "$q" "$o")" \
			"$(max_others "${BEST_OTHERS[$w/$t/ours]:-}" "${BEST_OTHERS[$w/$t/torch]:-}" "${BEST_OTHERS[$w/$t/torch_tuned]:-}")" \
			"$(fmt_mib "${RSSMAX[$w/$t/ours]:-}")" "$(fmt_mib "${RSSMAX[$w/$t/torch]:-}")" "$(fmt_mib "${RSSMAX[$w/$t/torch_tuned]:-}")"
	done
done
((params_ok)) || { echo "bench/run.sh: parameter counts differ" >&2; exit 1; }
((parity_ok)) || { echo "bench/run.sh: the PyTorch twins do not compute our functions (parity above)" >&2; exit 1; }
((failures == 0)) || { echo "bench/run.sh: $failures runs failed" >&2; exit 1; }
