// Shared by the end-to-end suites: the sample training scripts and a fixture that gives each test
// a fresh temp dir, used as sealint's working directory.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "tests/e2e/run_sealint.h"

namespace sealint::e2e {

// The interpreter that has torch on this machine (make deps installs python3-torch for it), for
// the tests of confirm mode.
inline constexpr std::string_view kPython = "/usr/bin/python3";

// A script of the repository's examples/ folder.
inline std::string example(std::string_view name) {
  return (source_dir() / "examples" / name).string();
}

// `total += loss` keeps every iteration's autograd graph alive: SL001 at 10:9.
inline constexpr std::string_view kLeakyTrainPy =
    "import torch\n"
    "\n"
    "def train(model, loader, optimizer, criterion):\n"
    "    total = 0\n"
    "    for x, y in loader:\n"
    "        optimizer.zero_grad()\n"
    "        loss = criterion(model(x), y)\n"
    "        loss.backward()\n"
    "        optimizer.step()\n"
    "        total += loss\n"
    "    return total\n";

// The same loop adding a Python float: nothing stays alive.
inline constexpr std::string_view kCleanTrainPy =
    "import torch\n"
    "\n"
    "def train(model, loader, optimizer, criterion):\n"
    "    total = 0\n"
    "    for x, y in loader:\n"
    "        optimizer.zero_grad()\n"
    "        loss = criterion(model(x), y)\n"
    "        loss.backward()\n"
    "        optimizer.step()\n"
    "        total += loss.item()\n"
    "    return total\n";

// A loop over a `model` and a `loss` with no torch import and no training step: plain Python.
inline constexpr std::string_view kPlainPython =
    "def score(model, rows, criterion):\n"
    "    total = 0\n"
    "    for x, y in rows:\n"
    "        loss = criterion(model(x), y)\n"
    "        total += loss\n"
    "    return total\n";

// Where kLeakyTrainPy's finding starts, as the text output prints it after the path.
inline constexpr std::string_view kLeakAt = ":10:9: error[SL001]";

class E2eTest : public ::testing::Test {
 protected:
  [[nodiscard]] RunOutput run(const std::vector<std::string>& args,
                              std::string_view stdin_bytes = {}, bool as_nobody = false) const {
    RunOutput output = run_sealint(args, dir_.path(), stdin_bytes, as_nobody);
    // Every test fails on a hang or a failed start, whatever else it checks.
    EXPECT_FALSE(output.timed_out) << describe(output);
    EXPECT_EQ(output.spawn_error, "") << describe(output);
    return output;
  }
  std::filesystem::path write(const std::filesystem::path& relative, std::string_view bytes) const {
    return dir_.write(relative, bytes);
  }
  [[nodiscard]] const std::filesystem::path& cwd() const { return dir_.path(); }

 private:
  TempDir dir_;
};

}  // namespace sealint::e2e
