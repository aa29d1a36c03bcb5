#!/usr/bin/env bash
# One LibTorch file, each header setup, in interleaved rounds (a noisy VM slows them alike):
# median wall and peak RSS (/usr/bin/time) per command. See docs/performance.md, C++ section.
# usage: RUNS=3 bench/cpp_pch.sh [BUILD_DIR] [FILE]
set -euo pipefail
build=${1:-build/release}
file=${2:-examples/cpp/leaky_train.cpp}
runs=${RUNS:-3}
sealint=$build/sealint
torch=-I/usr/include/torch/csrc/api/include
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# clang++'s own PCH of the same prelude, for the floor with a PCH.
printf '#include <torch/torch.h>\n' >"$work/prelude.h"
clang++-19 -x c++-header -std=c++17 $torch -fpch-instantiate-templates "$work/prelude.h" -o "$work/prelude.pch"
"$sealint" -j1 --torch-headers=system --cache-dir "$work/warm" "$file" >/dev/null || true

names=(model system-cold system-warm system-no-cache clang-floor clang-pch)
command_for() {
  case $1 in
    model) echo "$sealint -j1 $file" ;;
    system-cold) echo "$sealint -j1 --torch-headers=system --cache-dir $work/cold $file" ;;
    system-warm) echo "$sealint -j1 --torch-headers=system --cache-dir $work/warm $file" ;;
    # A cache folder that cannot be made: the fallback, the headers parsed from source.
    system-no-cache) echo "$sealint -j1 --torch-headers=system --cache-dir /dev/null/none $file" ;;
    clang-floor) echo "clang++-19 -fsyntax-only -std=c++17 $torch $file" ;;
    clang-pch) echo "clang++-19 -fsyntax-only -std=c++17 $torch -include-pch $work/prelude.pch $file" ;;
  esac
}
for ((round = 0; round < runs; round++)); do
  for name in "${names[@]}"; do
    rm -rf "$work/cold"
    # shellcheck disable=SC2046  # the command is split into words on purpose (no spaces in paths)
    /usr/bin/time -f "$name %e %M" -a -o "$work/times" $(command_for "$name") >/dev/null 2>&1 || true
  done
done
echo "| setup | median wall | peak RSS |"
echo "| --- | --- | --- |"
for name in "${names[@]}"; do
  grep "^$name " "$work/times" | sort -k2 -n | awk -v n="$name" '
    { wall[NR] = $2; if ($3 > rss) rss = $3 }
    END { printf "| %s | %.2f s | %d MB |\n", n, wall[int((NR + 1) / 2)], rss / 1024 }'
done
