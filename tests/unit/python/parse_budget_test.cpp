// A parse past its memory or time budget stops, and its file becomes an input error; the same
// frontend then parses the next file in full.
#include <memory>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analyzer/python/frontend.h"

namespace sealint::python {
namespace {

std::shared_ptr<const SourceFile> source(const std::string& code) {
  auto file = SourceFile::from_bytes("budget.py", code);
  EXPECT_TRUE(file.has_value());
  return std::make_shared<const SourceFile>(std::move(*file));
}

std::string repeated(const std::string& piece, size_t times) {
  std::string out;
  for (size_t i = 0; i < times; ++i) out += piece;
  return out;
}

class ParseBudgetTest : public ::testing::Test {
 protected:
  Result<LoweredFile> lower(const ParseBudget& budget, const std::string& code) {
    auto frontend = PythonFrontend::create(*grammar_, budget);
    EXPECT_TRUE(frontend.has_value());
    return frontend->lower(source(code));
  }
  Result<PythonGrammar> grammar_ = PythonGrammar::load();
};

TEST_F(ParseBudgetTest, AParsePastItsMemoryBudgetIsAnInputError) {
  ParseBudget budget;
  budget.memory_bytes = size_t{1} << 20;
  const auto lowered = lower(budget, "x = (" + repeated("1, ", 200'000) + ")\n");  // 600 KB
  ASSERT_FALSE(lowered.has_value());
  EXPECT_EQ(lowered.error(), "'budget.py' needs more than 1 MiB to parse; not analysed");
}

TEST_F(ParseBudgetTest, AParsePastItsTimeBudgetIsAnInputError) {
  ParseBudget budget;
  budget.base_micros = 1'000;
  budget.micros_per_mib = 0;
  // tree-sitter-python's scanner is quadratic in a run of continuation lines: seconds, not 1 ms.
  const auto lowered = lower(budget, "x = 1 + \\\n" + repeated("  \\\n", 20'000) + "  2\n");
  ASSERT_FALSE(lowered.has_value());
  // 1 ms, times the instrumentation's slowdown in a sanitized build.
  EXPECT_EQ(lowered.error(),
            fmt::format("'budget.py' takes more than {:g} s to parse; not analysed",
                        0.001 * static_cast<double>(kInstrumentationSlowdown)));
}

// The budget is the code's, not the instrumentation's (SanitizerTest ties kAddressSanitizer to
// the build).
TEST_F(ParseBudgetTest, AnAddressSanitizerBuildHasThreeTimesTheTime) {
  const ParseBudget budget;
  EXPECT_EQ(budget.time_micros(0), kAddressSanitizer ? 3 * budget.base_micros : budget.base_micros);
}

TEST_F(ParseBudgetTest, TheSameFrontendParsesTheNextFileInFullAfterAStoppedParse) {
  ParseBudget budget;
  budget.memory_bytes = size_t{4} << 20;
  auto frontend = PythonFrontend::create(*grammar_, budget);
  ASSERT_TRUE(frontend.has_value());
  ASSERT_FALSE(frontend->lower(source("x = (" + repeated("1, ", 1'000'000) + ")\n")).has_value());
  const auto next = frontend->lower(source("def f(a):\n    return a + 1\n"));
  ASSERT_TRUE(next.has_value()) << next.error();
  EXPECT_EQ(next->module->functions().size(), 2U);  // the module and f
}

// 1 MB of small functions: its whole tree needs about 55 MB, its IR about 36 MB.
std::string small_functions() {
  std::string code;
  for (int i = 0; code.size() < (size_t{1} << 20); ++i)
    code += "def f" + std::to_string(i) + "(a, b):\n    return a * b + 1\n\n";
  return code;
}

TEST_F(ParseBudgetTest, OrdinaryCodeStaysFarBelowTheDefaultBudget) {
  ParseBudget budget;
  budget.memory_bytes = size_t{64} << 20;  // 1/32 of the default, for 1 MB of functions
  const auto lowered = lower(budget, small_functions());
  ASSERT_TRUE(lowered.has_value()) << lowered.error();
}

TEST_F(ParseBudgetTest, AFileParsedInPiecesNeedsOnlyAPiecesTreeWithinTheBudget) {
  ParseBudget budget;
  budget.memory_bytes = size_t{48} << 20;
  budget.piece_bytes = size_t{1} << 30;  // the whole file in one parse
  const auto whole = lower(budget, small_functions());
  ASSERT_FALSE(whole.has_value());
  EXPECT_EQ(whole.error(), "'budget.py' needs more than 48 MiB to parse; not analysed");
  budget.piece_bytes = ParseBudget{}.piece_bytes;
  const auto in_pieces = lower(budget, small_functions());
  ASSERT_TRUE(in_pieces.has_value()) << in_pieces.error();
  EXPECT_GT(in_pieces->module->functions().size(), 20'000U);
}

TEST_F(ParseBudgetTest, AnIRPastTheMemoryBudgetIsAnInputError) {
  ParseBudget budget;
  budget.memory_bytes = size_t{16} << 20;
  // 100,000 statements: each piece's tree fits in 16 MiB, the IR of all of them does not.
  const auto lowered = lower(budget, repeated("x = 1\n", 100'000));
  ASSERT_FALSE(lowered.has_value());
  EXPECT_EQ(lowered.error(), "'budget.py' needs more than 16 MiB to analyse; not analysed");
}

}  // namespace
}  // namespace sealint::python
