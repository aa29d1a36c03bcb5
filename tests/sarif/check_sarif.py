#!/usr/bin/python3
"""Checks SARIF files the way GitHub code scanning and editors will read them.

1. Microsoft's validator (Sarif.Multitool, pinned in tools/sarif) with the SARIF rules and
   GitHub's ingestion rules (--rule-kind "Sarif;Gh"): no error and no warning.
2. The SARIF 2.1.0 JSON schema the validator ships, with python3-jsonschema (Draft 2020-12).

The validator runs once over all the files: it starts in about 1.5 s of CPU, which once per
fixture was most of `schema.sarif_fixtures`' time. Each of its findings names the file it is in,
and the run must say it scanned every file.

usage: check_sarif.py MULTITOOL SCHEMA FILE.sarif...
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse

import jsonschema


def finding_file(finding):
    """The path of the SARIF file a validator finding is in (its location's file: URI)."""
    for location in finding.get("locations", []):
        uri = location.get("physicalLocation", {}).get("artifactLocation", {}).get("uri", "")
        if uri.startswith("file://"):
            return os.path.realpath(urllib.parse.unquote(urllib.parse.urlparse(uri).path))
    return None


def main() -> int:
    if len(sys.argv) < 4:
        print(__doc__.strip().splitlines()[-1])
        return 2
    multitool, schema_path = sys.argv[1:3]
    paths = sys.argv[3:]

    with open(schema_path, encoding="utf-8") as f:
        validator = jsonschema.Draft202012Validator(json.load(f))
    results_of = {}
    schema_errors_of = {}
    failed = False
    for path in paths:
        with open(path, encoding="utf-8") as f:
            log = json.load(f)
        results_of[path] = len(log["runs"][0]["results"])
        if not results_of[path]:
            print(f"{path}: no results to validate (a fixture run must produce some)")
            failed = True
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
        schema_errors_of[path] = len(errors)
        for error in errors[:20]:
            print(f"{path}: schema: {'/'.join(map(str, error.path))}: {error.message}")
        failed = failed or bool(errors)

    env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1")
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "validation.sarif")
        run = subprocess.run(
            [multitool, "validate", "--rule-kind", "Sarif;Gh", "--level", "Error;Warning", "-o", report,
             *paths],
            env=env, capture_output=True, text=True, check=False)
        if run.returncode != 0 or not os.path.exists(report):
            print(f"Sarif.Multitool failed ({run.returncode}):\n{run.stdout}{run.stderr}")
            return 1
        scanned = re.search(r"Done\. (\d+) files? scanned", run.stdout)
        if not scanned or int(scanned.group(1)) != len(paths):
            print(f"Sarif.Multitool did not scan all {len(paths)} files:\n{run.stdout}{run.stderr}")
            return 1
        with open(report, encoding="utf-8") as f:
            findings = json.load(f)["runs"][0]["results"]

    findings_of = {os.path.realpath(path): 0 for path in paths}
    for finding in findings:
        where = finding_file(finding)
        if where in findings_of:
            findings_of[where] += 1
        message = finding["message"]
        print(f"{where or '(no file)'}: {finding['ruleId']} {finding.get('level', 'warning')}: "
              f"{message.get('id', '')} {message.get('arguments', message.get('text', ''))}")
    failed = failed or bool(findings)

    for path in paths:
        print(f"{path}: {results_of[path]} results; validator: "
              f"{findings_of[os.path.realpath(path)]} errors or warnings; "
              f"schema: {schema_errors_of[path]} errors")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
