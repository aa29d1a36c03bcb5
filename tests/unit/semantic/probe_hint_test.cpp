#include <gtest/gtest.h>

#include "analyzer/ir/walk.h"
#include "analyzer/semantic/training_loops.h"
#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

using testing::lower_python;

// The probe hint of the first loop of `f` in `code`.
ProbeHint hint_of_first_loop(std::string code) {
  auto lowered = lower_python(std::move(code));
  for (const ir::Function& function : lowered.module->functions()) {
    if (function.name != "f") continue;
    const ir::Stmt* loop = nullptr;
    ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
      if (loop == nullptr && stmt.kind == ir::StmtKind::Loop) loop = &stmt;
    });
    if (loop != nullptr) return ir::probe_hint(*lowered.module, *loop, ProbeMeasure::Growth, {});
  }
  ADD_FAILURE() << "no loop in f";
  return {};
}

std::string with_loop(std::string_view header) {
  return "from tqdm import tqdm\n"
         "def f(self, loader, n, a, b):\n"
         "    " +
         std::string(header) +
         "\n"
         "        pass\n";
}

TEST(ProbeHintTest, TheLengthOfOnePassComesFromTheIterable) {
  EXPECT_EQ(hint_of_first_loop(with_loop("for x in loader:")).length_of, "loader");
  EXPECT_EQ(
      hint_of_first_loop(with_loop("for i, x in enumerate(tqdm(self.train_loader)):")).length_of,
      "self.train_loader");
  EXPECT_EQ(hint_of_first_loop(with_loop("for i in range(n):")).count_of, "n");
  EXPECT_EQ(hint_of_first_loop(with_loop("for i in range(100):")).count, 100U);
}

TEST(ProbeHintTest, AnIterableOfUnknownLengthSaysNothing) {
  for (std::string_view header :
       {"for x, y in zip(a, b):", "for i in range(1, n):", "for x in loader[0]:",
        "for x in iter_batches(loader):", "while n > 0:", "for i in range(0):"}) {
    const ProbeHint hint = hint_of_first_loop(with_loop(header));
    EXPECT_TRUE(hint.length_of.empty() && hint.count_of.empty() && hint.count == 0) << header;
  }
}

TEST(ProbeHintTest, OnlyATopLevelLoopOutsideAnyOtherRunsOnce) {
  auto lowered = lower_python(
      "for i in range(10):\n"
      "    pass\n"
      "for epoch in range(3):\n"
      "    for i in range(10):\n"
      "        pass\n"
      "def f(n):\n"
      "    for i in range(n):\n"
      "        pass\n");
  std::vector<bool> repeats;
  for (const ir::Function& function : lowered.module->functions()) {
    ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
      if (stmt.kind == ir::StmtKind::Loop)
        repeats.push_back(
            ir::probe_hint(*lowered.module, stmt, ProbeMeasure::Growth, {}).loop_repeats);
    });
  }
  // The first top-level loop; the epoch loop; the loop inside it; the function's loop.
  EXPECT_EQ(std::count(repeats.begin(), repeats.end(), false), 2) << repeats.size();
  EXPECT_EQ(repeats.size(), 4U);
}

}  // namespace
}  // namespace sealint
