"""The copyright file (COPYRIGHT, DEP-5) that the Debian package and the wheel ship (issue 39).

Checks that it is machine-readable (a header with Format, each Files paragraph with Copyright and
License, a stand-alone License paragraph with text for every license a Files paragraph names),
that it names each third-party component the binary carries (the grammar pins of
grammars/package.json by version, and each static archive cmake/static_link.cmake links), and
that both packages ship it: the install rules put it in share/doc/sealint/copyright (what the
.deb holds) and scripts/build_wheel.py in the wheel's .dist-info.
usage: copyright_test.py SOURCE_DIR BUILD_DIR VERSION
"""
import json
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

source, build, version = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
failures: list[str] = []


def fail(message: str) -> None:
    failures.append(message)


if not (source / "COPYRIGHT").is_file():
    sys.exit(f"FAIL: {source / 'COPYRIGHT'} is missing")
text = (source / "COPYRIGHT").read_text(encoding="utf-8")
paragraphs = [p for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]


def fields(paragraph: str) -> dict[str, str]:
    out: dict[str, str] = {}
    key = None
    for line in paragraph.splitlines():
        if line[:1] in (" ", "\t") and key:
            out[key] += "\n" + line
        else:
            key, _, value = line.partition(":")
            out[key] = value.strip()
    return out


parsed = [fields(p) for p in paragraphs]
if not parsed or not parsed[0].get("Format", "").startswith("https://www.debian.org/doc/packaging-manuals/copyright-format/1.0"):
    fail("the first paragraph has no DEP-5 Format field")
named: set[str] = set()
defined: dict[str, str] = {}
for p in parsed[1:]:
    if "Files" in p:
        if "Copyright" not in p or "License" not in p:
            fail(f"Files: {p['Files'].split()[0]} lacks Copyright or License")
        first_line = p.get("License", "").split("\n")[0]
        named.update(t.strip() for t in re.split(r"\s+(?:and|or)\s+", first_line) if t.strip())
    elif "License" in p:
        name, _, body = p["License"].partition("\n")
        if not body.strip():
            fail(f"License: {name} has no text")
        defined[name.strip()] = body
for name in sorted(named - defined.keys()):
    fail(f"License: {name} is named but has no stand-alone paragraph with its text")

# Every component the build puts into the binary, named by a Files paragraph.
files_lines = " ".join(p.get("Files", "") for p in parsed)
pins = json.loads((source / "grammars/package.json").read_text())["dependencies"]
for package, pinned in pins.items():
    if f"grammars/node_modules/{package}/*" not in files_lines:
        fail(f"no Files paragraph for grammars/node_modules/{package}")
    if f"npm package {package} {pinned}" not in text.replace("\n ", " "):
        fail(f"the file does not name {package} {pinned}, the version grammars/package.json pins")
static_link = (source / "cmake/static_link.cmake").read_text()
for archive in ("libz.a", "libzstd.a"):
    if archive in static_link and archive not in files_lines:
        fail(f"cmake/static_link.cmake links {archive}; no Files paragraph names it")
for needle in ("/usr/include/CLI/*", "/usr/include/nlohmann/*", "/usr/include/fmt/*",
               "/usr/include/toml++/*", "libLLVM*.a", "libclang*.a", "libstdc++.a",
               "/usr/lib/llvm-19/lib/clang/19/include/*"):
    if needle not in files_lines:
        fail(f"no Files paragraph names {needle}")
if "LicenseRef-sealint-undecided" not in defined:
    fail("sealint's own code must say that its owners have not chosen a license")

with tempfile.TemporaryDirectory() as work:
    # The install rules (the .deb is made of them: tests/package/package_test.sh).
    prefix = Path(work) / "prefix"
    run = subprocess.run(["cmake", "--install", str(build), "--prefix", str(prefix)],
                         capture_output=True, text=True)
    installed = prefix / "share/doc/sealint/copyright"
    if run.returncode != 0:
        fail(f"cmake --install failed: {run.stderr}")
    elif not installed.is_file() or installed.read_text(encoding="utf-8") != text:
        fail("the install rules do not install COPYRIGHT as share/doc/sealint/copyright")
    # The wheel, packed by the script `make wheel` runs, from this build's binary.
    out = Path(work) / "dist"
    run = subprocess.run([sys.executable, str(source / "scripts/build_wheel.py"),
                          "--binary", str(build / "sealint"), "--version", version,
                          "--source", str(source), "--clang-resource", "/usr/lib/llvm-19/lib/clang/19",
                          "--out", str(out)], capture_output=True, text=True)
    wheels = list(out.glob("sealint-*.whl"))
    if run.returncode != 0 or len(wheels) != 1:
        fail(f"build_wheel.py failed: {run.stdout}{run.stderr}")
    else:
        with zipfile.ZipFile(wheels[0]) as wheel:
            name = f"sealint-{version}.dist-info/COPYRIGHT"
            if name not in wheel.namelist() or wheel.read(name).decode() != text:
                fail(f"the wheel has no {name}")

for message in failures:
    print(f"FAIL: {message}")
if not failures:
    print(f"COPYRIGHT: {len(parsed) - 1} paragraphs, licenses {', '.join(sorted(defined))}; "
          "shipped by the install rules and the wheel")
sys.exit(1 if failures else 0)
