"""The tracer's loop counting, in-process and without torch, so that it also runs on interpreters
without torch: `python3.X -m unittest tests.test_counting` from probe/ for each supported version.
Line events differ by statement shape and Python version (source.py); these pin the counts."""
import os
import sys
import tempfile
import textwrap
import unittest

from sealint_probe import source, tracer
from sealint_probe.source import ENTRY

PROGRAM = '''
import functools

def plain():
    for i in range(3):  # A
        x = i  # A_END

def broken():
    for i in range(5):  # B
        if i == 1:
            break  # B_END

def skipping():
    for i in range(3):  # C
        if i == 1:
            continue
        x = i  # C_END

def condition():
    n = 0
    while n < 3:  # D
        n += 1  # D_END

def forever():
    k = 0
    while True:  # E
        k += 1
        if k == 3:
            break  # E_END

def split_header():
    s = 0
    for i in range(  # F
            3):
        s += i  # F_END
    while (s <  # G
           10):
        s += 1  # G_END

def one_liner():
    s = 0
    for i in range(3): s += i  # H H_END

def nested(epochs):
    for epoch in range(epochs):  # I
        for j in range(3):  # J
            x = j  # I_END J_END

def comprehension():
    for x in [y * 2 for y in range(3)]:  # K
        z = x  # K_END

def generator():
    for i in range(3):  # L
        yield i  # L_END

def decorator(f):
    return f

class Holder(object):
    @decorator
    def method(self):
        while 1:  # M
            for k in range(2):
                pass
            self.m = getattr(self, "m", 0) + 1
            if self.m == 4:
                return  # M_END

for top in range(3):  # N
    pass  # N_END

def run():
    plain(); broken(); skipping(); condition(); forever(); split_header(); one_liner()
    nested(2); comprehension(); list(generator()); Holder().method()
'''

# marker -> (iterations, entries): an iteration ended by `break` or `return` is not seen.
EXPECTED = {
    "A": (3, 1), "B": (1, 1), "C": (3, 1), "D": (3, 1), "E": (2, 1), "F": (3, 1), "G": (7, 1),
    "H": (3, 1), "I": (2, 1), "J": (6, 2), "K": (3, 1), "L": (3, 1), "M": (3, 1), "N": (3, 1),
}


class _Loop(object):
    def __init__(self, shape):
        self.shape = shape
        self.iterations = 0
        self.entries = 0


def _lines(text, marker):
    start = end = None
    for number, line in enumerate(text.splitlines(), 1):
        if "#" not in line:
            continue
        words = line.split("#", 1)[1].split()
        if marker in words and start is None:
            start = number
        if marker + "_END" in words:
            end = number
    return start, end


class CountingTest(unittest.TestCase):
    def test_counts(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "program.py")
            with open(path, "w") as handle:
                handle.write(PROGRAM)
            loops = {}
            for marker in EXPECTED:
                line, end = _lines(PROGRAM, marker)
                shape, problem = source.shape(path, line, end)
                self.assertIsNone(problem)
                loops[marker] = _Loop(shape)

            def on_visit(loop, frame, kind):
                if kind == ENTRY:
                    loop.entries += 1
                else:
                    loop.iterations += 1

            probe = tracer.Tracer(list(loops.values()), on_visit)
            namespace = {"__name__": "program"}
            code = compile(PROGRAM, path, "exec")
            probe.install()
            try:
                exec(code, namespace)
                namespace["run"]()
            finally:
                probe.uninstall()
            counts = dict((marker, (loop.iterations, loop.entries))
                          for marker, loop in loops.items())
            self.assertEqual(counts, EXPECTED, sys.version)

    def test_other_files_are_not_traced(self):
        probe = tracer.Tracer([], lambda *a: None)
        self.assertIsNone(probe._global(sys._getframe(), "call", None))


if __name__ == "__main__":
    unittest.main()
