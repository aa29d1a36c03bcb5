"""Shared by bench/*/run.py: the benchmarks' tab-separated tables."""


def read_tsv(path):
    """The rows of a TSV file with a header line, as dicts; blank and `#` lines are skipped, and
    a short row is padded with empty cells."""
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    header = lines[0].split("\t")
    rows = []
    for l in lines[1:]:
        cells = l.split("\t")
        cells += [""] * (len(header) - len(cells))
        rows.append(dict(zip(header, cells)))
    return rows
