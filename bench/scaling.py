#!/usr/bin/env python3
"""How sealint's time grows with the size of one file, shape by shape.

Each shape is a generated Python file that repeats one construct N times in one scope (top-level
branches, loops in one function, methods in one class, ...): an analysis that is quadratic in
some count (a scan per statement, a state copy per branch) shows as a time that quadruples when N
doubles. For each shape it times one run at N and one at 2N (best of RUNS) and prints the ratio;
a linear analysis gives about 2. It exits 1 when a ratio passes LIMIT (default 3).

usage: bench/scaling.py [SEALINT] [N]     (default build/release/sealint, N = 16000)
       RUNS=3 LIMIT=3.0 SHAPES=tensorflow,findings (default: every shape)
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
    elif shape == "findings":  # a script of leaking loops at the top level: one finding each
        out += ["model = torch.nn.Linear(4, 4)", "data = [torch.zeros(4)]"]
        for i in range(n):
            out += [f"total{i} = 0", "for x in data:", "    loss = model(x).sum()",
                    "    loss.backward()", f"    total{i} += loss"]
    else:
        raise ValueError(shape)
    return out


SHAPES = ["assignments", "branches", "loops", "methods", "method-calls", "calls", "elif", "try",
          "attributes", "classes", "comprehensions", "imports", "accumulators", "tensorflow", "findings"]


def best_time(sealint, path, runs):
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([sealint, "--no-cache", "--extend-select", "ALL", path],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        took = time.perf_counter() - start
        if done.returncode not in (0, 1):
            raise SystemExit(f"scaling: sealint exited {done.returncode} on {path}:\n{done.stderr}")
        best = took if best is None else min(best, took)
    return best


def main():
    sealint = sys.argv[1] if len(sys.argv) > 1 else "build/release/sealint"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 16000
    runs = int(os.environ.get("RUNS", "3"))
    limit = float(os.environ.get("LIMIT", "3.0"))
    if not os.access(sealint, os.X_OK):
        raise SystemExit(f"scaling: no sealint executable at '{sealint}' (build first: make build)")
    worst = 0.0
    print(f"{'shape':<16}{'N':>8}{'time N':>10}{'time 2N':>10}{'ratio':>8}")
    with tempfile.TemporaryDirectory(prefix="sealint-scaling.") as folder:
        chosen = os.environ.get("SHAPES", "")
        for shape in chosen.split(",") if chosen else SHAPES:
            times = []
            for size in (n, 2 * n):
                path = os.path.join(folder, f"{shape}_{size}.py")
                with open(path, "w") as out:
                    out.write("\n".join(lines_of(shape, size)) + "\n")
                times.append(best_time(sealint, path, runs))
            ratio = times[1] / times[0]
            worst = max(worst, ratio)
            mark = "  superlinear" if ratio > limit else ""
            print(f"{shape:<16}{n:>8}{times[0]:>9.2f}s{times[1]:>9.2f}s{ratio:>8.2f}{mark}")
    return 1 if worst > limit else 0


if __name__ == "__main__":
    sys.exit(main())
