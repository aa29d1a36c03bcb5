#include "analyzer/core/diagnostic.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace sealint {
namespace {

Position at(uint32_t line, uint32_t column) {
  return {line, column, column, (line - 1) * 80 + column - 1};
}

Diagnostic sample() {
  Diagnostic d;
  d.rule_id = "SL001";
  d.rule_name = "grad-accumulation";
  d.severity = Severity::Error;
  d.path = "train.py";
  d.span = {at(7, 9), at(7, 11)};
  d.message = "`loss` is added to `total` with its autograd graph";
  d.help = "add a number instead: `total += loss.item()`";
  d.related = {{{at(3, 5), at(3, 10)}, "`total` is defined here"}};
  return d;
}

// Exactly one of the two is less: they are ordered, not equivalent.
::testing::AssertionResult ordered(const Diagnostic& a, const Diagnostic& b) {
  const bool ab = diagnostic_less(a, b);
  const bool ba = diagnostic_less(b, a);
  if (ab != ba) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << (ab ? "each is less than the other" : "neither is less");
}

::testing::AssertionResult ordered(const InputError& a, const InputError& b) {
  const bool ab = input_error_less(a, b);
  const bool ba = input_error_less(b, a);
  if (ab != ba) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << (ab ? "each is less than the other" : "neither is less");
}

// One variant of `sample()` per printed field, each differing from it in that field only.
std::vector<Diagnostic> one_field_variants() {
  const std::vector<std::function<void(Diagnostic&)>> changes = {
      [](Diagnostic& d) { d.rule_id = "SL002"; },
      [](Diagnostic& d) { d.rule_name = "grad-accumulation-2"; },
      [](Diagnostic& d) { d.severity = Severity::Warning; },
      [](Diagnostic& d) { d.path = "eval.py"; },
      [](Diagnostic& d) { d.span.begin.line = 6; },
      [](Diagnostic& d) { d.span.begin.column = 8; },
      [](Diagnostic& d) { d.span.begin.utf16_column = 10; },
      [](Diagnostic& d) { d.span.begin.offset = 1; },
      [](Diagnostic& d) { d.span.end.line = 8; },
      [](Diagnostic& d) { d.span.end.column = 12; },
      [](Diagnostic& d) { d.span.end.utf16_column = 13; },
      [](Diagnostic& d) { d.span.end.offset = 2; },
      [](Diagnostic& d) { d.message += " (again)"; },
      [](Diagnostic& d) { d.help.clear(); },
      [](Diagnostic& d) { d.related.clear(); },
      [](Diagnostic& d) { d.related[0].message = "`total` is reset here"; },
      [](Diagnostic& d) { d.related[0].span.begin.column = 6; },
      [](Diagnostic& d) { d.related[0].span.end.column = 11; },
      [](Diagnostic& d) { d.related.push_back(d.related[0]); },
      [](Diagnostic& d) {
        d.fix = Fix{"use `.item()`", false, {{{100, 104}, {}, "loss.item()"}}};
      },
      [](Diagnostic& d) {
        d.fix = Fix{"use `.item()`", true, {{{100, 104}, {}, "loss.item()"}}};
      },
      [](Diagnostic& d) {
        d.fix = Fix{"use `.item()`", false, {{{100, 105}, {}, "loss.item()"}}};
      },
      [](Diagnostic& d) {
        d.fix = Fix{"use `.item()`", false, {{{100, 104}, {}, "float(loss)"}}};
      },
      [](Diagnostic& d) {
        d.fix = Fix{"use `float()`", false, {}};
      },
  };
  std::vector<Diagnostic> out = {sample()};
  for (const auto& change : changes) {
    Diagnostic d = sample();
    change(d);
    out.push_back(d);
  }
  return out;
}

TEST(DiagnosticTest, OrdersDiagnosticsDifferingOnlyInEndColumn) {
  const Diagnostic a = sample();
  Diagnostic b = sample();
  b.span.end.column = a.span.end.column + 1;
  EXPECT_TRUE(ordered(a, b));
  EXPECT_TRUE(diagnostic_less(a, b));
}

TEST(DiagnosticTest, OrdersDiagnosticsDifferingOnlyInHelp) {
  const Diagnostic a = sample();
  Diagnostic b = sample();
  b.help = "call `.detach()` first";
  EXPECT_TRUE(ordered(a, b));
}

TEST(DiagnosticTest, OrdersDiagnosticsDifferingInAnyOnePrintedField) {
  const std::vector<Diagnostic> variants = one_field_variants();
  for (size_t i = 0; i < variants.size(); ++i) {
    for (size_t j = i + 1; j < variants.size(); ++j) {
      EXPECT_TRUE(ordered(variants[i], variants[j])) << "variants " << i << " and " << j;
    }
  }
}

TEST(DiagnosticTest, DoesNotOrderEqualDiagnostics) {
  EXPECT_FALSE(diagnostic_less(sample(), sample()));
}

TEST(DiagnosticTest, SortsByPathThenStartThenRuleBeforeOtherFields) {
  Diagnostic later_line = sample();
  later_line.span.begin.line = 8;
  later_line.help.clear();
  Diagnostic other_rule = sample();
  other_rule.rule_id = "SL000";
  Diagnostic other_file = sample();
  other_file.path = "a.py";
  other_file.span.begin.line = 99;
  std::vector<Diagnostic> diagnostics = {later_line, sample(), other_rule, other_file};
  std::sort(diagnostics.begin(), diagnostics.end(), diagnostic_less);
  EXPECT_EQ(diagnostics, (std::vector<Diagnostic>{other_file, other_rule, sample(), later_line}));
}

TEST(DiagnosticTest, SortsShuffledDiagnosticsToTheSameOrderEveryTime) {
  std::vector<Diagnostic> diagnostics = one_field_variants();
  // Twice as many, so the sort also meets equal elements.
  const std::vector<Diagnostic> copy = diagnostics;
  diagnostics.insert(diagnostics.end(), copy.begin(), copy.end());
  std::vector<Diagnostic> expected = diagnostics;
  std::sort(expected.begin(), expected.end(), diagnostic_less);
  for (uint32_t seed = 0; seed < 50; ++seed) {
    std::mt19937 rng(seed);
    std::shuffle(diagnostics.begin(), diagnostics.end(), rng);
    std::vector<Diagnostic> sorted = diagnostics;
    std::sort(sorted.begin(), sorted.end(), diagnostic_less);
    ASSERT_EQ(sorted, expected) << "seed " << seed;
  }
}

TEST(DiagnosticTest, OrdersInputErrorsDifferingOnlyInColumn) {
  const InputError a{"train.py", at(3, 4), "syntax error: unexpected `)`"};
  InputError b = a;
  b.at->column = 5;
  EXPECT_TRUE(ordered(a, b));
  EXPECT_TRUE(input_error_less(a, b));
}

TEST(DiagnosticTest, OrdersInputErrorsDifferingOnlyInMessage) {
  const InputError a{"train.py", at(3, 4), "syntax error: unexpected `)`"};
  InputError b = a;
  b.message = "syntax error: missing `:`";
  EXPECT_TRUE(ordered(a, b));
}

TEST(DiagnosticTest, PutsInputErrorWithoutPositionBeforePositionedOnesOfSameFile) {
  const InputError whole_file{"train.py", std::nullopt, "cannot read 'train.py': binary file"};
  const InputError positioned{"train.py", at(1, 1), "cannot read 'train.py': binary file"};
  EXPECT_TRUE(input_error_less(whole_file, positioned));
  EXPECT_FALSE(input_error_less(positioned, whole_file));
}

// Input errors that differ in one printed field (or in whether they have a position).
std::vector<InputError> input_error_variants() {
  return {
      {"a.py", std::nullopt, "cannot read 'a.py': permission denied"},
      {"a.py", at(2, 1), "syntax error: unexpected `)`"},
      {"a.py", at(2, 7), "syntax error: unexpected `)`"},
      {"a.py", at(2, 7), "syntax error: missing `:`"},
      {"a.py", Position{2, 7, 8, 30}, "syntax error: missing `:`"},
      {"b.py", at(1, 1), "syntax error: missing `:`"},
  };
}

TEST(DiagnosticTest, OrdersInputErrorsDifferingInAnyOnePrintedField) {
  const std::vector<InputError> variants = input_error_variants();
  for (size_t i = 0; i < variants.size(); ++i) {
    for (size_t j = i + 1; j < variants.size(); ++j) {
      EXPECT_TRUE(ordered(variants[i], variants[j])) << "variants " << i << " and " << j;
    }
  }
}

TEST(DiagnosticTest, SortsShuffledInputErrorsToTheSameOrderEveryTime) {
  std::vector<InputError> errors = input_error_variants();
  const std::vector<InputError> copy = errors;
  errors.insert(errors.end(), copy.begin(), copy.end());
  std::vector<InputError> expected = errors;
  std::sort(expected.begin(), expected.end(), input_error_less);
  for (uint32_t seed = 0; seed < 50; ++seed) {
    std::mt19937 rng(seed);
    std::shuffle(errors.begin(), errors.end(), rng);
    std::vector<InputError> sorted = errors;
    std::sort(sorted.begin(), sorted.end(), input_error_less);
    ASSERT_EQ(sorted, expected) << "seed " << seed;
  }
}

}  // namespace
}  // namespace sealint
