# Shared by bench/*/fetch.sh (sourced): where the search tool's `fetch` left a repository, and
# exporting a commit of it.
#
# find_git_dir BASE: the git directory of a mirror, the first folder below BASE holding HEAD,
# objects/ and refs/ (bare as `repo/`, or `repo/.git/`); fails when there is none.
find_git_dir() {
    local base=$1 head
    [ -d "$base" ] || return 1
    head=$(find "$base" -maxdepth 4 -name HEAD -type f 2>/dev/null | while read -r h; do
        d=$(dirname "$h")
        if [ -d "$d/objects" ] && [ -d "$d/refs" ]; then echo "$d"; break; fi
    done)
    [ -n "$head" ] || return 1
    echo "$head"
}

# export_snapshot BASE COMMIT SUBDIR DEST: the files of COMMIT's SUBDIR, from the mirror under
# BASE, into DEST (replaced), through bench/corpus/export_tree.py: not `git archive`, since a
# snapshot may lack its largest blobs (images, data files), which makes `git archive` stop.
# Returns 1 when there is no mirror, 2 when the commit is absent or the export fails (the reason
# on stdout).
export_snapshot() {
    local base=$1 commit=$2 subdir=$3 dest=$4 gitdir
    gitdir=$(find_git_dir "$base") || return 1
    if ! git --git-dir="$gitdir" cat-file -e "$commit^{commit}" 2>/dev/null; then
        echo "commit $commit not in $gitdir"
        return 2
    fi
    rm -rf "$dest"
    mkdir -p "$dest"
    if ! python3 "$(dirname "${BASH_SOURCE[0]}")/../corpus/export_tree.py" "$gitdir" "$commit" \
        "$subdir" "$dest" >&2; then
        rm -rf "$dest"
        echo "export failed"
        return 2
    fi
}

# report_problems MIRROR: what the global arrays `missing` (repositories without a mirror) and
# `bad` (failed exports) hold, after a fetch.
report_problems() {
    if [ ${#missing[@]} -gt 0 ]; then
        echo "MISSING (not under $1; bring each with the search tool's fetch, github:<owner>/<name>, then run this again):"
        printf '  %s\n' $(printf '%s\n' "${missing[@]}" | sort -u)
    fi
    if [ ${#bad[@]} -gt 0 ]; then
        echo "FAILED:"
        printf '  %s\n' "${bad[@]}"
    fi
}
