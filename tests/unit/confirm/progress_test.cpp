#include "analyzer/confirm/progress.h"

#include <gtest/gtest.h>

namespace sealint::confirm {
namespace {

using nlohmann::json;

TEST(ProgressLine, NamesEachLoopsIterationsOutOfSteps) {
  const json progress = {{"elapsed", 1.0},
                         {"steps", 20},
                         {"loops",
                          {{{"file", "/a/train.py"}, {"line", 10}, {"iterations", 12}},
                           {{"file", "/a/train.py"}, {"line", 38}, {"iterations", 0}}}}};
  EXPECT_EQ(progress_line(progress, "train.py", 3.24),
            "running train.py: line 10 12/20, line 38 0/20 (3.2 s)");
}

TEST(ProgressLine, IterationsPastStepsShowAsSteps) {
  // A loop runs on unsampled while a slower one is awaited.
  const json progress = {
      {"steps", 20},
      {"loops", {{{"line", 10}, {"iterations", 450}}, {{"line", 30}, {"iterations", 2}}}}};
  EXPECT_EQ(progress_line(progress, "t.py", 1),
            "running t.py: line 10 20/20, line 30 2/20 (1.0 s)");
}

TEST(ProgressLine, AFunctionWhoseCallsAreCountedIsNamed) {
  const json progress = {
      {"steps", 20}, {"loops", {{{"line", 15}, {"function", "training_step"}, {"iterations", 7}}}}};
  EXPECT_EQ(progress_line(progress, "lit.py", 2), "running lit.py: training_step() 7/20 (2.0 s)");
}

TEST(ProgressLine, BeforeTheProbeWritesItIsStarting) {
  EXPECT_EQ(progress_line(json(), "t.py", 0.5), "running t.py: starting (0.5 s)");
  EXPECT_EQ(progress_line(json::parse("[1, 2]"), "t.py", 0.5), "running t.py: starting (0.5 s)");
  EXPECT_EQ(progress_line({{"steps", 20}, {"loops", json::array()}}, "t.py", 2),
            "running t.py: no loop reached yet (2.0 s)");
}

}  // namespace
}  // namespace sealint::confirm
