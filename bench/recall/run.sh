#!/usr/bin/env bash
# Run sealint on the leaky (pre-fix) version of every file of bench/recall/cases.tsv ($CASES when
# set), as exported by bench/recall/fetch.sh, and print recall per rule and per shape and every
# missed case.
#
# Usage: bench/recall/run.sh [SEALINT_BINARY]        (default: $SEALINT_BINARY, else
#                                                     build/release/sealint)
#   CASES=bench/recall/heldout.tsv bench/recall/run.sh ...   scores another case file (same
#                                          columns; exported by fetch.sh with the same CASES)
#   OUT=rows.tsv bench/recall/run.sh ...   also writes one line per case (FOUND/MISSED) to
#                                          rows.tsv, to diff two binaries
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
