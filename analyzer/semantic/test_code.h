#pragma once
// Test code: what pytest or unittest would run as a test. A test runs a model over a handful of
// cases and exits, so a per-iteration leak in it never grows: findings there of rules that need
// a long-running loop are left out (RuleInfo::reports_in_tests) unless `analyse-tests` is set.
//
// A file is never test code for its name alone: `train_test.py` is often a train-and-evaluate
// script, and its `train()` is training code; `test_net()` in `train.py` is an evaluation pass.
#include <vector>

#include "analyzer/ir/ir.h"

namespace sealint::semantic {

// The functions of the file that are test code, outermost only (a function nested in one is
// part of it):
// - in a file pytest collects (`test_*.py`, `*_test.py`): top-level `test_*` functions and
//   the methods of `Test*` classes;
// - in any file: the methods of a class deriving from a `TestCase` (unittest's, absltest's,
//   `tf.test.TestCase`), directly or through a class of the same file, which unittest runs
//   wherever it is defined;
// - in a collected file or `conftest.py`: pytest fixtures (`@pytest.fixture`), and the
//   top-level functions and classes that only the file's test code calls (its helpers);
// - the methods of a class a test class of the file derives from (a mixin of checks);
// - in C++: GoogleTest's bodies (`TEST(Suite, Name)` defines `TestBody`).
[[nodiscard]] std::vector<const ir::Function*> test_functions(const ir::Module& module);

}  // namespace sealint::semantic
