"""python3 -m sealint_probe --plan plan.json --out result.json [--snapshot FILE] [--progress FILE]
    [-- script.py args...]

Exit status: 0 once a result is written (how the script ended is in the result), 1 when the result
cannot be written, 2 for a bad command line or plan, 3 when this interpreter cannot import torch.
"""
import argparse
import os
import signal
import sys

from . import plan as plan_module
from . import watchdog

PROG = "sealint_probe"


def _fail(status, message):
    sys.stderr.write("%s: %s\n" % (PROG, message))
    sys.stderr.flush()
    return status


def _arguments(argv):
    # Everything after `--` belongs to the script, even options the probe also has.
    if "--" in argv:
        split = argv.index("--")
        own, rest = argv[:split], argv[split + 1:]
    else:
        own, rest = argv, []
    parser = argparse.ArgumentParser(prog="python3 -m " + PROG,
                                     description="Run a script under sealint's confirm probe.")
    parser.add_argument("--plan", required=True, help="the plan JSON written by sealint")
    parser.add_argument("--out", required=True, help="where to write the result JSON")
    # A plan made on another machine names a snapshot path of that machine.
    parser.add_argument("--snapshot", help="on CUDA, write the memory snapshot here instead of "
                        "where the plan says")
    parser.add_argument("--progress", help="rewrite this file with the loops' iterations while "
                        "the script runs (sealint's live line)")
    options = parser.parse_args(own)
    return options, rest


def main(argv=None):
    options, rest = _arguments(sys.argv[1:] if argv is None else argv)
    # Before torch's import, which can take long: a sealint gone meanwhile ends the run.
    watchdog.start()
    # torch first: an interpreter without it is the commonest mistake, and sealint names it.
    try:
        import torch
    except BaseException as error:  # ImportError, or a broken install raising anything
        return _fail(3, "%s cannot import torch: %s" % (sys.executable, error))
    try:
        plan = plan_module.load(options.plan)
    except plan_module.PlanError as error:
        return _fail(2, "bad plan %s: %s" % (options.plan, error))
    if options.snapshot is not None:
        plan.snapshot = os.path.abspath(options.snapshot)
    script, args = (rest[0], rest[1:]) if rest else (plan.script, [])
    if not os.path.isfile(script):
        return _fail(2, "cannot open the script %s" % script)

    # Imported after torch: they need it, and a missing torch must be reported first.
    from . import cuda as cuda_module
    from . import runner, session as session_module, tracer as tracer_module

    errors = []
    progress = os.path.abspath(options.progress) if options.progress else None
    probe = session_module.Session(plan, script, os.path.abspath(options.out), torch,
                                   cuda_module.Cuda(torch, errors), errors, progress)
    # sealint's --timeout sends SIGTERM to the process group before SIGKILL.
    signal.signal(signal.SIGTERM, probe.on_terminate)
    tracer = tracer_module.Tracer(probe.loops + probe.line_watches, probe.on_visit)
    runner.prepare(script, args)
    tracer.install()
    try:
        outcome = runner.run(script, probe.user_files)
    finally:
        tracer.uninstall()
    if os.getpid() != probe.pid:
        # The script forked and this child returned from it: only the parent writes the result.
        return outcome["code"] if isinstance(outcome["code"], int) else 1
    try:
        probe.write(outcome)
    except Exception as error:
        return _fail(1, "cannot write the result %s: %s" % (options.out, error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
