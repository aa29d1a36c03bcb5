#!/usr/bin/env bash
# Runs one libFuzzer target for SECONDS from its seed corpus. New inputs go to a fresh folder
# under the build tree (never into the repository); a crashing input is kept beside it as
# crash-*, leak-*, timeout-* or oom-* and printed, and the exit status is libFuzzer's (non-zero).
# usage: run.sh FUZZER SECONDS SEEDS...
set -euo pipefail
fuzzer=$1
seconds=$2
shift 2
name=$(basename "$fuzzer")
work=$(dirname "$fuzzer")/fuzz-work/$name
rm -rf "$work/corpus"
mkdir -p "$work/corpus" "$work/artifacts"
# -timeout: one input may take 25 s (a parse's own budget is 10 s); -rss_limit_mb: a parse's
# memory budget is 2 GiB, ASan's shadow adds to it.
exec "$fuzzer" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=6144 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$work/corpus" "$@"
