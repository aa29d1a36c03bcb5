#include "analyzer/ir/bindings.h"

#include <gtest/gtest.h>

#include "analyzer/ir/escape.h"
#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

using testing::function_named;

// The statement of `function`'s body at `index`.
const ir::Stmt& stmt_at(const ir::Function& function, size_t index) {
  return *function.body.at(index);
}

TEST(BindingsTest, EveryKindOfBindingStatementBindsItsNames) {
  auto lowered = testing::lower_python(
      "def f(xs):\n"
      "    a, (b, *c) = g()\n"
      "    self.total = 0\n"
      "    for i, item in enumerate(xs):\n"
      "        pass\n"
      "    with open(p) as fh:\n"
      "        pass\n"
      "    import numpy as np\n"
      "    try:\n"
      "        pass\n"
      "    except ValueError as error:\n"
      "        pass\n"
      "    del a\n"
      "    if (n := len(xs)) > 3:\n"
      "        pass\n"
      "    stats[\"loss\"] = 1\n");
  const ir::Function& f = function_named(*lowered.module, "f");
  EXPECT_TRUE(ir::stmt_binds(stmt_at(f, 0), "a"));
  EXPECT_TRUE(ir::stmt_binds(stmt_at(f, 0), "b"));
  EXPECT_TRUE(ir::stmt_binds(stmt_at(f, 0), "c"));
  EXPECT_TRUE(ir::stmt_binds(stmt_at(f, 1), "self.total"));
  EXPECT_FALSE(ir::stmt_binds(stmt_at(f, 1), "self"));  // an attribute store keeps `self`
  EXPECT_TRUE(ir::stmt_binds(stmt_at(f, 2), "item"));
  EXPECT_TRUE(ir::stmt_binds(stmt_at(f, 3), "fh"));
  EXPECT_TRUE(ir::stmt_binds(stmt_at(f, 4), "np"));
  EXPECT_FALSE(ir::stmt_binds(stmt_at(f, 4), "numpy"));
  EXPECT_TRUE(ir::stmt_binds(stmt_at(f, 5), "error"));
  EXPECT_TRUE(ir::stmt_binds(stmt_at(f, 6), "a"));
  EXPECT_TRUE(ir::stmt_binds(stmt_at(f, 7), "n"));  // the walrus in the condition
  EXPECT_TRUE(ir::stmt_binds(stmt_at(f, 8), "stats[\"loss\"]"));
  EXPECT_FALSE(ir::stmt_binds(stmt_at(f, 8), "stats"));  // an item store keeps the dict
}

TEST(BindingsTest, APlaceDefinedOutsideALoopFollowsTheSameBindings) {
  auto lowered = testing::lower_python(
      "def f(loader):\n"
      "    global history\n"
      "    for x in loader:\n"
      "        history = history + [x]\n"
      "        (first, rest) = x\n"
      "        if (m := x.mean()) > 0:\n"
      "            pass\n");
  const ir::Function& f = function_named(*lowered.module, "f");
  const ir::Stmt& loop = stmt_at(f, 1);
  EXPECT_TRUE(ir::defined_outside(f, loop, "history"));  // declared global
  EXPECT_TRUE(ir::defined_outside(f, loop, "loader"));   // a parameter
  EXPECT_FALSE(ir::defined_outside(f, loop, "first"));   // bound only inside the loop
  EXPECT_FALSE(ir::defined_outside(f, loop, "m"));       // a walrus inside the loop
  EXPECT_TRUE(ir::bound_in(loop, "m"));
  EXPECT_TRUE(ir::defined_outside(f, loop, "unknown"));  // a module-level name
}

}  // namespace
}  // namespace sealint
