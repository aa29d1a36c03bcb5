#pragma once
// Lowers Python source held in a test into the IR, through the real frontend, and finds what
// tests look up in it.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analyzer/python/frontend.h"

namespace sealint::testing {

struct Lowered {
  std::unique_ptr<ir::Module> module;
  std::vector<InputError> problems;
};

// `path`: the file's name, for what depends on it (test code: semantic/test_code.h).
inline Lowered lower_python(std::string code, std::string path = "test.py",
                            size_t piece_bytes = python::ParseBudget{}.piece_bytes) {
  static_assert(sizeof(code) > 0);
  auto grammar = python::PythonGrammar::load();
  EXPECT_TRUE(grammar.has_value());
  // The parse's time budget is what a user's machine gets; a test must not fail because this one
  // is slow (a sanitized build on a loaded machine): ten minutes, the memory budget as it is.
  // tests/unit/python/parse_budget_test.cpp tests the budgets themselves.
  python::ParseBudget budget;
  budget.base_micros = 600'000'000;
  budget.piece_bytes = piece_bytes;
  auto frontend = python::PythonFrontend::create(*grammar, budget);
  EXPECT_TRUE(frontend.has_value());
  auto file = SourceFile::from_bytes(std::move(path), std::move(code));
  EXPECT_TRUE(file.has_value());
  auto lowered = frontend->lower(std::make_shared<const SourceFile>(std::move(*file)));
  EXPECT_TRUE(lowered.has_value());
  return {std::move(lowered->module), std::move(lowered->problems)};
}

// The function of `module` named `name` (a test failure, and the top level, when there is none).
inline const ir::Function& function_named(const ir::Module& module, std::string_view name) {
  for (const ir::Function& function : module.functions()) {
    if (function.name == name) return function;
  }
  ADD_FAILURE() << "no function " << name;
  return module.top_level();
}

}  // namespace sealint::testing
