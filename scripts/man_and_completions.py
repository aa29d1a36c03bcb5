#!/usr/bin/env python3
"""Writes sealint's man page (roff) and its bash completion from the built binary's own --help,
so that neither can drift from the options it has.

    man_and_completions.py --binary build/wheel/sealint --version 0.1.0 \
        --man sealint.1 --bash sealint.bash

Each section of `sealint --help` (the option groups) becomes a section of the page, each
subcommand's --help a subsection of COMMANDS; the completion offers the subcommands and each
command's options, the values of options that list them (`--format`, `--color`), and files.
"""

import argparse
import re
import subprocess
import sys

COMMANDS = ("confirm", "rules", "config", "clean", "explain", "server")
OPTION = re.compile(r"^  (-\S+?)(?: ([A-Z][^ ]*.*?))?(?:\s{2,}(.*))?$")


def help_text(binary, *args):
    run = subprocess.run([binary, *args, "--help"], capture_output=True, text=True, check=True)
    return run.stdout


def parse(text):
    """(summary, sections): sections are (title, [(names, value, description)])."""
    lines = text.splitlines()
    summary = lines[0]
    sections, current, footer = [], None, []
    for line in lines[1:]:
        if re.match(r"^[A-Z][A-Za-z+ ]*:$", line):
            current = (line[:-1], [])
            sections.append(current)
        elif line.startswith("  ") and current is not None:
            stripped = line.strip()
            found = OPTION.match(line)
            if found and line[2] == "-":
                current[1].append([found.group(1), found.group(2) or "", found.group(3) or ""])
            elif current[1] and line.startswith("    "):
                current[1][-1][2] = (current[1][-1][2] + " " + stripped).strip()
            elif current[0] in ("Positionals", "Subcommands"):
                head, *rest = re.split(r"\s{2,}", stripped, maxsplit=1)
                name, _, value = head.partition(" ")
                current[1].append([name, value, rest[0] if rest else ""])
        elif line.strip() and not line.startswith("Usage:"):
            footer.append(line.strip())
    return summary, sections, footer


def roff(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"`([^`]+)`", r"\\fB\1\\fR", text)


def option_names(entry):
    return [n for n in entry[0].split(",") if n.startswith("-")]


def values(entry):
    found = re.search(r"\{([^}]*)\}", entry[1])
    return found.group(1).split(",") if found else []


def man_page(binary, version):
    summary, sections, footer = parse(help_text(binary))
    out = [f'.TH SEALINT 1 "" "sealint {version}" "User Commands"',
           ".SH NAME", "sealint \\- " + roff(summary.split(": ", 1)[-1]),
           ".SH SYNOPSIS", ".B sealint", "[\\fIOPTIONS\\fR] [\\fIPATH\\fR...]", ".br",
           ".B sealint", "\\fICOMMAND\\fR [\\fIOPTIONS\\fR]",
           ".SH DESCRIPTION",
           roff("sealint finds GPU-memory leaks in PyTorch training code (Python, Jupyter notebooks "
                "and LibTorch C++) before it runs, and `sealint confirm` runs a script for a few "
                "iterations to measure each finding. Rules: `sealint rules`; a rule's page: "
                "`sealint explain SL001`.")]
    for title, entries in sections:
        if title == "Subcommands" or not entries:
            continue
        out.append(".SH " + ("OPTIONS" if title == "Options" else roff(title.upper())))
        for names, value, description in entries:
            out += [".TP", "\\fB" + roff(names) + "\\fR" + (" " + roff(value) if value else ""),
                    roff(description)]
    out.append(".SH COMMANDS")
    for command in COMMANDS:
        sub_summary, sub_sections, sub_footer = parse(help_text(binary, command))
        out += [".SS " + command, roff(sub_summary)]
        for title, entries in sub_sections:
            for names, value, description in entries:
                if names == "-h,--help":
                    continue
                out += [".TP", "\\fB" + roff(names) + "\\fR" + (" " + roff(value) if value else ""),
                        roff(description)]
        for line in sub_footer:
            out += [".PP", roff(line)]
    out.append(".SH EXIT STATUS")
    out += [roff(line) for line in footer if line.startswith("Exit status")]
    out.append(".SH FILES")
    out += [roff(line) for line in footer if not line.startswith("Exit status")]
    out += [".SH SEE ALSO", "https://github.com/sealint/sealint"]
    return "\n".join(out) + "\n"


def bash_completion(binary):
    _, sections, _ = parse(help_text(binary))
    words = {"": ([], {})}
    for _, entries in sections:
        for entry in entries:
            for name in option_names(entry):
                words[""][0].append(name)
                if values(entry):
                    words[""][1][name] = values(entry)
    for command in COMMANDS:
        _, sub_sections, _ = parse(help_text(binary, command))
        names, choices = [], {}
        for _, entries in sub_sections:
            for entry in entries:
                for name in option_names(entry):
                    names.append(name)
                    if values(entry):
                        choices[name] = values(entry)
        words[command] = (names, choices)
    cases = []
    for command, (names, choices) in words.items():
        value_cases = "".join(f"      {n}) COMPREPLY=($(compgen -W '{' '.join(v)}' -- \"$cur\")); return ;;\n"
                              for n, v in sorted(choices.items()))
        options = " ".join(names)
        extra = "" if command else " " + " ".join(COMMANDS)
        label = command or '""'
        cases.append(f"    {label})\n      case \"$prev\" in\n{value_cases}      esac\n"
                     f"      opts='{options}{extra}' ;;\n")
    return ("# bash completion for sealint, written from its --help by scripts/man_and_completions.py\n"
            "_sealint() {\n"
            "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command='' i opts\n"
            "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
            "    case ${COMP_WORDS[i]} in " + "|".join(COMMANDS) + ") command=${COMP_WORDS[i]}; break ;; esac\n"
            "  done\n"
            "  case $command in\n" + "".join(cases) + "  esac\n"
            "  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")); return; fi\n"
            "  COMPREPLY=($(compgen -f -- \"$cur\"))\n"
            "  [[ -z $command ]] && COMPREPLY+=($(compgen -W '" + " ".join(COMMANDS) + "' -- \"$cur\"))\n"
            "}\n"
            "complete -o filenames -F _sealint sealint\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--man", required=True)
    parser.add_argument("--bash", required=True)
    args = parser.parse_args()
    with open(args.man, "w", encoding="utf-8") as out:
        out.write(man_page(args.binary, args.version))
    with open(args.bash, "w", encoding="utf-8") as out:
        out.write(bash_completion(args.binary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
