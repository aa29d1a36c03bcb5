#!/usr/bin/env bash
# Recall against the census: the leaks listed by reading ten-odd repositories of bench/corpus
# before sealint was run on them (census.tsv). Runs sealint on each listed file in its corpus
# export (bench/corpus/fetch.sh makes them) and prints recall per rule and per shape.
#
# Usage: bench/census/run.sh [SEALINT_BINARY]   (default: $SEALINT_BINARY, else build/release/sealint)
#   OUT=rows.tsv bench/census/run.sh ...        also writes one line per leak (FOUND/MISSED)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-${SEALINT_BINARY:-$root/build/release/sealint}}
case $bin in /*) ;; *) bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") ;; esac
if [ ! -x "$bin" ]; then
    echo "run.sh: no sealint binary at $bin (build it, or pass its path)" >&2
    exit 2
fi
exec python3 "$here/run.py" "$bin"
