#pragma once
// Test code: what pytest or unittest would collect, and the helpers kept beside it. A test runs
// a model over a handful of cases and exits, so a per-iteration leak in it never grows: rules
// whose finding needs a long-running loop do not report there (RuleInfo::reports_in_tests).
#include <string_view>
#include <vector>

#include "analyzer/ir/ir.h"

namespace sealint::semantic {

// A file of tests or test helpers, from its path as shown to the user (relative to the working
// directory when below it): `test_*.py`, `*_test.py`, `conftest.py`, or a file under a folder
// named `test`, `tests`, `testing` or `test_utils`.
[[nodiscard]] bool is_test_file(std::string_view shown_path);

// The ranges of the file's test classes: those deriving from a `TestCase` (unittest's,
// absltest's, `tf.test.TestCase`), directly or through a class of the same file.
[[nodiscard]] std::vector<ir::SourceRange> test_class_ranges(const ir::Module& module);

}  // namespace sealint::semantic
