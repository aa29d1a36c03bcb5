// End-to-end: confirm mode's secondary lines say only what the run showed (docs/confirm.md):
// no projection past a sane horizon, a peak per pass for a function's local, --verify-fix judged
// on the fixed place, a crash named as the crash. Real runs under /usr/bin/python3 (CPU).
#include <filesystem>
#include <string>
#include <string_view>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ConfirmWordingTest : public E2eTest {
 protected:
  RunOutput confirm(std::vector<std::string> args) const {
    args.insert(args.begin(), {"confirm", "--python", std::string(kPython), "--steps", "10"});
    return run(args);
  }
};

TEST_F(ConfirmWordingTest, ALocalOfTheValidationFunctionPeaksPerPass) {
  // `total_loss` is a local of validate(): freed when it returns, so the 40-batch pass peaks.
  const RunOutput r =
      confirm({"--device-memory", "1GiB", example("leaky_eval_loss.py"), "--", "--steps", "40"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("a local of validate(), freed when it returns: a peak of "));
  EXPECT_THAT(r.out,
              HasSubstr(" per pass of 40 iterations, within the 1.0 GiB of --device-memory"));
  EXPECT_THAT(r.out, Not(HasSubstr("if nothing frees it between epochs")));
}

TEST_F(ConfirmWordingTest, TinyGrowthInAGlobalDoesNotThreatenTheDevice) {
  // A list at the top level of the script keeps one scalar loss per step: a leak, but 16 GiB
  // would last past any real run.
  write("tiny.py",
        "import torch\n"
        "model = torch.nn.Linear(3, 1)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.01)\n"
        "history = []\n"
        "while True:\n"
        "    loss = model(torch.randn(4, 3)).pow(2).mean()\n"
        "    opt.zero_grad(); loss.backward(); opt.step()\n"
        "    history.append(loss)\n");
  const RunOutput r = confirm({"--device-memory", "16GiB", "tiny.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= confirmed: `history` grows by "));
  EXPECT_THAT(r.out, HasSubstr("it does not threaten the device: +"));
  EXPECT_THAT(r.out, Not(HasSubstr("runs out near")));
}

TEST_F(ConfirmWordingTest, VerifyFixIsJudgedOnTheFixedPlaceAndNamesWhatStillGrows) {
  write("both.py",
        "import torch\n"
        "model = torch.nn.Linear(8, 1)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.01)\n"
        "total = 0\n"
        "history = []\n"
        "for step in range(200):\n"
        "    loss = model(torch.randn(16, 8)).pow(2).mean()\n"
        "    opt.zero_grad(); loss.backward(); opt.step()\n"
        "    total += loss\n"
        "    history.append(loss)\n");
  const RunOutput r = confirm({"--verify-fix", "both.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= after the fix: not confirmed: `total` no longer grows over 10 "
                               "iterations; the loop still grows through `history` (SL002, line "
                               "10)"))
      << describe(r);
  EXPECT_THAT(r.out, Not(HasSubstr("after the fix: confirmed"))) << describe(r);
}

TEST_F(ConfirmWordingTest, ACrashIsReportedAsTheCrashAndAsTheFindingsSymptom) {
  // The hidden state carries every iteration's graph (retain_graph keeps its buffers); the
  // optimizer step changes a weight that graph saved, and the next backward fails.
  write("rnn.py",
        "import torch\n"
        "from torch import nn\n"
        "cell = nn.Linear(16, 16)\n"
        "head = nn.Linear(16, 1)\n"
        "opt = torch.optim.SGD(list(cell.parameters()) + list(head.parameters()), lr=0.01)\n"
        "hidden = torch.zeros(4, 16)\n"
        "for step in range(100):\n"
        "    hidden = torch.tanh(cell(hidden) + torch.randn(4, 16))\n"
        "    loss = head(hidden).pow(2).mean()\n"
        "    opt.zero_grad()\n"
        "    loss.backward(retain_graph=True)\n"
        "    opt.step()\n");
  const RunOutput r = confirm({"rnn.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("error[SL010]"));
  EXPECT_THAT(r.out, HasSubstr("the script crashed after "));
  EXPECT_THAT(r.out, HasSubstr("RuntimeError: one of the variables needed for gradient "
                               "computation has been modified by an inplace operation"));
  EXPECT_THAT(r.out, HasSubstr("(rnn.py, line 11)"));
  EXPECT_THAT(r.out, HasSubstr("this crash is the finding's symptom"));
  EXPECT_THAT(r.out, Not(HasSubstr("raise --steps")));
}

TEST_F(ConfirmWordingTest, AnSl005CrashFromAnInPlaceStepIsNamedAsItsSymptom) {
  // A GRU's hidden state fed back with its graph, kept by retain_graph: the optimizer step
  // changes a weight the kept graph saved, and the second backward fails (issue 40).
  write("gru.py",
        "import torch\n"
        "from torch import nn\n"
        "model = nn.GRU(8, 16, batch_first=True)\n"
        "head = nn.Linear(16, 1)\n"
        "opt = torch.optim.SGD(list(model.parameters()) + list(head.parameters()), lr=0.01)\n"
        "hidden = torch.zeros(1, 4, 16)\n"
        "for step in range(100):\n"
        "    data = torch.randn(4, 5, 8)\n"
        "    opt.zero_grad()\n"
        "    output, hidden = model(data, hidden)\n"
        "    loss = head(output).pow(2).mean()\n"
        "    loss.backward(retain_graph=True)\n"
        "    opt.step()\n");
  const RunOutput r = confirm({"gru.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  // SL005's own block, up to the next finding.
  const size_t begin = r.out.find("error[SL005]");
  ASSERT_NE(begin, std::string::npos) << describe(r);
  const std::string sl005 = r.out.substr(begin, r.out.find("\ngru.py:", begin) - begin);
  EXPECT_THAT(sl005, HasSubstr("= too few iterations: the script crashed after 1 iteration: "
                               "RuntimeError: one of the variables needed for gradient "
                               "computation has been modified by an inplace operation"))
      << describe(r);
  EXPECT_THAT(sl005, HasSubstr("(gru.py, line 12); this crash is the finding's symptom: the graph "
                               "kept from an earlier iteration saved a tensor that was then "
                               "changed in place"))
      << describe(r);
  EXPECT_THAT(sl005, Not(HasSubstr("raise --steps"))) << describe(r);
}

TEST_F(ConfirmWordingTest, PredictionsCollectedWithoutAGraphAreBoundedByThePass) {
  // A correct evaluation: predictions without a graph, kept in a local for the epoch's metric.
  write("preds.py",
        "import torch\n"
        "from torch import nn\n"
        "net = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 4))\n"
        "batches = [torch.randn(32, 64) for _ in range(40)]\n"
        "def predict(net, batches):\n"
        "    preds_all = []\n"
        "    with torch.no_grad():\n"
        "        for xb in batches:\n"
        "            out = net(xb)\n"
        "            preds_all.append(out.argmax(1))\n"
        "    return torch.cat(preds_all)\n"
        "print(predict(net, batches).shape)\n");
  const RunOutput r = confirm({"preds.py"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("preds.py:8: loop that runs a model without a finding: not "
                               "confirmed: `preds_all` collects 256 B of tensors per iteration "
                               "without an autograd graph"))
      << describe(r);
  EXPECT_THAT(r.out, HasSubstr("(at most 10.0 KiB for a pass of 40 iterations)")) << describe(r);
  EXPECT_THAT(r.out, Not(HasSubstr("a leak no finding explains"))) << describe(r);
}

}  // namespace
}  // namespace sealint::e2e
