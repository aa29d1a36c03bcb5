#!/usr/bin/env bash
# Export each repository of bench/corpus/manifest.tsv, at its pinned commit, into
# bench/corpus/.cache/<owner>+<name>/ (gitignored).
#
# The snapshots come from the search tool's `fetch` (argument `github:<owner>/<name>`), which
# leaves a git directory under $MIRROR (default /work/.mirror) at <owner>+<name>/..., bare
# (`repo/`) or not (`repo/.git/`). This script finds that git directory, checks that the pinned
# commit is in it, and exports the manifest's subdir at that commit (export_tree.py: the files
# of `git archive <commit> <subdir>`, less any blob the snapshot lacks).
# Repositories that are missing are listed at the end; the others are exported anyway.
#
# Usage: bench/corpus/fetch.sh [--force]     (--force: export again even when already exported)
set -u

here=$(cd "$(dirname "$0")" && pwd)
manifest="$here/manifest.tsv"
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
while IFS=$'\t' read -r repo commit subdir why; do
    [ "$repo" = "repo" ] && continue          # header
    [ -z "$repo" ] && continue
    key=${repo/\//+}
    dest="$cache/$key"
    stamp="$dest/.sealint-bench-commit"
    if [ $force -eq 0 ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$commit $subdir" ]; then
        ok=$((ok + 1))
        continue
    fi
    why=$(export_snapshot "$mirror/$key" "$commit" "$subdir" "$dest")
    case $? in
        0) ;;
        1) missing+=("$repo"); continue ;;
        *) bad+=("$repo ($why)"); continue ;;
    esac
    echo "$commit $subdir" > "$stamp"
    n=$(find "$dest" -name '*.py' -type f | wc -l)
    echo "exported $repo @ ${commit:0:12} ($subdir): $n Python files"
    ok=$((ok + 1))
done < "$manifest"

total=$(grep -vc '^repo	' "$manifest")
echo "$ok of $total repositories ready in $cache"
report_problems "$mirror"
exit 0
