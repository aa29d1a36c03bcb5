#include "analyzer/semantic/mode_test.h"

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

// Whether the condition of the file's first `if` is a test of the training pass.
bool is_training_test(std::string_view condition) {
  auto lowered = testing::lower_python("if " + std::string(condition) + ":\n    pass\n");
  for (const ir::Stmt* stmt : lowered.module->top_level().body) {
    if (stmt->kind == ir::StmtKind::If) return semantic::training_mode_test(stmt->value) != nullptr;
  }
  ADD_FAILURE() << "no if in: " << condition;
  return false;
}

TEST(ModeTest, TestsOfTheTrainingPass) {
  EXPECT_TRUE(is_training_test("mode == 'train'"));
  EXPECT_TRUE(is_training_test("phase in ('train', 'pretrain')"));
  EXPECT_TRUE(is_training_test("split != 'val'"));
  EXPECT_TRUE(is_training_test("is_train"));
  EXPECT_TRUE(is_training_test("self.training"));
  EXPECT_TRUE(is_training_test("not is_eval"));
  EXPECT_TRUE(is_training_test("optimizer is not None"));
  EXPECT_TRUE(is_training_test("is_train and (step + 1) % 4 == 0"));
}

TEST(ModeTest, OtherConditionsAreNot) {
  EXPECT_FALSE(is_training_test("(step + 1) % 4 == 0"));
  EXPECT_FALSE(is_training_test("trainer.is_global_zero"));
  EXPECT_FALSE(is_training_test("mode == 'val'"));
  EXPECT_FALSE(is_training_test("is_train or warmup"));
  EXPECT_FALSE(is_training_test("not is_train"));
  EXPECT_FALSE(is_training_test("phase in ('train', 'val')"));
}

}  // namespace
}  // namespace sealint
