#include "analyzer/ir/walk.h"

#include <gtest/gtest.h>

#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

using testing::lower_python;

// The first line of each statement `statements_after` gives for the first loop of `f`.
std::vector<uint32_t> lines_after_first_loop(const ir::Module& module) {
  for (const ir::Function& function : module.functions()) {
    if (function.name != "f") continue;
    const ir::Stmt* loop = nullptr;
    ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
      if (loop == nullptr && stmt.kind == ir::StmtKind::Loop) loop = &stmt;
    });
    if (loop == nullptr) break;
    std::vector<uint32_t> lines;
    for (const ir::Stmt* stmt : ir::statements_after(function, *loop))
      lines.push_back(module.file().position(stmt->range.begin).line);
    return lines;
  }
  ADD_FAILURE() << "no loop in f";
  return {};
}

TEST(StatementsAfterTest, TakesWhatFollowsInEachEnclosingBlockButNotTheOtherBranch) {
  auto lowered = lower_python(
      "def f(xs, fast):\n"        // 1
      "    if fast:\n"            // 2
      "        for x in xs:\n"    // 3
      "            g(x)\n"        // 4
      "        h()\n"             // 5
      "    else:\n"               // 6
      "        slow()\n"          // 7
      "    try:\n"                // 8
      "        done()\n"          // 9
      "    except ValueError:\n"  // 10
      "        handled()\n");     // 11
  EXPECT_EQ(lines_after_first_loop(*lowered.module), (std::vector<uint32_t>{5, 8, 9, 11}));
}

TEST(StatementsAfterTest, TheFunctionsLastStatementHasNothingAfterIt) {
  auto lowered =
      lower_python("for x in xs:\n    g(x)\n\ndef f():\n    for y in ys:\n        pass\n");
  EXPECT_EQ(lines_after_first_loop(*lowered.module), (std::vector<uint32_t>{}));
}

}  // namespace
}  // namespace sealint
