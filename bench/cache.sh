#!/usr/bin/env bash
# Times the result cache (docs/cache.md): a cold run (empty cache folder) against a warm one
# (every file's entry there) over a tree of at least 1,000 Python files, a warm run after one
# widely imported module was edited, and a run with --no-cache (what writing the entries costs a
# cold run). Issue 18's bar: warm at least 10x faster than cold.
#
# usage: bench/cache.sh BUILD_DIR [CORPUS]
#   CORPUS      folder whose .py/.pyi files are copied into the tree (default: Debian's
#               python3-torch, /usr/lib/python3/dist-packages/torch: 1,188 files, 18 MB)
#   RUNS=5      timed rounds; each round runs the three commands once, interleaved, so that noise
#               on a shared VM hits them alike
#   EDITED=torch/nn/modules/module.py   the module edited before each "one module edited" run
set -euo pipefail

usage() {
  echo "usage: bench/cache.sh BUILD_DIR [CORPUS]" >&2
  exit 2
}

[[ $# -ge 1 && $# -le 2 ]] || usage
build_dir=$1
corpus=${2:-/usr/lib/python3/dist-packages/torch}
runs=${RUNS:-5}
edited=${EDITED:-torch/nn/modules/module.py}
sealint="$build_dir/sealint"

[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench: RUNS must be a positive integer, not '$runs'" >&2; exit 2; }
[[ -x $sealint ]] || { echo "bench: no sealint executable at '$sealint' (build first: make build)" >&2; exit 2; }
sealint=$(realpath "$sealint")  # the runs start in the tree
[[ -d $corpus ]] || { echo "bench: corpus folder '$corpus' not found (Debian: apt-get install python3-torch)" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "bench: hyperfine not found (Debian: apt-get install hyperfine)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sealint-cache-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tree=$tmp/tree
cache=$tmp/cache

# Only the Python sources, in their folders: C++ is not cached, and the corpus folder itself is
# never written to.
mkdir -p "$tree"
name=$(basename "$corpus")
(cd "$(dirname "$corpus")" && find "$name" -type f \( -name '*.py' -o -name '*.pyi' \) -print0 |
  xargs -0 cp --parents -t "$tree")
files=$(find "$tree" -type f | wc -l)
((files >= 1000)) || { echo "bench: the tree has $files Python files; the bar is for 1,000 or more" >&2; exit 2; }
[[ -f $tree/$edited ]] || { echo "bench: EDITED='$edited' is not a file of the tree" >&2; exit 2; }

cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "sealint:  $sealint"
echo "tree:     $files Python files from $corpus ($(du -sh "$tree" | cut -f 1))"
echo "machine:  $(nproc) cores${cpu_model:+, $cpu_model}"
echo "timing:   $runs interleaved rounds of no cache, cold, warm, one module edited"
echo

printf -v q_sealint '%q' "$sealint"
printf -v q_cache '%q' "$cache"
printf -v q_edited '%q' "$tree/$edited"
run="cd $(printf '%q' "$tree") && $q_sealint --format json --cache-dir $q_cache ."
# The same bytes from a cold and a warm run, or the timings are of a broken cache.
(cd "$tree" && "$sealint" --format json --cache-dir "$cache" . >"$tmp/cold.json") || [[ $? == 1 ]]
(cd "$tree" && "$sealint" --format json --cache-dir "$cache" . >"$tmp/warm.json") || [[ $? == 1 ]]
[[ -s $tmp/cold.json ]] && cmp -s "$tmp/cold.json" "$tmp/warm.json" ||
  { echo "bench: a warm run printed other findings than a cold one" >&2; exit 1; }

for ((round = 1; round <= runs; round++)); do
  echo "round $round/$runs" >&2
  # sealint exits 1 on findings: --ignore-failure; output discarded.
  hyperfine --ignore-failure --output=null --shell=bash --style none --runs 1 \
    --export-json "$tmp/round-$round.json" \
    --command-name "no cache" --prepare "true" "${run/--cache-dir $q_cache/--no-cache}" \
    --command-name cold --prepare "rm -rf $q_cache" "$run" \
    --command-name warm --prepare "true" "$run" \
    --command-name "one module edited" --prepare "printf '# edited\\n' >> $q_edited" "$run" \
    2>>"$tmp/hyperfine.log" || { cat "$tmp/hyperfine.log" >&2; exit 1; }
done
echo

python3 - "$tmp"/round-*.json <<'PY'
import json
import statistics
import sys

times = {}
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        for result in json.load(f)["results"]:
            times.setdefault(result["command"], []).extend(result["times"])
print(f"{'command':<18}  {'mean [s]':>9}  {'stddev [s]':>10}  runs")
for name, sample in times.items():
    stddev = statistics.stdev(sample) if len(sample) > 1 else 0.0
    print(f"{name:<18}  {statistics.fmean(sample):>9.3f}  {stddev:>10.3f}  {len(sample)}")
cold, warm = statistics.fmean(times["cold"]), statistics.fmean(times["warm"])
print()
print(f"cold/warm: {cold / warm:.1f}x (the bar: 10x)")
print(f"cold/no cache: {cold / statistics.fmean(times['no cache']):.2f}x (what writing the entries costs)")
PY
echo "cache folder: $(du -s --apparent-size --block-size=1K "$cache" | cut -f 1) KiB for $files files"
