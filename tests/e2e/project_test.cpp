// Project scope from the command line: a file named alone (as pre-commit names a changed file)
// sees the classes and helpers its imports bring from the rest of its project.
#include <string>
#include <string_view>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::string_view kMeters =
    "class AverageMeter:\n"
    "    def __init__(self):\n"
    "        self.sum = 0\n"
    "    def update(self, val):\n"
    "        self.sum += val\n";

constexpr std::string_view kScript =
    "import torch\n"
    "from tools.meters import AverageMeter\n"
    "\n"
    "def train(model, loader, optimizer, criterion):\n"
    "    meter = AverageMeter()\n"
    "    for x, y in loader:\n"
    "        loss = criterion(model(x), y)\n"
    "        loss.backward()\n"
    "        optimizer.step()\n"
    "        meter.update(loss)\n";

class ProjectTest : public E2eTest {
 protected:
  void SetUp() override {
    write("pyproject.toml", "[project]\nname = \"demo\"\n");
    write("tools/__init__.py", "");
    write("tools/meters.py", kMeters);
    write("scripts/train.py", kScript);
  }
};

TEST_F(ProjectTest, AFileNamedAloneSeesAClassOfAnotherFile) {
  const RunOutput run = this->run({"scripts/train.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("scripts/train.py:10:9: error[SL001]")) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("`AverageMeter.update()` (in ../tools/meters.py)"))
      << describe(run);
  EXPECT_EQ(run.err, "");
}

TEST_F(ProjectTest, NoProjectAnalysesTheFileAlone) {
  const RunOutput run = this->run({"--no-project", "scripts/train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr("SL001"))) << describe(run);
}

TEST_F(ProjectTest, ABrokenImportedFileLeavesTheImporterAnalysed) {
  write("tools/meters.py", std::string("class AverageMeter(:\n\x80\x81") + '\0');
  const RunOutput run = this->run({"scripts/train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file.")) << describe(run);
  EXPECT_EQ(run.err, "");  // not an input of this run: nothing to say about it
}

}  // namespace
}  // namespace sealint::e2e
