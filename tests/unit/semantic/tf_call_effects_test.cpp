// What one call of a TF1 function does to the graph, as other files' summaries read it.
#include "analyzer/semantic/tf_call_effects.h"

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

constexpr std::string_view kModel = R"(import tensorflow as tf

class Model:
    def __init__(self):
        self.x = tf.placeholder(tf.float32)
        self.sess = tf.Session()
        self.cached = None

    def train(self, x):
        return self.sess.run(self.loss, feed_dict={self.x: x})

    def summary(self):
        return tf.summary.scalar("loss", self.loss)

    def lazy(self):
        if self.cached is None:
            self.cached = tf.summary.scalar("loss", self.loss)
        return self.cached

    def export(self):
        with tf.Graph().as_default():
            return tf.constant(1.0)

    def writer(self, path):
        return tf.summary.FileWriter(path)

    def run_epoch(self, data, train_op=None):
        if train_op is None:
            train_op = tf.no_op()
        for x in data:
            self.sess.run(train_op, feed_dict={self.x: x})
)";

// The effects, copied out of the IR that `tf_call_effects` points into (freed on return).
struct Effects {
  bool runs_session = false;
  const void* op_per_call = nullptr;  // compared with nullptr only: the IR is gone
  std::string unless_passed;
  std::string if_passed;
};

Effects effects_of(std::string_view code, std::string_view function) {
  auto lowered = testing::lower_python(std::string(code));
  const semantic::TfCallEffects effects = semantic::tf_call_effects(
      *lowered.module, testing::function_named(*lowered.module, function));
  return {effects.runs_session, effects.op_per_call, std::string(effects.unless_passed),
          std::string(effects.if_passed)};
}

TEST(TfCallEffects, ASessionRunIsSeenAndRunningBuildsNoOp) {
  const Effects train = effects_of(kModel, "train");
  EXPECT_TRUE(train.runs_session);
  EXPECT_EQ(train.op_per_call, nullptr);
}

TEST(TfCallEffects, AnOpBuiltOnEveryCallIsFound) {
  const Effects summary = effects_of(kModel, "summary");
  EXPECT_FALSE(summary.runs_session);
  EXPECT_NE(summary.op_per_call, nullptr);
}

TEST(TfCallEffects, OneTimeBuildsGraphsOfItsOwnInitAndWritersAreNoOpPerCall) {
  EXPECT_EQ(effects_of(kModel, "lazy").op_per_call, nullptr);
  EXPECT_EQ(effects_of(kModel, "export").op_per_call, nullptr);
  EXPECT_EQ(effects_of(kModel, "__init__").op_per_call, nullptr);
  EXPECT_EQ(effects_of(kModel, "writer").op_per_call, nullptr);
}

TEST(TfCallEffects, AnOpStandingInForAParameterNamesIt) {
  const Effects epoch = effects_of(kModel, "run_epoch");
  EXPECT_TRUE(epoch.runs_session);
  EXPECT_NE(epoch.op_per_call, nullptr);
  EXPECT_EQ(epoch.unless_passed, "train_op");
  EXPECT_EQ(effects_of(kModel, "summary").unless_passed, "");
}

TEST(TfCallEffects, AFileWithoutTensorFlowHasNone) {
  const Effects plain =
      effects_of("def summary(self):\n    return tf.summary.scalar('x', 1)\n", "summary");
  EXPECT_EQ(plain.op_per_call, nullptr);
}

}  // namespace
}  // namespace sealint
