// How often a statement in a loop runs: once (lazy initialisation, first iteration), every n-th
// iteration, or every iteration.
#include "analyzer/semantic/iteration.h"

#include <optional>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "analyzer/ir/walk.h"
#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

struct Placement {
  bool once = false;
  bool periodic = false;
};

// Where the statement `build()` sits in `code`, relative to the file's outermost loop.
Placement placement_of_build(std::string_view code) {
  auto lowered = testing::lower_python(std::string(code));
  Placement found;
  bool seen = false;
  ir::walk_statements(
      lowered.module->top_level(), false, [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
        if (stmt.kind != ir::StmtKind::ExprStmt || where.loops.empty()) return;
        seen = true;
        found.once = semantic::under_once_branch(where, *where.loops.front());
        found.periodic = semantic::under_periodic_branch(where, *where.loops.front());
      });
  EXPECT_TRUE(seen) << code;
  return found;
}

TEST(Iteration, LazyInitialisationAndFirstIterationRunOnce) {
  EXPECT_TRUE(placement_of_build("for x in xs:\n    if op is None:\n        op = build()\n"
                                 "        build()\n")
                  .once);
  EXPECT_TRUE(
      placement_of_build("for step in range(9):\n    if step == 0:\n        build()\n").once);
  EXPECT_TRUE(
      placement_of_build("for x in xs:\n    if not hasattr(self, 'op'):\n        build()\n").once);
}

TEST(Iteration, OtherBranchesRunEveryTime) {
  // `op` is not what the branch binds: the test says nothing about how often it holds.
  EXPECT_FALSE(placement_of_build("for x in xs:\n    if op is None:\n        build()\n").once);
  // `i` is not the loop's counter.
  EXPECT_FALSE(placement_of_build("for step in range(9):\n    if i == 0:\n        build()\n").once);
  EXPECT_FALSE(placement_of_build("for x in xs:\n    if x > 0:\n        build()\n").once);
}

// Whether the statement `build()` in the method `hook` of `code` (outside its loops) sits under a
// branch that holds on one call of the hook only.
bool once_per_call(std::string_view code) {
  auto lowered = testing::lower_python(std::string(code));
  std::optional<bool> once;
  for (const ir::Function& function : lowered.module->functions()) {
    if (function.name != "hook") continue;
    ir::walk_statements(function, false, [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
      if (stmt.kind == ir::StmtKind::ExprStmt && where.loops.empty())
        once = semantic::under_once_per_call_branch(where, function);
    });
  }
  EXPECT_TRUE(once.has_value()) << code;
  return once.value_or(false);
}

TEST(Iteration, AHookBuildsOnceUnderALazyInitialisationOrAFirstCallTest) {
  EXPECT_TRUE(
      once_per_call("class C:\n  def hook(self, epoch):\n    if self.m is None:\n"
                    "      self.m = build()\n      build()\n"));
  EXPECT_TRUE(
      once_per_call("class C:\n  def hook(self, epoch):\n    if epoch == 0:\n"
                    "      build()\n"));
  EXPECT_TRUE(
      once_per_call("class C:\n  def hook(self, epoch):\n"
                    "    if not hasattr(self, 'm'):\n      build()\n"));
  // A local or a parameter is None again on every call; a name the hook does not take, a test
  // of the logs, or no branch: every call.
  EXPECT_FALSE(
      once_per_call("class C:\n  def hook(self, op=None):\n    if op is None:\n"
                    "      op = build()\n      build()\n"));
  EXPECT_FALSE(
      once_per_call("class C:\n  def hook(self, epoch):\n    if step == 0:\n"
                    "      build()\n"));
  EXPECT_FALSE(
      once_per_call("class C:\n  def hook(self, epoch, logs):\n"
                    "    if logs['loss'] < self.best:\n      build()\n"));
  EXPECT_FALSE(once_per_call("class C:\n  def hook(self, epoch):\n    build()\n"));
}

TEST(Iteration, ModuloTestsArePeriodic) {
  EXPECT_TRUE(
      placement_of_build("for epoch in range(9):\n    if epoch % 200 == 0:\n        build()\n")
          .periodic);
  EXPECT_FALSE(
      placement_of_build("for epoch in range(9):\n    if epoch > 2:\n        build()\n").periodic);
  EXPECT_FALSE(placement_of_build("for epoch in range(9):\n    build()\n").periodic);
}

TEST(Iteration, LiteralDisplaysAndWrappedFunctions) {
  auto lowered = testing::lower_python(
      "for t in [1, 2]:\n    pass\nfor t in items:\n    pass\n"
      "@functools.lru_cache\ndef f():\n    pass\n@staticmethod\ndef g():\n    pass\n");
  const auto& body = lowered.module->top_level().body;
  ASSERT_GE(body.size(), 2U);
  EXPECT_TRUE(semantic::iterates_display(*body[0]));
  EXPECT_FALSE(semantic::iterates_display(*body[1]));
  int checked = 0;
  for (const ir::Function& function : lowered.module->functions()) {
    if (function.name == "f") {
      EXPECT_TRUE(semantic::may_skip_body(function));
      ++checked;
    }
    if (function.name == "g") {
      EXPECT_FALSE(semantic::may_skip_body(function));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2);
}

}  // namespace
}  // namespace sealint
