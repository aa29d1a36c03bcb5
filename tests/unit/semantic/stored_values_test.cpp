#include "analyzer/semantic/stored_values.h"

#include <gtest/gtest.h>

#include "analyzer/ir/walk.h"
#include "analyzer/semantic/grad_flow.h"
#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

const ir::Stmt* first_loop(const ir::Function& function) {
  const ir::Stmt* loop = nullptr;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    if (loop == nullptr && stmt.kind == ir::StmtKind::Loop) loop = &stmt;
  });
  return loop;
}

TEST(StoredValuesTest, FollowsAStoredGraphBackThroughTheIterationsAssignments) {
  auto lowered = testing::lower_python(
      "import torch\n"
      "def strip(t, m):\n"
      "    return t[:, 1:-1], m[:, 1:-1]\n"
      "def embed(model, batches):\n"
      "    kept = []\n"
      "    for x, mask in batches:\n"
      "        out = model(x)\n"
      "        emb = out['emb']\n"
      "        emb, _ = strip(emb, mask)\n"
      "        side = model(mask)\n"
      "        count = emb.size(0)\n"
      "        kept.append(emb.view(-1))\n"
      "        kept.append(side.item())\n"
      "    return torch.cat(kept)\n");
  const ir::FileAnalysis analysis(*lowered.module);
  const ir::Function* function = analysis.function_named("embed");
  ASSERT_NE(function, nullptr);
  const ir::Stmt* loop = first_loop(*function);
  ASSERT_NE(loop, nullptr);
  const auto feeding = semantic::names_feeding_stores(analysis, *loop);
  for (const char* name : {"emb", "_", "out", "mask", "x"})
    EXPECT_TRUE(feeding.contains(name)) << name;
  // `side` is stored as a number only; `count` is not stored.
  EXPECT_FALSE(feeding.contains("side"));
  EXPECT_FALSE(feeding.contains("count"));
}

TEST(StoredValuesTest, ALoopThatStoresNoGraphFeedsNothing) {
  auto lowered = testing::lower_python(
      "import torch\n"
      "def losses(model, batches):\n"
      "    kept = []\n"
      "    for x in batches:\n"
      "        loss = model(x).sum()\n"
      "        kept.append(loss.item())\n"
      "    return kept\n");
  const ir::FileAnalysis analysis(*lowered.module);
  const ir::Function* function = analysis.function_named("losses");
  ASSERT_NE(function, nullptr);
  const ir::Stmt* loop = first_loop(*function);
  ASSERT_NE(loop, nullptr);
  EXPECT_TRUE(semantic::names_feeding_stores(analysis, *loop).empty());
}

}  // namespace
}  // namespace sealint
