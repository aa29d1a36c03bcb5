#!/usr/bin/python3
"""Checks one SARIF file the way GitHub code scanning and editors will read it.

1. Microsoft's validator (Sarif.Multitool, pinned in tools/sarif) with the SARIF rules and
   GitHub's ingestion rules (--rule-kind "Sarif;Gh"): no error and no warning.
2. The SARIF 2.1.0 JSON schema the validator ships, with python3-jsonschema (Draft 2020-12).

usage: check_sarif.py MULTITOOL SCHEMA FILE.sarif [--expect-results N]
"""
import json
import os
import subprocess
import sys
import tempfile

import jsonschema


def main() -> int:
    multitool, schema_path, sarif_path = sys.argv[1:4]
    with open(sarif_path, encoding="utf-8") as f:
        log = json.load(f)
    results = log["runs"][0]["results"]
    if not results:
        print(f"{sarif_path}: no results to validate (a fixture run must produce some)")
        return 1

    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(log), key=lambda e: list(e.path))
    for error in errors[:20]:
        print(f"{sarif_path}: schema: {'/'.join(map(str, error.path))}: {error.message}")

    env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1")
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "validation.sarif")
        run = subprocess.run(
            [multitool, "validate", "--rule-kind", "Sarif;Gh", "--level", "Error;Warning", "-o", report, sarif_path],
            env=env, capture_output=True, text=True, check=False)
        if run.returncode != 0 or not os.path.exists(report):
            print(f"{sarif_path}: Sarif.Multitool failed ({run.returncode}):\n{run.stdout}{run.stderr}")
            return 1
        with open(report, encoding="utf-8") as f:
            findings = json.load(f)["runs"][0]["results"]
    for finding in findings:
        message = finding["message"]
        print(f"{sarif_path}: {finding['ruleId']} {finding.get('level', 'warning')}: "
              f"{message.get('id', '')} {message.get('arguments', message.get('text', ''))}")

    print(f"{sarif_path}: {len(results)} results; validator: {len(findings)} errors or warnings; "
          f"schema: {len(errors)} errors")
    return 0 if not findings and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
