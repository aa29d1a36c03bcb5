#include "analyzer/semantic/grad_flow.h"

#include <gtest/gtest.h>

#include "analyzer/ir/walk.h"
#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

using ir::Grad;
using testing::lower_python;

// The fact of the value of the last statement of function `name` (an expression or an assignment).
ir::Fact last_value_fact(const ir::FileAnalysis& analysis, std::string_view name) {
  for (const ir::Function& function : analysis.module().functions()) {
    if (function.name != name) continue;
    const ir::Stmt* last = nullptr;
    ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
      if (stmt.value != nullptr && stmt.kind != ir::StmtKind::Loop && stmt.kind != ir::StmtKind::If)
        last = &stmt;
    });
    if (last != nullptr) return analysis.fact(*last->value);
  }
  ADD_FAILURE() << "no function " << name;
  return {};
}

constexpr std::string_view kPrelude =
    "import torch\nimport torch.nn.functional as F\nfrom torch import nn\n";

TEST(GradFlowTest, CriterionCallCarriesAGraph) {
  auto lowered =
      lower_python(std::string(kPrelude) +
                   "def f(model, x, y, criterion):\n    loss = criterion(model(x), y)\n");
  const ir::FileAnalysis analysis(*lowered.module);
  EXPECT_EQ(last_value_fact(analysis, "f").grad, Grad::Yes);
  EXPECT_TRUE(last_value_fact(analysis, "f").scalar);
}

TEST(GradFlowTest, ItemAndDetachSanitise) {
  auto lowered = lower_python(std::string(kPrelude) +
                              "def a(model, x):\n    v = model(x).sum().item()\n"
                              "def b(model, x):\n    v = model(x).detach()\n"
                              "def c(model, x):\n    v = float(model(x).sum())\n");
  const ir::FileAnalysis analysis(*lowered.module);
  EXPECT_EQ(last_value_fact(analysis, "a").grad, Grad::No);
  EXPECT_EQ(last_value_fact(analysis, "b").grad, Grad::No);
  EXPECT_TRUE(last_value_fact(analysis, "b").detached);
  EXPECT_EQ(last_value_fact(analysis, "c").grad, Grad::No);
}

TEST(GradFlowTest, ComparisonsAndArgmaxCarryNoGraph) {
  auto lowered = lower_python(std::string(kPrelude) +
                              "def a(model, x, y):\n    v = (model(x).argmax(1) == y).sum()\n");
  const ir::FileAnalysis analysis(*lowered.module);
  EXPECT_EQ(last_value_fact(analysis, "a").grad, Grad::No);
}

TEST(GradFlowTest, NoGradBlockTurnsModelCallsGradless) {
  auto lowered =
      lower_python(std::string(kPrelude) +
                   "def a(model, x):\n    with torch.no_grad():\n        v = model(x)\n");
  const ir::FileAnalysis analysis(*lowered.module);
  EXPECT_EQ(last_value_fact(analysis, "a").grad, Grad::No);
}

TEST(GradFlowTest, NothingIsEvidenceWithoutTorch) {
  auto lowered = lower_python("def a(model, x, y):\n    v = F.cross_entropy(model(x), y)\n");
  const ir::FileAnalysis analysis(*lowered.module);
  EXPECT_NE(last_value_fact(analysis, "a").grad, Grad::Yes);
  EXPECT_FALSE(analysis.has_torch());
}

TEST(GradFlowTest, BackwardOnANameIsEvidenceForItsUnknownSource) {
  auto lowered =
      lower_python(std::string(kPrelude) +
                   "def a(batch):\n    loss = compute(batch)\n    loss.backward()\n    v = loss\n");
  const ir::FileAnalysis analysis(*lowered.module);
  EXPECT_EQ(last_value_fact(analysis, "a").grad, Grad::Yes);
}

TEST(GradFlowTest, SummaryFollowsAHelperThatDetaches) {
  auto lowered = lower_python(std::string(kPrelude) +
                              "def repackage(h):\n    return h.detach()\n"
                              "def a(model, x):\n    v = repackage(model(x))\n");
  const ir::FileAnalysis analysis(*lowered.module);
  EXPECT_EQ(last_value_fact(analysis, "a").grad, Grad::No);
}

TEST(GradFlowTest, SummaryFollowsAHelperThatPassesItsArgumentThrough) {
  auto lowered = lower_python(std::string(kPrelude) +
                              "def scale(h):\n    return h * 2\n"
                              "def a(model, x):\n    v = scale(model(x))\n");
  const ir::FileAnalysis analysis(*lowered.module);
  EXPECT_EQ(last_value_fact(analysis, "a").grad, Grad::Yes);
}

TEST(GradFlowTest, MethodSummaryRecordsAccumulationIntoSelf) {
  auto lowered =
      lower_python(std::string(kPrelude) +
                   "class Meter:\n    def update(self, val, n=1):\n        self.sum += val * n\n");
  const ir::FileAnalysis analysis(*lowered.module);
  const ir::Function& update = *lowered.module->classes().front().methods.at(0);
  const auto& effects = analysis.summary(update).self_effects;
  ASSERT_EQ(effects.size(), 1U);
  EXPECT_EQ(effects[0].attr, "sum");
  EXPECT_EQ(effects[0].params & 0b110U, 0b110U);  // val and n flow in
}

TEST(GradFlowTest, HelperCalledOnlyUnderNoGradRunsWithoutGrad) {
  auto lowered =
      lower_python(std::string(kPrelude) +
                   "def evaluate(model, x):\n    return model(x)\n"
                   "def run(model, x):\n    with torch.no_grad():\n        evaluate(model, x)\n");
  const ir::FileAnalysis analysis(*lowered.module);
  const ir::Function* evaluate = nullptr;
  for (const ir::Function& f : lowered.module->functions()) {
    if (f.name == "evaluate") evaluate = &f;
  }
  ASSERT_NE(evaluate, nullptr);
  EXPECT_TRUE(analysis.runs_without_grad(*evaluate));
}

TEST(GradFlowTest, HelperWithOneCallWithGradDoesNotRunWithoutGrad) {
  auto lowered = lower_python(std::string(kPrelude) +
                              "def evaluate(model, x):\n    return model(x)\n"
                              "def run(model, x):\n    with torch.no_grad():\n        "
                              "evaluate(model, x)\n    evaluate(model, x)\n");
  const ir::FileAnalysis analysis(*lowered.module);
  for (const ir::Function& f : lowered.module->functions()) {
    if (f.name == "evaluate") {
      EXPECT_FALSE(analysis.runs_without_grad(f));
    }
  }
}

TEST(GradFlowTest, LoaderLoopIsAnIterationLoopAndRangeSumIsNot) {
  auto lowered =
      lower_python(std::string(kPrelude) +
                   "def a(model, train_loader, xs):\n    for b in train_loader:\n        pass\n"
                   "    for x in range(3):\n        model(x)\n");
  const ir::FileAnalysis analysis(*lowered.module);
  std::vector<bool> iterates;
  ir::walk_statements(*std::next(lowered.module->functions().begin()), false,
                      [&](const ir::Stmt& stmt, const ir::StmtContext&) {
                        if (stmt.kind == ir::StmtKind::Loop)
                          iterates.push_back(analysis.is_iteration_loop(stmt));
                      });
  EXPECT_EQ(iterates, (std::vector<bool>{true, false}));
}

}  // namespace
}  // namespace sealint
