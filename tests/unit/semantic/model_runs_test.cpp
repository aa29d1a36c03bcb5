#include "analyzer/semantic/model_runs.h"

#include <gtest/gtest.h>

#include "analyzer/semantic/grad_flow.h"
#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

constexpr const char* kChain =
    "import torch\n"
    "model = torch.nn.Linear(2, 2)\n"
    "def step0(x):\n    return step1(x)\n"
    "def step1(x):\n    return step2(x)\n"
    "def step2(x):\n    return step3(x)\n"
    "def step3(x):\n    return step4(x)\n"
    "def step4(x):\n    return model(x)\n"
    "@torch.no_grad()\n"
    "def quiet(x):\n    return model(x)\n"
    "def whole_pass(xs):\n"
    "    for x in xs:\n        model(x)\n"
    "def trains(x, opt):\n    model(x).sum().backward()\n    opt.step()\n";

const ir::Function* named(const ir::FileAnalysis& analysis, std::string_view name) {
  const ir::Function* function = analysis.function_named(name);
  EXPECT_NE(function, nullptr) << name;
  return function;
}

TEST(ModelRunsTest, FindsTheModelCallThroughHelpersThreeCallsDeep) {
  auto lowered = testing::lower_python(kChain);
  const ir::FileAnalysis analysis(*lowered.module);
  semantic::ModelRuns runs(analysis);
  const semantic::ModelRuns::Helper from_step1 = runs.per_call(*named(analysis, "step1"));
  ASSERT_NE(from_step1.model_call, nullptr);
  EXPECT_EQ(from_step1.model_call, runs.per_call(*named(analysis, "step4")).model_call);
  // Where step1 runs the model: its own call of step2, in its body.
  ASSERT_NE(from_step1.step_call, nullptr);
  EXPECT_EQ(from_step1.step_call->callee()->text, "step2");
  EXPECT_EQ(runs.per_call(*named(analysis, "step4")).step_call,
            runs.per_call(*named(analysis, "step4")).model_call);
  EXPECT_EQ(runs.per_call(*named(analysis, "quiet")).model_call, nullptr);  // no_grad
  EXPECT_EQ(runs.per_call(*named(analysis, "whole_pass")).model_call,
            nullptr);                                                        // in a loop of its own
  EXPECT_EQ(runs.per_call(*named(analysis, "trains")).model_call, nullptr);  // its graph is used
}

TEST(ModelRunsTest, AnAnswerDoesNotDependOnWhichCallerAskedFirst) {
  auto lowered = testing::lower_python(kChain);
  const ir::FileAnalysis analysis(*lowered.module);
  semantic::ModelRuns runs(analysis);
  // Asked through step0 first, step3 is read at the depth bound, where step4 is left unread
  // (step0 would need four calls): that "none" must not become step1's or step3's answer.
  EXPECT_EQ(runs.per_call(*named(analysis, "step0")).model_call, nullptr);
  EXPECT_NE(runs.per_call(*named(analysis, "step1")).model_call, nullptr);
  EXPECT_NE(runs.per_call(*named(analysis, "step3")).model_call, nullptr);
}

}  // namespace
}  // namespace sealint
