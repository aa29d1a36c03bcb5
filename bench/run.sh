#!/usr/bin/env bash
# Times sealint against its own floor (tree-sitter parsing every file, --parse-only) on a real
# corpus, with one thread and with all cores, and prints mean ± stddev and analysis/floor ratios.
# Python only: the corpus's C++ files (torch ships a few) are left out with --exclude, since a
# Clang parse of one of them costs more than the whole Python tree (bench/cpp_pch.sh times C++).
#
# usage: bench/run.sh BUILD_DIR [CORPUS]
#   CORPUS      folder of Python code (default: /usr/lib/python3/dist-packages/torch)
#   RUNS=5      timed runs of each command
#   WARMUP=1    untimed runs of each command first
#   INTERLEAVE=1  one hyperfine call per round, the four commands in each, so that noise on a
#               shared VM hits every command alike (hyperfine itself runs all the runs of one
#               command before starting the next); INTERLEAVE=0 makes one hyperfine call.
set -euo pipefail

usage() {
  echo "usage: bench/run.sh BUILD_DIR [CORPUS]" >&2
  exit 2
}

[[ $# -ge 1 && $# -le 2 ]] || usage
build_dir=$1
corpus=${2:-/usr/lib/python3/dist-packages/torch}
runs=${RUNS:-5}
warmup=${WARMUP:-1}
interleave=${INTERLEAVE:-1}
sealint="$build_dir/sealint"

[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench: RUNS must be a positive integer, not '$runs'" >&2; exit 2; }
[[ $warmup =~ ^[0-9]+$ ]] || { echo "bench: WARMUP must be an integer, not '$warmup'" >&2; exit 2; }
[[ -x $sealint ]] || { echo "bench: no sealint executable at '$sealint' (build first: make build)" >&2; exit 2; }
[[ -d $corpus ]] || { echo "bench: corpus folder '$corpus' not found (Debian: apt-get install python3-torch)" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "bench: hyperfine not found (Debian: apt-get install hyperfine)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench: python3 not found" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sealint-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Commands run through hyperfine's shell: quote the paths for it.
printf -v q_sealint '%q' "$sealint"
printf -v q_corpus '%q' "$corpus"
# The extensions analyzer/cpp/frontend.cpp's is_cpp_source reads as C++.
no_cpp_args=(--exclude '*.cpp' --exclude '*.cc' --exclude '*.cxx' --exclude '*.cu')
printf -v no_cpp '%q ' "${no_cpp_args[@]}"
names=("floor, 1 thread" "analysis, 1 thread" "floor, all cores" "analysis, all cores")
# --no-cache: every run analyses every file (bench/cache.sh measures the result cache).
commands=(
  "$q_sealint --parse-only --jobs 1 $no_cpp$q_corpus"
  "$q_sealint --no-cache --jobs 1 --format json $no_cpp$q_corpus"
  "$q_sealint --parse-only $no_cpp$q_corpus"
  "$q_sealint --no-cache --format json $no_cpp$q_corpus"
)
hyperfine_args=()
for i in "${!names[@]}"; do
  hyperfine_args+=(--command-name "${names[$i]}" "${commands[$i]}")
done

cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "sealint:  $sealint"
python_files=$(find "$corpus" -type f \( -name '*.py' -o -name '*.pyi' \) | wc -l)
python_bytes=$(find "$corpus" -type f \( -name '*.py' -o -name '*.pyi' \) -printf '%s\n' | awk '{s += $1} END {printf "%.1f", s / 1048576}')
echo "corpus:   $corpus ($python_files .py/.pyi files, $python_bytes MiB; C++ files left out)"
echo "machine:  $(nproc) cores${cpu_model:+, $cpu_model}"
echo "timing:   $warmup warmup + $runs runs per command, $([[ $interleave == 0 ]] && echo "one hyperfine call" || echo "interleaved rounds")"
echo

# sealint exits 1 when it finds something: --ignore-failure, and the exit codes are checked below.
# Output is discarded (--output=null).
common=(--ignore-failure --output=null --shell=bash)
if [[ $interleave == 0 ]]; then
  hyperfine "${common[@]}" --style basic --warmup "$warmup" --runs "$runs" \
    --export-json "$tmp/round-1.json" "${hyperfine_args[@]}"
else
  for ((round = 1; round <= runs; round++)); do
    echo "round $round/$runs" >&2
    round_warmup=0
    ((round == 1)) && round_warmup=$warmup
    hyperfine "${common[@]}" --style none --warmup "$round_warmup" --runs 1 \
      --export-json "$tmp/round-$round.json" "${hyperfine_args[@]}" 2>>"$tmp/hyperfine.log" ||
      { cat "$tmp/hyperfine.log" >&2; exit 1; }
  done
  # Its warnings, once each, less the expected one about exit status 1.
  grep -v -e 'Ignoring non-zero exit code' -e '^[[:space:]]*$' "$tmp/hyperfine.log" | sort -u >&2 || true
fi
echo

table_status=0
python3 - "${names[@]}" -- "$tmp"/round-*.json <<'PY' || table_status=$?
import json
import statistics
import sys

args = sys.argv[1:]
split = args.index("--")
names, files = args[:split], args[split + 1:]
times = {name: [] for name in names}
codes = {name: set() for name in names}
for path in files:
    with open(path, encoding="utf-8") as f:
        for result in json.load(f)["results"]:
            times[result["command"]].extend(result["times"])
            codes[result["command"]].update(result.get("exit_codes") or [])

def mean(name):
    return statistics.fmean(times[name])

width = max(len(name) for name in names)
print(f"{'command':<{width}}  {'mean [s]':>9}  {'stddev [s]':>10}  runs")
for name in names:
    sample = times[name]
    stddev = statistics.stdev(sample) if len(sample) > 1 else 0.0
    print(f"{name:<{width}}  {mean(name):>9.3f}  {stddev:>10.3f}  {len(sample)}")
print()
print(f"analysis/floor (1 thread):  {mean('analysis, 1 thread') / mean('floor, 1 thread'):.2f}")
print(f"analysis/floor (all cores): {mean('analysis, all cores') / mean('floor, all cores'):.2f}")

# 0: clean, 1: findings, 2: input errors (still a full run). Anything else (a crash, a
# signal) means the timings are of a failing program.
bad = False
for name in names:
    allowed = {0} if name.startswith("floor") else {0, 1}
    unexpected = sorted(codes[name] - allowed, key=lambda code: -1 if code is None else code)
    if unexpected:
        print(f"warning: '{name}' exited with {unexpected}", file=sys.stderr)
        bad = bad or any(code is None or code > 2 for code in unexpected)
sys.exit(1 if bad else 0)
PY

echo
if [[ -x /usr/bin/time ]]; then
  status=0
  /usr/bin/time -v "$sealint" --no-cache --format json "${no_cpp_args[@]}" "$corpus" >/dev/null 2>"$tmp/time.txt" || status=$?
  peak_kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
  if [[ -n $peak_kb ]]; then
    echo "peak RSS (analysis, all cores): $((peak_kb / 1024)) MiB (exit status $status)"
  else
    echo "peak RSS: not measured, /usr/bin/time printed no maximum resident set size" >&2
  fi
else
  echo "peak RSS: skipped, /usr/bin/time is not installed (Debian package 'time')"
fi
exit "$table_status"
