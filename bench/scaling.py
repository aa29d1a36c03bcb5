#!/usr/bin/env python3
"""How sealint's time and memory grow with the size of one file, shape by shape.

Each shape is a generated Python file that repeats one construct N times in one scope (top-level
branches, loops in one function, methods in one class, ...): an analysis that is quadratic in
some count (a scan per statement, a state copy per branch) shows as a time that quadruples when N
doubles. For each shape it times one run at N and one at 2N (best of RUNS) and prints the ratio;
a linear analysis gives about 2. It exits 1 when a ratio passes LIMIT (default 3).

Beside the time, each run's peak resident memory (the kernel's maxrss of that child alone, from
wait4) is printed, and how many bytes it grew per byte of input at 2N: (peak at 2N - peak on an
empty file) / size of the 2N file. It exits 1 when that passes MEMORY_LIMIT (default 20).

usage: bench/scaling.py [SEALINT] [N]     (default build/release/sealint, N = 16000)
       RUNS=3 LIMIT=3.0 MEMORY_LIMIT=20 SHAPES=tensorflow,findings (default: every shape)
"""
import os
import subprocess
import sys
import tempfile
import time


def lines_of(shape, n):
    out = ["import torch"]
    if shape == "assignments":  # a long chain of names, each from the one before
        out += ["def f(a, b):", "    return a + b"]
        out += [f"v{i} = f(v{i - 1} if {i} else 0, torch.zeros({i}))" for i in range(n)]
    elif shape == "branches":  # top-level `if` blocks while many names are known
        for i in range(n):
            out += [f"v{i} = torch.zeros({i})", f"if v{i}:", f"    w{i} = v{i} + 1"]
    elif shape == "loops":  # training loops in one function
        out.append("def train(model, data):")
        for i in range(n):
            out += [f"    for x{i} in data:", f"        loss{i} = model(x{i})",
                    f"        loss{i}.backward()", f"        h{i} = loss{i}.item()"]
    elif shape == "methods":  # methods of one class calling each other
        out.append("class T(torch.nn.Module):")
        for i in range(n):
            out += [f"    def m{i}(self, x):",
                    f"        self.a{i} = self.m{i - 1}(x) if {i} else x",
                    f"        return self.a{i}"]
    elif shape == "method-calls":  # calls on unknown receivers of methods many classes define
        for i in range(n // 8):
            out += [f"class C{i}:", f"    def run{i}(self, x):", "        return x"]
        out.append("def f(objs):")
        out += [f"    y{i} = objs[{i}].run{i % (n // 8)}(objs)" for i in range(n)]
    elif shape == "calls":  # a chain of functions, each calling the one before
        for i in range(n):
            out += [f"def f{i}(x):", f"    return f{i - 1}(x) + 1" if i else "    return x"]
    elif shape == "elif":
        out += ["def f(x):", "    if x == 0:", "        y = 0"]
        for i in range(1, n):
            out += [f"    elif x == {i}:", f"        y = {i}"]
    elif shape == "try":
        out.append("def f(x):")
        for i in range(n):
            out += ["    try:", f"        v{i} = x + {i}", "    except ValueError as e:",
                    f"        v{i} = 0"]
    elif shape == "attributes":
        out.append("def f(s, x):")
        for i in range(n):
            out += [f"    s.a{i}.b[{i}] = x", f"    s = s.a{i}"]
    elif shape == "classes":  # a chain of subclasses
        for i in range(n):
            out += [f"class C{i}(C{i - 1} if {i} else object):", "    def step(self, x):",
                    "        return self.step(x)"]
    elif shape == "comprehensions":
        out.append("def f(x):")
        out += [f"    x = [v for v in x if v > {i}]" for i in range(n)]
    elif shape == "accumulators":  # methods adding to self lists that the next one drains
        out.append("class Tracker:")
        for i in range(n):
            out += [f"    def m{i}(self, x):", f"        self.a{i}.append(x * 2)",
                    f"        self.a{(i + 1) % n}.append(torch.cat(self.a{i}))",
                    f"        self.a{i} = []"]
    elif shape == "imports":
        for i in range(n):
            out += [f"import mod{i} as m{i}", f"def f{i}(x):", f"    return m{i}.g(x)"]
    elif shape == "tensorflow":  # functions of a TensorFlow file, each calling the one before
        out = ["import tensorflow as tf"]
        for i in range(n):
            out += [f"def f{i}(x):", f"    y = tf.reduce_sum(x) + {i}",
                    f"    return f{i - 1}(y)" if i else "    return y"]
    elif shape == "functions":  # small functions, each with a training loop (N = 75,000: 10 MB)
        for i in range(n):
            out += [f"def f{i}(model, data, opt):", "    for x in data:",
                    "        loss = model(x).sum()", "        loss.backward()", "        opt.step()"]
    elif shape == "findings":  # a script of leaking loops at the top level: one finding each
        out += ["model = torch.nn.Linear(4, 4)", "data = [torch.zeros(4)]"]
        for i in range(n):
            out += [f"total{i} = 0", "for x in data:", "    loss = model(x).sum()",
                    "    loss.backward()", f"    total{i} += loss"]
    else:
        raise ValueError(shape)
    return out


SHAPES = ["assignments", "branches", "loops", "methods", "method-calls", "calls", "elif", "try",
          "attributes", "classes", "comprehensions", "imports", "accumulators", "tensorflow", "findings",
          "functions"]


def one_run(sealint, path):
    """Wall time and peak RSS (bytes) of one analysis of `path`."""
    start = time.perf_counter()
    child = subprocess.Popen([sealint, "--no-cache", "--extend-select", "ALL", path],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    stderr = child.stderr.read()
    # wait4 gives this child's own peak; RUSAGE_CHILDREN would be the largest of every child.
    _, status, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        raise SystemExit(f"scaling: sealint exited {child.returncode} on {path}:\n{stderr}")
    return took, usage.ru_maxrss * 1024  # Linux: kilobytes


def best_run(sealint, path, runs):
    """Best time and largest peak RSS of RUNS runs."""
    results = [one_run(sealint, path) for _ in range(runs)]
    return min(t for t, _ in results), max(m for _, m in results)


def main():
    sealint = sys.argv[1] if len(sys.argv) > 1 else "build/release/sealint"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 16000
    runs = int(os.environ.get("RUNS", "3"))
    limit = float(os.environ.get("LIMIT", "3.0"))
    memory_limit = float(os.environ.get("MEMORY_LIMIT", "20"))
    if not os.access(sealint, os.X_OK):
        raise SystemExit(f"scaling: no sealint executable at '{sealint}' (build first: make build)")
    failed = False
    mib = 1 << 20
    with tempfile.TemporaryDirectory(prefix="sealint-scaling.") as folder:
        empty = os.path.join(folder, "empty.py")
        with open(empty, "w") as out:
            out.write("import torch\n")
        _, base = best_run(sealint, empty, runs)
        print(f"peak RSS on an empty file: {base / mib:.0f} MiB")
        print(f"{'shape':<16}{'N':>8}{'MiB 2N':>8}{'time N':>9}{'time 2N':>9}{'ratio':>7}"
              f"{'RSS N':>9}{'RSS 2N':>9}{'ratio':>7}{'B/B 2N':>8}")
        chosen = os.environ.get("SHAPES", "")
        for shape in chosen.split(",") if chosen else SHAPES:
            times, peaks, size = [], [], 0
            for count in (n, 2 * n):
                path = os.path.join(folder, f"{shape}_{count}.py")
                with open(path, "w") as out:
                    out.write("\n".join(lines_of(shape, count)) + "\n")
                size = os.path.getsize(path)
                took, peak = best_run(sealint, path, runs)
                times.append(took)
                peaks.append(peak)
                os.remove(path)
            ratio = times[1] / times[0]
            growth = [max(peak - base, 1) for peak in peaks]
            memory_ratio = growth[1] / growth[0]
            per_byte = growth[1] / size
            marks = []
            if ratio > limit:
                marks.append("superlinear")
            if memory_ratio > limit:
                marks.append("memory superlinear")
            if per_byte > memory_limit:
                marks.append(f"memory past {memory_limit:g}x")
            failed = failed or bool(marks)
            print(f"{shape:<16}{n:>8}{size / mib:>8.1f}{times[0]:>8.2f}s{times[1]:>8.2f}s"
                  f"{ratio:>7.2f}{peaks[0] / mib:>9.0f}{peaks[1] / mib:>9.0f}{memory_ratio:>7.2f}"
                  f"{per_byte:>8.1f}{'  ' + ', '.join(marks) if marks else ''}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
