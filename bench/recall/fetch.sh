#!/usr/bin/env bash
# Export, for each (repository, leaky commit) of bench/recall's case files (cases.tsv, heldout.tsv
# and pairs.tsv; $CASES alone when set), the sources sealint reads of the whole tree at that commit into bench/recall/.cache/<owner>+<name>@<12-hex leaky commit>/
# (gitignored). Only names, commits, paths and lines are committed; the code comes from here.
#
# The snapshots come from the search tool's `fetch` (argument `github:<owner>/<name>`), which
# leaves a git directory under $MIRROR (default /work/.mirror) at <owner>+<name>/..., bare
# (`repo/`) or not (`repo/.git/`). The export reuses bench/corpus/export_tree.py (the files of
# `git archive <commit>`, less any blob the snapshot lacks), then keeps Python, notebooks and C++.
# Repositories that are missing are listed at the end; the others are exported anyway.
#
# Usage: bench/recall/fetch.sh [--force]     (--force: export again even when already exported)
#   CASES=bench/recall/heldout.tsv bench/recall/fetch.sh   reads another case file (same columns;
#                                          a relative path is taken from the current directory,
#                                          then from the repository root); default: all three
set -u

here=$(cd "$(dirname "$0")" && pwd)
cases=()
for f in cases.tsv heldout.tsv pairs.tsv; do [ -f "$here/$f" ] && cases+=("$here/$f"); done
if [ -n "${CASES:-}" ]; then
    case $CASES in
        /*) cases=("$CASES") ;;
        *) if [ -f "$CASES" ]; then cases=("$(pwd)/$CASES"); else cases=("$here/../../$CASES"); fi ;;
    esac
    if [ ! -f "${cases[0]}" ]; then
        echo "fetch.sh: no case file at $CASES" >&2
        exit 2
    fi
fi
cache="$here/.cache"
mirror=${MIRROR:-/work/.mirror}
force=0
[ "${1:-}" = "--force" ] && force=1

mkdir -p "$cache"

# find_git_dir, export_snapshot, report_problems
. "$here/../lib/mirror.sh"

missing=()
bad=()
ok=0
total=0
# One export per (repo, leaky commit).
while IFS=$'\t' read -r repo leaky; do
    total=$((total + 1))
    key=${repo/\//+}
    dest="$cache/$key@${leaky:0:12}"
    stamp="$dest/.sealint-bench-commit"
    if [ $force -eq 0 ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$leaky" ]; then
        ok=$((ok + 1))
        continue
    fi
    why=$(export_snapshot "$mirror/$key" "$leaky" . "$dest")
    case $? in
        0) ;;
        1) missing+=("$repo"); continue ;;
        *) bad+=("$repo@${leaky:0:12} ($why)"); continue ;;
    esac
    # Keep what sealint reads (Python, notebooks, C++ and CUDA sources and headers); data and
    # binaries are not needed.
    find "$dest" -type f ! \( -name '*.py' -o -name '*.ipynb' -o -name '*.cpp' -o -name '*.cc' \
        -o -name '*.cxx' -o -name '*.cu' -o -name '*.cuh' -o -name '*.h' -o -name '*.hpp' \) -delete
    find "$dest" -mindepth 1 -type d -empty -delete
    echo "$leaky" > "$stamp"
    n=$(find "$dest" -type f | wc -l)
    echo "exported $repo @ ${leaky:0:12}: $n source files"
    ok=$((ok + 1))
done < <(for f in "${cases[@]}"; do
    awk -F'\t' '!/^#/ && $1 != "" && $1 != "repo" { print $1 "\t" $3 }' "$f"
done | sort -u)

echo "$ok of $total (repository, leaky commit) exports ready in $cache"
report_problems "$mirror"
exit 0
