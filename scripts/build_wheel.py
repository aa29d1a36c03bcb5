#!/usr/bin/env python3
"""Packs a statically linked sealint into a wheel, as ruff's and clang-format's wheels carry theirs.

    build_wheel.py --binary build/wheel/sealint --version 0.1.0 --source . \
        --clang-resource /usr/lib/llvm-19/lib/clang/19 --out build/wheel/dist

The wheel, `sealint-<version>-py3-none-<platform>.whl`, holds no Python code: the binary goes to
`<prefix>/bin/sealint` (the wheel's `.data/scripts`), the confirm probe to
`<prefix>/share/sealint/probe` and Clang's builtin headers to `<prefix>/share/sealint/clang/include`
(`.data/data`), where the binary looks for both (beside itself). The platform tag is
`manylinux_<glibc>_<arch>` of the C library the binary was linked against: it needs no other
shared library. Only the standard library is used: the build machine has no PyPI.
"""

import argparse
import base64
import hashlib
import os
import platform
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

# Files from the source tree that every distribution of sealint carries.
DOC_FILES = ("README.md", "CHANGELOG.md")
# What the binary carries of others' code and their licenses (DEP-5); every wheel has it.
LICENSE_FILE = "COPYRIGHT"


def platform_tag() -> str:
    libc = os.confstr("CS_GNU_LIBC_VERSION") or ""  # "glibc 2.36"
    name, _, version = libc.partition(" ")
    if name != "glibc" or version.count(".") < 1:
        sys.exit(f"build_wheel: cannot tell the C library's version ({libc!r})")
    major, minor = version.split(".")[:2]
    return f"manylinux_{major}_{minor}_{platform.machine()}"


def record_line(arcname: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, type=Path)
    parser.add_argument("--version", required=True)
    parser.add_argument("--source", required=True, type=Path, help="sealint's source tree")
    parser.add_argument("--clang-resource", required=True, type=Path)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--extra-data", action="append", default=[], metavar="SRC=DEST",
                        help="a built file installed under <prefix>/DEST (man page, completions)")
    args = parser.parse_args()

    tag = platform_tag()
    name = f"sealint-{args.version}"
    data = f"{name}.data"
    info = f"{name}.dist-info"
    entries: list[tuple[str, bytes, int]] = []  # arcname, content, mode

    # A stripped copy: the symbols of LLVM and Clang are most of an unstripped binary.
    stripped = args.out / "sealint.stripped"
    args.out.mkdir(parents=True, exist_ok=True)
    subprocess.run(["strip", "-o", str(stripped), str(args.binary)], check=True)
    entries.append((f"{data}/scripts/sealint", stripped.read_bytes(), 0o755))
    stripped.unlink()

    probe = args.source / "probe" / "sealint_probe"
    for path in sorted(probe.rglob("*.py")):
        arc = f"{data}/data/share/sealint/probe/sealint_probe/{path.relative_to(probe).as_posix()}"
        entries.append((arc, path.read_bytes(), 0o644))
    headers = args.clang_resource / "include"
    for path in sorted(p for p in headers.rglob("*") if p.is_file()):
        arc = f"{data}/data/share/sealint/clang/include/{path.relative_to(headers).as_posix()}"
        entries.append((arc, path.read_bytes(), 0o644))
    for extra in args.extra_data:
        src, _, dest = extra.partition("=")
        entries.append((f"{data}/data/{dest}", Path(src).read_bytes(), 0o644))

    readme = (args.source / "README.md").read_text(encoding="utf-8")
    metadata = "\n".join([
        "Metadata-Version: 2.1",
        "Name: sealint",
        f"Version: {args.version}",
        "Summary: finds GPU-memory leaks in PyTorch training code before it runs",
        "Home-page: https://github.com/sealint/sealint",
        "Classifier: Programming Language :: C++",
        "Classifier: Operating System :: POSIX :: Linux",
        "Classifier: Topic :: Software Development :: Quality Assurance",
        "Description-Content-Type: text/markdown",
        "",
        readme,
    ])
    wheel = "\n".join([
        "Wheel-Version: 1.0",
        "Generator: sealint scripts/build_wheel.py",
        "Root-Is-Purelib: false",
        f"Tag: py3-none-{tag}",
        "",
    ])
    entries.append((f"{info}/METADATA", metadata.encode(), 0o644))
    entries.append((f"{info}/WHEEL", wheel.encode(), 0o644))
    if not (args.source / LICENSE_FILE).is_file():
        sys.exit(f"build_wheel: {args.source / LICENSE_FILE} is missing")
    for doc in (LICENSE_FILE,) + DOC_FILES:
        path = args.source / doc
        if path.is_file():
            entries.append((f"{info}/{doc}", path.read_bytes(), 0o644))

    record = [record_line(arc, content) for arc, content, _ in entries]
    record.append(f"{info}/RECORD,,")
    entries.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode(), 0o644))

    target = args.out / f"{name}-py3-none-{tag}.whl"
    for old in args.out.glob("sealint-*.whl"):
        old.unlink()
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for arc, content, mode in entries:
            entry = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
            entry.external_attr = (stat.S_IFREG | mode) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, content)
    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
