#!/usr/bin/env bash
# Run sealint over every repository exported by bench/corpus/fetch.sh, join its findings with
# bench/corpus/judgements.tsv, and print precision per rule and every unjudged finding.
#
# Usage: bench/corpus/run.sh [SEALINT_BINARY]        (default: build/release/sealint)
#   OUT=rows.tsv bench/corpus/run.sh ...   also writes the raw findings (repo path line rule
#                                          severity message) to rows.tsv, to diff two binaries
#   JOBS=N                                 sealint --jobs (default: all cores)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-$root/build/release/sealint}
case $bin in /*) ;; *) bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") ;; esac
if [ ! -x "$bin" ]; then
    echo "run.sh: no sealint binary at $bin (build it, or pass its path)" >&2
    exit 2
fi
exec python3 "$here/run.py" "$bin"
