// End-to-end: confirm mode watches every loop that runs a model, with or without a finding, and
// measures SL006 from what it claims (grad mode at the line, activations saved per iteration);
// real runs under Debian's python3-torch (/usr/bin/python3, CPU).
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The model and the batches the validation passes below run over.
constexpr std::string_view kSetup =
    "import torch\n"
    "from torch import nn\n"
    "torch.manual_seed(0)\n"
    "NET = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 4))\n"
    "BATCHES = [(torch.randn(32, 64), torch.randint(0, 4, (32,))) for _ in range(40)]\n";

// The validation-pass leak (the loss summed with its graph, no backward) in three shapes, with
// names that say nothing of validation: a function, a method, a helper that runs the model.
constexpr std::string_view kFunctionShape =
    "def check(net, batches, lossfn):\n"
    "    net.eval()\n"
    "    acc = 0\n"
    "    for xb, yb in batches:\n"
    "        acc += lossfn(net(xb), yb)\n"
    "    return float(acc)\n"
    "print(check(NET, BATCHES, nn.CrossEntropyLoss()))\n";

constexpr std::string_view kMethodShape =
    "class Scorer:\n"
    "    def __init__(self, net, batches):\n"
    "        self.net = net\n"
    "        self.batches = batches\n"
    "        self.lossfn = nn.CrossEntropyLoss()\n"
    "    def score(self):\n"
    "        running = 0\n"
    "        for a, b in self.batches:\n"
    "            running = running + self.lossfn(self.net(a), b)\n"
    "        return float(running)\n"
    "print(Scorer(NET, BATCHES).score())\n";

constexpr std::string_view kHelperShape =
    "def batch_error(net, lossfn, xb, yb):\n"
    "    return lossfn(net(xb), yb)\n"
    "def tally(net, batches):\n"
    "    net.eval()\n"
    "    lossfn = nn.CrossEntropyLoss()\n"
    "    summed = 0\n"
    "    for xb, yb in batches:\n"
    "        summed += batch_error(net, lossfn, xb, yb)\n"
    "    return float(summed)\n"
    "print(tally(NET, BATCHES))\n";

class ConfirmWatchTest : public E2eTest {
 protected:
  RunOutput confirm(std::string_view name, std::string_view body,
                    std::vector<std::string> options) const {
    write(std::string(name), std::string(kSetup) + std::string(body));
    std::vector<std::string> args{"confirm", "--python", std::string(kPython), "--steps", "10"};
    args.insert(args.end(), options.begin(), options.end());
    args.emplace_back(name);
    return run(args);
  }

  // The loop's growth is reported on its own line, in bytes, with what holds it.
  static void expect_growth_held_by(const RunOutput& r, std::string_view where,
                                    std::string_view holder) {
    const std::string line = std::string(where) + ": loop that runs a model ";
    EXPECT_THAT(r.out, HasSubstr(line)) << describe(r);
    EXPECT_THAT(r.out, HasSubstr(fmt::format(": confirmed: `{}` grows by ", holder)))
        << describe(r);
    // Bytes per iteration: the activations each iteration saved, which the kept graph holds.
    EXPECT_THAT(r.out, HasSubstr("KiB of activations for backward, which the graph it keeps holds"))
        << describe(r);
    EXPECT_THAT(r.out, HasSubstr(fmt::format("(a leak no finding explains, held by `{}`)", holder)))
        << describe(r);
    EXPECT_THAT(r.out, HasSubstr(fmt::format(
                           "= held by: `{}` (Tensor, grad_fn AddBackward0, local of", holder)))
        << describe(r);
  }
};

TEST_F(ConfirmWatchTest, AValidationPassNoRuleFiredOnIsReportedGrowingInEveryShape) {
  // `--select SL003`: no rule that could fire here runs, so the growth is the watch's alone.
  const struct {
    std::string_view name, body, loop, holder;
  } shapes[] = {{"fn.py", kFunctionShape, "fn.py:9", "acc"},
                {"method.py", kMethodShape, "method.py:13", "running"},
                {"helper.py", kHelperShape, "helper.py:12", "summed"}};
  for (const auto& shape : shapes) {
    const RunOutput r = confirm(shape.name, shape.body, {"--select", "SL003"});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_THAT(r.out, HasSubstr(": loop that runs a model without a finding: confirmed"))
        << describe(r);
    expect_growth_held_by(r, shape.loop, shape.holder);
  }
}

TEST_F(ConfirmWatchTest, AValidationPassWhoseOnlyFindingIsSl006IsReportedGrowing) {
  const RunOutput r = confirm("fn.py", kFunctionShape, {"--select", "SL006"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("warning[SL006]"));
  EXPECT_THAT(r.out, Not(HasSubstr("not measured")));
  EXPECT_THAT(r.out, HasSubstr("fn.py:9: loop that runs a model whose growth no finding measures "
                               "(SL006 at line 10): confirmed"));
  expect_growth_held_by(r, "fn.py:9", "acc");
}

TEST_F(ConfirmWatchTest, Sl006IsMeasuredWithoutABoundNameInALoopAndInAHelper) {
  for (const auto& [name, body] :
       {std::pair{"fn.py", kFunctionShape}, {"helper.py", kHelperShape}}) {
    const RunOutput r = confirm(name, body, {"--select", "SL006"});
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_THAT(r.out, HasSubstr("= confirmed: autograd was on when this line ran (10 of 10 "
                                 "iterations), and each iteration saved "))
        << describe(r);
    EXPECT_THAT(r.out, HasSubstr("of activations for a backward (median)")) << describe(r);
    EXPECT_THAT(r.out, HasSubstr("1 confirmed")) << describe(r);
  }
}

TEST_F(ConfirmWatchTest, Sl006IsNotConfirmedWhereGradModeIsOffAtTheLine) {
  // The rule cannot follow a switch reached through getattr; the run shows autograd off.
  const RunOutput r = confirm("off.py",
                              "def check(net, batches):\n"
                              "    net.eval()\n"
                              "    total = 0.0\n"
                              "    for xb, yb in batches:\n"
                              "        out = net(xb)\n"
                              "        total += float(nn.functional.cross_entropy(out, yb))\n"
                              "    return total\n"
                              "getattr(torch, 'set_grad_enabled')(False)\n"
                              "print(check(NET, BATCHES))\n",
                              {"--select", "SL006"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("warning[SL006]")) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= not confirmed: autograd was off when this line ran, on 10 of 10 "
                               "iterations"))
      << describe(r);
  // Nothing grows there either: the watched loop says so.
  EXPECT_THAT(r.out, HasSubstr("off.py:9: loop that runs a model whose growth no finding measures "
                               "(SL006 at line 10): not confirmed"))
      << describe(r);
}

TEST_F(ConfirmWatchTest, AFixedValidationPassIsFlat) {
  const RunOutput r = confirm("fixed.py",
                              "def check(net, batches, lossfn):\n"
                              "    acc = 0.0\n"
                              "    with torch.no_grad():\n"
                              "        for xb, yb in batches:\n"
                              "            acc += lossfn(net(xb), yb).item()\n"
                              "    return acc\n"
                              "print(check(NET, BATCHES, nn.CrossEntropyLoss()))\n",
                              {});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("fixed.py:9: loop that runs a model without a finding: not "
                               "confirmed: no autograd graph or tensor memory grew"))
      << describe(r);
}

TEST_F(ConfirmWatchTest, AForwardThatKeepsItsOutputsOnSelfIsWatchedPerCall) {
  // No loop of the file holds the growth: `forward()` keeps every call's activation on `self`,
  // and whoever calls the model (here a training loop) runs it once per step.
  const RunOutput r = confirm("net.py",
                              "class Net(nn.Module):\n"
                              "    def __init__(self):\n"
                              "        super().__init__()\n"
                              "        self.body = nn.Linear(64, 4)\n"
                              "        self.seen = []\n"
                              "    def forward(self, x):\n"
                              "        h = self.body(x)\n"
                              "        self.seen.append(h)\n"
                              "        return h\n"
                              "net = Net()\n"
                              "opt = torch.optim.SGD(net.parameters(), lr=0.01)\n"
                              "for xb, yb in BATCHES:\n"
                              "    loss = nn.functional.cross_entropy(net(xb), yb)\n"
                              "    opt.zero_grad(); loss.backward(); opt.step()\n",
                              {"--select", "SL003"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("net.py:11: `forward()`, a step a framework runs, without a "
                               "finding: confirmed: `self.seen` grows by "))
      << describe(r);
  EXPECT_THAT(r.out, HasSubstr(" per call over 10 calls")) << describe(r);
  // The training loop around it grows with it, and says whose growth that is.
  EXPECT_THAT(r.out, HasSubstr("net.py:17: training loop without a finding: confirmed"));
  EXPECT_THAT(r.out, HasSubstr("(it calls `forward()` at net.py:11)")) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("(a leak no finding explains, held by `self`)")) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= held by: `self` (Net, local of forward) → `.seen` (list, "))
      << describe(r);
}

}  // namespace
}  // namespace sealint::e2e
