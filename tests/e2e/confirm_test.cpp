// End-to-end: `sealint confirm` runs real scripts under Debian's python3-torch (/usr/bin/python3,
// CPU) and gives each finding a verdict measured by the probe; every fault the probe meets ends
// in a defined verdict or a clear error.
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
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

// A training loop with SL001 on `total += loss` (line 11, loop at line 7); `{body}` runs at the
// start of each iteration with `i` its index, `{after}` before the loop.
std::string leaky_script(std::string_view body, std::string_view before = "") {
  return fmt::format(
      "import sys\n"                                            // 1
      "import torch\n"                                          // 2
      "def train(model, opt, steps):\n"                         // 3
      "    total = 0\n"                                         // 4
      "    {}\n"                                                // 5
      "    i = 0\n"                                             // 6
      "    for i in range(steps):\n"                            // 7
      "        {}\n"                                            // 8
      "        loss = model(torch.randn(4, 3)).sum()\n"         // 9
      "        opt.zero_grad(); loss.backward(); opt.step()\n"  // 10
      "        total += loss\n"                                 // 11
      "    return total\n"                                      // 12
      "model = torch.nn.Linear(3, 1)\n"                         // 13
      "opt = torch.optim.SGD(model.parameters(), lr=0.01)\n"    // 14
      "if '--skip' not in sys.argv:\n"                          // 15
      "    train(model, opt, 200)\n",                           // 16
      before.empty() ? "pass" : before, body.empty() ? "pass" : body);
}

size_t count_occurrences(std::string_view text, std::string_view needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + needle.size()))
    ++count;
  return count;
}

class ConfirmTest : public E2eTest {
 protected:
  RunOutput confirm(std::vector<std::string> args) const {
    args.insert(args.begin(), {"confirm", "--python", std::string(kPython), "--steps", "10"});
    return run(args);
  }
};

TEST_F(ConfirmTest, LeakyTotalLossIsConfirmedWithNodesPerIteration) {
  const RunOutput r = confirm({example("leaky_total_loss.py"), "--", "--steps", "100"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= confirmed: `total_loss` grows by "));
  EXPECT_THAT(r.out, HasSubstr("autograd nodes per iteration over 10 iterations"));
  EXPECT_THAT(r.out, HasSubstr("1 confirmed (stopped after --steps iterations"));
  // The script's own output is not mixed into ours.
  EXPECT_THAT(r.out, Not(HasSubstr("mean loss")));
}

// Issue 41 (Low): under PYTHONSAFEPATH=1 Python puts no '' first on sys.path, and the probe's
// bootstrap removed its own folder instead ("cannot import the probe").
TEST_F(ConfirmTest, ThePythonSafePathSettingStillFindsTheProbe) {
  write("train.py", leaky_script("", ""));
  const RunOutput r =
      run_sealint({"confirm", "--python", std::string(kPython), "--steps", "6", "train.py"}, cwd(),
                  {}, false, {"PYTHONSAFEPATH=1"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= confirmed: `total` grows by ")) << describe(r);
}

// Issue 41 (Low): the script's output and its exception's message reached the terminal with
// their control characters (an ESC sequence could clear the screen or recolour our lines).
TEST_F(ConfirmTest, TheScriptsWordsReachTheTerminalWithoutControlCharacters) {
  write("train.py", leaky_script("if i == 3: print('\\x1b[31mRED\\x07'); "
                                 "raise RuntimeError('bad \\x1b[2J thing')"));
  const RunOutput r = confirm({"train.py"});
  EXPECT_THAT(r.err + r.out, HasSubstr("RuntimeError: bad \\x1b[2J thing")) << describe(r);
  EXPECT_THAT(r.err + r.out, HasSubstr("\\x1b[31mRED\\x07")) << describe(r);
  EXPECT_EQ((r.err + r.out).find('\x1b'), std::string::npos) << describe(r);
  EXPECT_EQ((r.err + r.out).find('\a'), std::string::npos) << describe(r);
}

// `-o` naming the script would replace it with the findings (lint refuses the same): refused
// before anything runs.
TEST_F(ConfirmTest, OutputNamingTheScriptIsRefused) {
  write("train.py", kLeakyTrainPy);
  const RunOutput r = confirm({"-o", "./train.py", "train.py"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("-o './train.py' names 'train.py', which confirm reads"))
      << describe(r);
  EXPECT_EQ(read_file(cwd() / "train.py"), kLeakyTrainPy);
}

// CLI11's size conversion read `-5G` as 2^64 - 5 and printed an overflow.
TEST_F(ConfirmTest, ANegativeDeviceMemoryIsRefusedAsNegative) {
  write("train.py", kLeakyTrainPy);
  const RunOutput r = confirm({"--device-memory", "-5G", "train.py"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("a memory size is positive: give it as 80GiB or 16G, not '-5G'"))
      << describe(r);
  EXPECT_THAT(r.err, Not(HasSubstr("overflow"))) << describe(r);
}

TEST_F(ConfirmTest, LeakyLossListIsConfirmed) {
  const RunOutput r = confirm({example("leaky_loss_list.py"), "--", "--steps", "100"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= confirmed: `losses` grows by "));
  // What holds it: the local list, then the newest loss tensor in it.
  EXPECT_THAT(r.out, HasSubstr("= held by: `losses` (list, 10 items, local of train) → `[9]` "
                               "(Tensor, grad_fn MseLossBackward0)"));
}

TEST_F(ConfirmTest, WhatHoldsItGoesThroughAttributesAndKeys) {
  write("train.py",
        "import torch\n"
        "class Trainer:\n"
        "    def __init__(self):\n"
        "        self.model = torch.nn.Linear(3, 1)\n"
        "        self.history = {'lr': [], 'loss': []}\n"
        "    def fit(self):\n"
        "        for step in range(100):\n"
        "            loss = self.model(torch.randn(4, 3)).sum()\n"
        "            loss.backward()\n"
        "            self.history['loss'].append(loss)\n"
        "Trainer().fit()\n");
  const RunOutput r = confirm({"--format", "json", "train.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  const auto doc = nlohmann::json::parse(r.out);
  const auto& held = doc[0]["confirmation"]["held_by"];
  ASSERT_EQ(held.size(), 4U) << r.out;
  EXPECT_EQ(held[0]["name"], "self");
  EXPECT_EQ(held[0]["type"], "Trainer");
  EXPECT_EQ(held[0]["where"], "local of fit");
  EXPECT_EQ(held[1]["name"], ".history");
  EXPECT_EQ(held[2]["name"], "['loss']");
  EXPECT_EQ(held[2]["length"], 10);
  EXPECT_EQ(held[3]["grad_fn"], "SumBackward0");
}

// Steps a framework runs: a stand-in for its loop lives in a package beside the script, as the
// real framework would in site-packages, and calls the script's hook once per batch.
constexpr std::string_view kLightningStandIn =
    "from torch import nn\n"
    "class LightningModule(nn.Module):\n"
    "    pass\n"
    "class Trainer:\n"
    "    def fit(self, module, loader):\n"
    "        optimizer = module.configure_optimizers()\n"
    "        for index, batch in enumerate(loader):\n"
    "            loss = module.training_step(batch, index)\n"
    "            optimizer.zero_grad()\n"
    "            loss.backward()\n"
    "            optimizer.step()\n";

TEST_F(ConfirmTest, AHookTheFrameworkCallsIsMeasuredPerCall) {
  write("pytorch_lightning/__init__.py", kLightningStandIn);
  write("lit.py",
        "import torch\n"
        "import pytorch_lightning as pl\n"
        "class Classifier(pl.LightningModule):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.net = torch.nn.Linear(8, 2)\n"
        "        self.step_losses = []\n"
        "    def training_step(self, batch, batch_idx):\n"
        "        x, y = batch\n"
        "        loss = torch.nn.functional.cross_entropy(self.net(x), y)\n"
        "        self.step_losses.append(loss)\n"
        "        return loss\n"
        "    def configure_optimizers(self):\n"
        "        return torch.optim.SGD(self.parameters(), lr=0.1)\n"
        "data = [(torch.randn(4, 8), torch.zeros(4, dtype=torch.long)) for _ in range(200)]\n"
        "pl.Trainer().fit(Classifier(), data)\n");
  const RunOutput r = confirm({"lit.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("lit.py:11:9: error[SL002]"));
  EXPECT_THAT(r.out, HasSubstr("= confirmed: `self.step_losses` grows by "));
  EXPECT_THAT(r.out, HasSubstr("autograd nodes per call over 10 calls"));
  EXPECT_THAT(r.out, HasSubstr("= held by: `self` (Classifier, local of training_step) → "
                               "`.step_losses` (list, 10 items)"));
  const RunOutput plan = confirm({"--plan-only", "lit.py"});
  const auto loop = nlohmann::json::parse(plan.out)["findings"][0]["loop"];
  EXPECT_EQ(loop["counts"], "calls") << plan.out;
  EXPECT_EQ(loop["function"], "training_step");
  EXPECT_EQ(loop["line"], 8);
}

TEST_F(ConfirmTest, ForwardIsMeasuredPerCallAndTheLoopCallingItSaysWhose) {
  write("train.py",
        "import torch\n"
        "class Normalizer(torch.nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.proj = torch.nn.Linear(8, 8)\n"
        "        self.running = torch.zeros(8)\n"
        "    def forward(self, x):\n"
        "        h = self.proj(x)\n"
        "        self.running = 0.9 * self.running + 0.1 * h.mean(0)\n"
        "        return h - self.running\n"
        "model = Normalizer()\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.01)\n"
        "for step in range(300):\n"
        "    loss = model(torch.randn(4, 8)).pow(2).mean()\n"
        "    opt.zero_grad()\n"
        "    loss.backward(retain_graph=True)\n"
        "    opt.step()\n");
  const RunOutput r = confirm({"train.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("train.py:9:9: error[SL001]"));
  EXPECT_THAT(r.out, HasSubstr("= confirmed: `self.running` grows by "));
  EXPECT_THAT(r.out, HasSubstr("per call over 10 calls"));
  // The training loop's own growth is the finding's, not a leak no rule reported.
  EXPECT_THAT(r.out, HasSubstr("train.py:13: training loop without a finding: confirmed"));
  EXPECT_THAT(r.out, HasSubstr("(it calls the code of the finding at train.py:9)"));
  EXPECT_THAT(r.out, Not(HasSubstr("a leak no rule reported")));
}

TEST_F(ConfirmTest, AnEvaluationStepHandedToAnEngineIsMeasuredPerCall) {
  write("ignite/__init__.py", "");
  write("ignite/engine/__init__.py",
        "class Engine:\n"
        "    def __init__(self, process_function):\n"
        "        self.process_function = process_function\n"
        "    def run(self, data):\n"
        "        for batch in data:\n"
        "            self.process_function(self, batch)\n");
  write("evaluate.py",
        "import torch\n"
        "from ignite.engine import Engine\n"
        "model = torch.nn.Linear(8, 2)\n"
        "def validation_step(engine, batch):\n"
        "    model.eval()\n"
        "    x, y = batch\n"
        "    y_pred = model(x)\n"
        "    return y_pred, y\n"
        "evaluator = Engine(validation_step)\n"
        "evaluator.run([(torch.randn(4, 8), torch.zeros(4)) for _ in range(100)])\n");
  const RunOutput r = confirm({"evaluate.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("evaluate.py:7:14: warning[SL006]"));
  EXPECT_THAT(r.out, HasSubstr("= confirmed: autograd was on when this line ran (10 of 10 calls), "
                               "and each call saved "));
}

TEST_F(ConfirmTest, RegionsInTheModulesTheScriptImportsAreConfirmed) {
  // The training loop lives in trainer.py; helpers.py has a leak in a function the run never
  // calls, which must neither hold the run nor be claimed.
  write("trainer.py",
        "import torch\n"
        "class Trainer:\n"
        "    def __init__(self, model):\n"
        "        self.model = model\n"
        "        self.opt = torch.optim.SGD(model.parameters(), lr=0.01)\n"
        "    def fit(self, steps):\n"
        "        total = 0\n"
        "        for step in range(steps):\n"
        "            loss = self.model(torch.randn(4, 3)).sum()\n"
        "            self.opt.zero_grad()\n"
        "            loss.backward()\n"
        "            self.opt.step()\n"
        "            total += loss\n"
        "        return total\n");
  write("helpers.py",
        "import torch\n"
        "def benchmark(model, opt):\n"
        "    losses = []\n"
        "    for _ in range(10):\n"
        "        loss = model(torch.randn(4, 3)).sum()\n"
        "        opt.zero_grad(); loss.backward(); opt.step()\n"
        "        losses.append(loss)\n"
        "    return losses\n");
  write("train.py",
        "import time\n"
        "import torch\n"
        "from trainer import Trainer\n"
        "import helpers\n"
        "Trainer(torch.nn.Linear(3, 1)).fit(200)\n"
        "time.sleep(60)\n");
  const RunOutput r = confirm({"train.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("trainer.py:13:13: error[SL001]"));
  EXPECT_THAT(r.out, HasSubstr("= confirmed: `total` grows by "));
  EXPECT_THAT(r.out, HasSubstr("helpers.py:7:9: error[SL002]"));
  EXPECT_THAT(r.out, HasSubstr("= not reached: the loop at line 4 never ran"));
  // Stopped once the loop that ran had its iterations: not after the script's sleep.
  EXPECT_THAT(r.out, HasSubstr("Found 2 findings in 2 modules train.py imports: 1 confirmed, "
                               "1 not reached (stopped after --steps iterations"));
  // --verify-fix copies the script only: the modules' fixes are not applied to it.
  const RunOutput fixed = confirm({"--verify-fix", "train.py"});
  EXPECT_THAT(fixed.err, HasSubstr("--verify-fix: no finding here has a fix")) << describe(fixed);
}

TEST_F(ConfirmTest, AStepABaseClassRunsInItsLoopIsMeasuredPerCall) {
  // base.py's loop calls `self.train_step(batch)`; train.py's override keeps every loss.
  write("base.py",
        "class BaseRunner:\n"
        "    def __init__(self, model, optimizer, batches):\n"
        "        self.model = model\n"
        "        self.optimizer = optimizer\n"
        "        self.batches = batches\n"
        "    def train_step(self, batch):\n"
        "        raise NotImplementedError\n"
        "    def train(self):\n"
        "        for batch in self.batches:\n"
        "            self.train_step(batch)\n");
  write("train.py",
        "import torch\n"
        "from base import BaseRunner\n"
        "class Runner(BaseRunner):\n"
        "    def __init__(self, model, optimizer, batches):\n"
        "        super().__init__(model, optimizer, batches)\n"
        "        self.losses = []\n"
        "    def train_step(self, batch):\n"
        "        x, y = batch\n"
        "        self.optimizer.zero_grad()\n"
        "        loss = torch.nn.functional.mse_loss(self.model(x), y)\n"
        "        loss.backward()\n"
        "        self.optimizer.step()\n"
        "        self.losses.append(loss)\n"
        "model = torch.nn.Linear(4, 1)\n"
        "batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(40)]\n"
        "Runner(model, torch.optim.SGD(model.parameters(), lr=0.01), batches).train()\n");
  const RunOutput r = confirm({"train.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("train.py:13:9: error[SL002]")) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= confirmed: `self.losses` grows by ")) << describe(r);
  EXPECT_THAT(r.out, HasSubstr(" per call over 10 calls")) << describe(r);
}

TEST_F(ConfirmTest, DeviceMemoryProjectsWhenTheGrowthRunsOut) {
  // 128 B of live tensors per iteration on CPU: 64 KiB lasts some 400 iterations, within one
  // pass of `for _ in range(steps)` at --steps 1000.
  const RunOutput r =
      confirm({"--device-memory", "64KiB", example("leaky_loss_list.py"), "--", "--steps", "1000"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("at this rate the 64.0 KiB of --device-memory runs out near "
                               "iteration "));
  EXPECT_THAT(r.out, HasSubstr("before the loop's 1,000 iterations end"));
  const RunOutput json_run = confirm({"--format", "json", "--device-memory", "64KiB",
                                      example("leaky_loss_list.py"), "--", "--steps", "1000"});
  const auto doc = nlohmann::json::parse(json_run.out);
  EXPECT_TRUE(doc[0]["confirmation"]["runs_out_at_iteration"].is_number_unsigned()) << json_run.out;
  // `losses` is a local of train(), freed when it returns: a pass of 100 peaks at 12.5 KiB.
  const RunOutput short_pass =
      confirm({"--device-memory", "64KiB", example("leaky_loss_list.py"), "--", "--steps", "100"});
  EXPECT_THAT(short_pass.out, HasSubstr("a local of train(), freed when it returns: a peak of "))
      << describe(short_pass);
  EXPECT_THAT(short_pass.out, Not(HasSubstr("runs out near"))) << describe(short_pass);
}

TEST_F(ConfirmTest, VerifyFixShowsGrowthThenFlatWithoutTouchingTheScript) {
  // The batches come from a module beside the script: the fixed copy must still import it.
  write("batches.py",
        "import torch\n"
        "def batch():\n"
        "    return torch.randn(4, 3)\n");
  const std::string script =
      "import torch\n"
      "from batches import batch\n"
      "model = torch.nn.Linear(3, 1)\n"
      "opt = torch.optim.SGD(model.parameters(), lr=0.01)\n"
      "total = 0\n"
      "for i in range(100):\n"
      "    loss = model(batch()).sum()\n"
      "    opt.zero_grad(); loss.backward(); opt.step()\n"
      "    total += loss\n";
  write("train.py", script);
  const RunOutput r = confirm({"--verify-fix", "train.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= confirmed: `total` grows by"));
  EXPECT_THAT(r.out, HasSubstr("= after the fix: not confirmed: no autograd graph or tensor "
                               "memory grew over 10 iterations"));
  std::ifstream in(cwd() / "train.py", std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()),
            script);

  const RunOutput json_run = confirm({"--verify-fix", "--format", "json", "train.py"});
  const auto doc = nlohmann::json::parse(json_run.out);
  EXPECT_EQ(doc[0]["confirmation"]["verdict"], "confirmed");
  EXPECT_EQ(doc[0]["after_fix"]["verdict"], "not confirmed") << json_run.out;
}

TEST_F(ConfirmTest, FixedTwinsAreNotConfirmed) {
  for (std::string_view name : {"fixed_total_loss.py", "fixed_loss_list.py"}) {
    const RunOutput r = confirm({example(name), "--", "--steps", "100"});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_THAT(r.out, HasSubstr(":10: training loop without a finding: not confirmed: no "
                                 "autograd graph or tensor memory grew over 10 iterations"))
        << name;
  }
}

TEST_F(ConfirmTest, RecurrentStateAndEvaluationWithAutogradAreConfirmed) {
  write("rnn.py",
        "import torch\n"
        "from torch import nn\n"
        "def train(rnn, head):\n"
        "    hidden = torch.zeros(1, 4, 16)\n"
        "    for step in range(100):\n"
        "        out, hidden = rnn(torch.randn(4, 5, 8), hidden)\n"
        "        loss = head(out[:, -1]).pow(2).mean()\n"
        "        loss.backward(retain_graph=True)\n"
        "def evaluate(model, batches):\n"
        "    model.eval()\n"
        "    scores = []\n"
        "    for x in batches:\n"
        "        out = model(x)\n"
        "        scores.append(out.sum().item())\n"
        "    return scores\n"
        "train(nn.GRU(8, 16, batch_first=True), nn.Linear(16, 1))\n"
        "evaluate(nn.Linear(3, 2), [torch.randn(5, 3) for _ in range(30)])\n");
  const RunOutput r = confirm({"rnn.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  // SL005 and SL010 on `hidden`; the training loop runs on while the evaluation loop has not
  // reached --steps, but only the first 10 iterations are sampled and reported.
  EXPECT_THAT(r.out, HasSubstr("error[SL005]"));
  EXPECT_THAT(r.out, HasSubstr("error[SL010]"));
  EXPECT_EQ(count_occurrences(r.out, "= confirmed: `hidden` grows by "), 2U) << r.out;
  EXPECT_THAT(r.out, HasSubstr("autograd nodes per iteration over 10 iterations"));
  EXPECT_THAT(r.out, HasSubstr("warning[SL006]"));
  EXPECT_THAT(r.out, HasSubstr("= confirmed: autograd was on when this line ran (10 of 10 "
                               "iterations), and each iteration saved "));
  EXPECT_THAT(r.out, HasSubstr("3 confirmed"));
}

TEST_F(ConfirmTest, JsonSarifAndGithubCarryTheVerdict) {
  const RunOutput json_run =
      confirm({"--format", "json", example("leaky_total_loss.py"), "--", "--steps", "100"});
  const auto findings = nlohmann::json::parse(json_run.out, nullptr, false);
  ASSERT_TRUE(findings.is_array() && findings.size() == 1) << describe(json_run);
  const nlohmann::json& c = findings[0]["confirmation"];
  EXPECT_EQ(c["verdict"], "confirmed");
  EXPECT_EQ(c["iterations"], 10);
  EXPECT_GT(c["nodes_per_iteration"].get<double>(), 0);
  EXPECT_GE(c["fit_r_squared"].get<double>(), 0.8);

  const RunOutput sarif_run =
      confirm({"--format", "sarif", example("leaky_total_loss.py"), "--", "--steps", "100"});
  const auto sarif = nlohmann::json::parse(sarif_run.out, nullptr, false);
  ASSERT_FALSE(sarif.is_discarded()) << describe(sarif_run);
  EXPECT_EQ(sarif["runs"][0]["results"][0]["properties"]["confirmation"]["verdict"], "confirmed");
  // The verdict is its own sentence after the message ("... stays alive. Confirmed: ...").
  const std::string message = sarif["runs"][0]["results"][0]["message"]["text"];
  EXPECT_THAT(message, HasSubstr(". Confirmed: ")) << message;
  EXPECT_THAT(message, Not(HasSubstr("Confirm mode"))) << message;

  const RunOutput github_run =
      confirm({"--format", "github", example("leaky_total_loss.py"), "--", "--steps", "100"});
  EXPECT_THAT(github_run.out, HasSubstr("%0Aconfirmed: `total_loss` grows by"));
}

// The working directory is not the script's folder: a module there that shadows the standard
// library (`argparse.py`, which the probe imports) never runs, as with `python3 scripts/train.py`.
TEST_F(ConfirmTest, AModuleInTheWorkingDirectoryDoesNotRunInsideTheProbe) {
  write("scripts/train.py", leaky_script(""));
  for (const char* shadow : {"argparse.py", "types.py", "json.py"})
    write(shadow, "open('shadow-ran', 'w').close()\nraise SystemExit(7)\n");
  const RunOutput r = confirm({"scripts/train.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= confirmed: `total` grows by")) << describe(r);
  EXPECT_FALSE(std::filesystem::exists(cwd() / "shadow-ran"));
}

// A script printing without end fills the log by the second: it is kept to its last part.
TEST_F(ConfirmTest, AScriptsEndlessOutputIsKeptToItsLastPart) {
  write("noise.py",
        "import sys\n"
        "def noisy():\n"
        "    for _ in range(100):\n"
        "        sys.stdout.write('x' * (1 << 20) + '\\n')\n"
        "    raise SystemExit('the last words')\n");
  write("train.py", "from noise import noisy\n" + leaky_script("", "noisy()"));
  const RunOutput r = confirm({"train.py"});
  EXPECT_EQ(r.exit_code, 2) << r.err.substr(0, 2000);
  EXPECT_THAT(r.err, HasSubstr("only its last output was kept")) << r.err.substr(0, 2000);
  EXPECT_THAT(r.err, HasSubstr("the last words")) << r.err.substr(0, 2000);
}

TEST_F(ConfirmTest, ALoopTheRunNeverReachesIsNotReachedAndNotASuccess) {
  write("train.py", leaky_script(""));
  const RunOutput r = confirm({"train.py", "--", "--skip"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= not reached: the loop at line 7 never ran (the script ended)"));
  EXPECT_THAT(r.err, HasSubstr("sealint: error: nothing was measured: no loop finished an "
                               "iteration (the script ended)"));
}

TEST_F(ConfirmTest, AScriptFailingBeforeItsLoopsShowsWhyAndFails) {
  // A missing data file, as real scripts meet it: nothing measured is not "2 loops measured".
  write("train.py", leaky_script("", "open('/nonexistent/data.bin')"));
  const RunOutput r = confirm({"train.py"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("FileNotFoundError"));
  EXPECT_THAT(r.err, HasSubstr("nothing was measured"));
}

TEST_F(ConfirmTest, AnArgparseErrorShowsTheScriptsOwnMessage) {
  write("train.py",
        "import argparse\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--data', required=True)\n"
        "parser.parse_args()\n" +
            leaky_script(""));
  const RunOutput r = confirm({"train.py"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("the following arguments are required: --data"));
}

TEST_F(ConfirmTest, AnEpochLoopOfManyBatchesIsBoundedBySteps) {
  // The mnist shape: an epoch loop around train(); no finding, so both loops are watched, and
  // the epoch loop, which encloses the batch loop, neither holds the run nor is reported.
  write("train.py",
        "import time\n"
        "import torch\n"
        "def train(model, opt):\n"
        "    for step in range(2000):\n"
        "        loss = model(torch.randn(4, 3)).sum()\n"
        "        opt.zero_grad(); loss.backward(); opt.step()\n"
        "        time.sleep(0.01)\n"
        "model = torch.nn.Linear(3, 1)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.01)\n"
        "for epoch in range(10):\n"
        "    train(model, opt)\n");
  const auto started = std::chrono::steady_clock::now();
  const RunOutput r = confirm({"train.py"});
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started)
          .count();
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("train.py:4: training loop without a finding: not confirmed: no "
                               "autograd graph or tensor memory grew over 10 iterations"));
  EXPECT_THAT(r.out, Not(HasSubstr("train.py:10:")));
  EXPECT_THAT(r.out, HasSubstr("1 loop measured (stopped after --steps iterations"));
  // 200 s of sleeping if the epoch loop held the run; the bound is generous for slow machines.
  EXPECT_LT(seconds, 60) << r.out;
}

TEST_F(ConfirmTest, TooFewIterationsIsNotNotConfirmed) {
  std::string script = leaky_script("");
  script.replace(script.find("opt, 200)"), 9, "opt, 3)");
  write("train.py", script);
  const RunOutput r = confirm({"train.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= too few iterations: only 3 iterations ran, too few to see a "
                               "trend"));
  EXPECT_THAT(r.out, HasSubstr("1 too few iterations"));
}

TEST_F(ConfirmTest, CtrlCKeepsWhatWasMeasured) {
  // The script presses Ctrl-C for the user: SIGINT to sealint, whose pid the probe's watchdog is
  // given (the script's parent is sealint's supervisor).
  write("train.py", leaky_script("if i == 8: __import__('os').kill(int(__import__('os').environ["
                                 "'SEALINT_PARENT_PID']), 2); __import__('time').sleep(1000)"));
  const RunOutput r = confirm({"train.py"});
  EXPECT_EQ(r.exit_code, 130) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("over 8 iterations"));
  EXPECT_THAT(r.out, HasSubstr("interrupted by Ctrl-C"));
}

TEST_F(ConfirmTest, AScriptThatRaisesKeepsWhatWasMeasured) {
  write("train.py", leaky_script("if i == 8: raise RuntimeError('disk full')"));
  const RunOutput r = confirm({"train.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= confirmed: `total` grows by"));
  EXPECT_THAT(r.out, HasSubstr("the script raised RuntimeError: disk full (line 8)"));
  EXPECT_THAT(r.err, HasSubstr("RuntimeError: disk full"));  // the script's traceback
}

TEST_F(ConfirmTest, SysExitBeforeTheLoopLeavesItNotReached) {
  write("train.py", leaky_script("", "sys.exit(3)"));
  const RunOutput r = confirm({"train.py"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("never ran (the script called sys.exit(3))"));
}

TEST_F(ConfirmTest, AHangIsKilledAtTheTimeoutWithWhatWasMeasured) {
  // The script blocks for good at its ninth iteration, so what is measured does not depend on the
  // machine's speed; the timeout is generous enough for torch's import on a loaded machine.
  write("train.py", leaky_script("if i == 8: __import__('time').sleep(1000)"));
  const RunOutput r = confirm({"--timeout", "40", "train.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("over 8 iterations"));
  EXPECT_THAT(r.out, HasSubstr("the run timed out after 40 s"));
}

TEST_F(ConfirmTest, AProcessTheScriptPutsInASessionOfItsOwnEndsWithTheRun) {
  // Killing the probe's process group misses it; sealint, the subreaper of the run, does not.
  write("train.py", leaky_script("if i == 2: open('escaped.pid', 'w').write(str(__import__("
                                 "'subprocess').Popen(['sleep', '300'], "
                                 "start_new_session=True).pid))"));
  const RunOutput r = confirm({"train.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  std::ifstream pid_file(cwd() / "escaped.pid");
  long pid = 0;
  ASSERT_TRUE(pid_file >> pid) << describe(r);
  ASSERT_GT(pid, 1);
  // Ended and reaped by sealint before it exited: no such process any more.
  EXPECT_NE(::kill(static_cast<pid_t>(pid), 0), 0);
  EXPECT_EQ(errno, ESRCH);
  if (::kill(static_cast<pid_t>(pid), 0) == 0) ::kill(static_cast<pid_t>(pid), SIGKILL);
}

TEST_F(ConfirmTest, StdinIsEmptyAndALoudScriptStaysOutOfOurOutput) {
  write("train.py", leaky_script("print('x' * 200 + '\\n') if i < 5 else input()"));
  const RunOutput r = confirm({"train.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("the script raised EOFError"));
  EXPECT_THAT(r.out, Not(HasSubstr("xxxxxxxxxx")));
}

TEST_F(ConfirmTest, DataLoaderWorkersAreFollowedAndEnded) {
  write("train.py",
        "import torch\n"
        "from torch.utils.data import DataLoader, TensorDataset\n"
        "def main():\n"
        "    data = TensorDataset(torch.randn(256, 3), torch.randn(256, 1))\n"
        "    loader = DataLoader(data, batch_size=4, num_workers=2)\n"
        "    model = torch.nn.Linear(3, 1)\n"
        "    opt = torch.optim.SGD(model.parameters(), lr=0.01)\n"
        "    total = 0\n"
        "    for x, y in loader:\n"
        "        loss = ((model(x) - y) ** 2).mean()\n"
        "        opt.zero_grad(); loss.backward(); opt.step()\n"
        "        total += loss\n"
        "if __name__ == '__main__':\n"
        "    main()\n");
  const RunOutput r = confirm({"train.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("= confirmed: `total` grows by"));
}

TEST_F(ConfirmTest, AnInterpreterWithoutTorchIsAClearError) {
  // /usr/bin/python3 with a `torch` package first on the path that fails to import.
  write("no_torch/torch/__init__.py", "raise ImportError('No module named torch')\n");
  const auto python = write("python-without-torch",
                            fmt::format("#!/bin/sh\nPYTHONPATH={}:$PYTHONPATH exec {} \"$@\"\n",
                                        (cwd() / "no_torch").string(), kPython));
  std::filesystem::permissions(python, std::filesystem::perms::owner_all);
  write("train.py", leaky_script(""));
  const RunOutput r = run({"confirm", "--python", python.string(), "train.py"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("cannot import torch: No module named torch"));
  EXPECT_THAT(r.err, HasSubstr("--python PATH"));
}

TEST_F(ConfirmTest, AMissingInterpreterIsAClearError) {
  write("train.py", leaky_script(""));
  const RunOutput r = run({"confirm", "--python", "/nonexistent/python3", "train.py"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("cannot run '/nonexistent/python3'"));
}

TEST_F(ConfirmTest, PlanOnlyWritesTheVersionedPlan) {
  write("train.py", leaky_script(""));
  const RunOutput r = run({"confirm", "--plan-only", "train.py"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  const auto plan = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(plan.is_discarded()) << describe(r);
  EXPECT_EQ(plan["format"], "sealint-confirm-plan");
  EXPECT_EQ(plan["version"], 1);
  EXPECT_EQ(plan["steps"], 20);
  ASSERT_EQ(plan["findings"].size(), 1U);
  EXPECT_EQ(plan["findings"][0]["rule"], "SL001");
  EXPECT_EQ(plan["findings"][0]["loop"]["line"], 7);
  EXPECT_EQ(plan["findings"][0]["variables"], nlohmann::json::array({"total"}));
}

TEST_F(ConfirmTest, VerdictsFromAResultMadeElsewhere) {
  write("train.py", leaky_script(""));
  nlohmann::json nodes = nlohmann::json::array({nullptr});
  for (int i = 1; i <= 12; ++i) nodes.push_back(7 * i);
  const nlohmann::json result = {
      {"format", "sealint-confirm-result"},
      {"version", 1},
      {"exit", {{"kind", "stopped"}}},
      {"seconds", 2.5},
      {"loops", nlohmann::json::array()},
      {"findings",
       {{{"id", 0},
         {"loop", nullptr},
         {"iterations", 12},
         {"variables", {{{"name", "total"}, {"series", {{"graph_nodes", nodes}}}}}}}}}};
  write("result.json", result.dump());
  const RunOutput r = run({"confirm", "--result", "result.json", "train.py"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("grows by 7 autograd nodes per iteration over 12 iterations"));
  write("bad.json", R"({"format": "sealint-confirm-result", "version": 9})");
  const RunOutput bad = run({"confirm", "--result", "bad.json", "train.py"});
  EXPECT_EQ(bad.exit_code, 2) << describe(bad);
  EXPECT_THAT(bad.err, HasSubstr("version 9"));
}

TEST_F(ConfirmTest, NoFindingsStillWritesTheChosenFormatToTheOutputFile) {
  write("clean.py", "x = 1\n");
  const RunOutput r = run({"confirm", "--format", "json", "-o", "out.json", "clean.py"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_file(cwd() / "out.json"), "[]\n");
}

TEST_F(ConfirmTest, OnlyOnePythonScriptIsRun) {
  write("train.cpp", "int main() {}\n");
  EXPECT_EQ(run({"confirm", "train.cpp"}).exit_code, 2);
  EXPECT_EQ(run({"confirm", "."}).exit_code, 2);
  EXPECT_EQ(run({"confirm", "missing.py"}).exit_code, 2);
  EXPECT_EQ(run({"confirm"}).exit_code, 2);
}

}  // namespace
}  // namespace sealint::e2e
