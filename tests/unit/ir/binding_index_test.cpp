#include "analyzer/ir/binding_index.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analyzer/ir/bindings.h"
#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "tests/unit/lower_for_test.h"

namespace sealint::ir {
namespace {

// Every binding shape the walks of escape.cpp tell apart: a parameter, `self`, `global`, a
// binding before, inside, after and in the `else` of a loop, a nested loop, a loop's own target,
// a name never bound, an attribute place, a nested def.
constexpr std::string_view kSource = R"(import torch
total = 0
for x in data:
    total += x
else:
    after_else = 1

def train(model, data, steps):
    global seen
    hidden = None
    count = 0
    for epoch in range(steps):
        losses = []
        for batch in data:
            loss = model(batch)
            hidden = loss
            losses.append(loss)
            inner = 1
        count += 1
        seen = epoch
        def helper():
            nested = 1
    late = hidden
    return count

class Trainer:
    def step(self, data):
        for x in data:
            self.history.append(x)
            self.total = x
)";

// The index gives the walks' own answers for every loop of every function and every name the
// file binds or reads, so that the rules it serves find what they found before.
TEST(BindingIndexTest, AnswersAsTheWalksDo) {
  const auto lowered = sealint::testing::lower_python(std::string(kSource));
  std::vector<std::string> keys = {"data",  "model",   "self", "self.history", "self.total",
                                   "steps", "unbound", "seen", "nested",       "hidden.grad"};
  int loops = 0;
  for (const Function& function : lowered.module->functions()) {
    const BindingIndex index(function);
    std::vector<const Stmt*> statements;
    for_each_nested(function.body, [&](const Stmt& stmt) {
      statements.push_back(&stmt);
      bound_keys(stmt, keys);
    });
    for (const Stmt* stmt : statements) {
      for (const std::string& key : keys) {
        EXPECT_EQ(index.binding_before(*stmt, key), binding_before(function, *stmt, key))
            << function.name << " " << key << " at " << stmt->range.begin;
        if (stmt->kind != StmtKind::Loop) continue;
        EXPECT_EQ(index.defined_outside(*stmt, key), defined_outside(function, *stmt, key))
            << function.name << " " << key << " at " << stmt->range.begin;
      }
      loops += stmt->kind == StmtKind::Loop ? 1 : 0;
    }
  }
  EXPECT_EQ(loops, 4);
}

TEST(BindingIndexTest, ABindingInsideTheLoopIsNotOutsideIt) {
  const auto lowered = sealint::testing::lower_python(std::string(kSource));
  const Function& train = sealint::testing::function_named(*lowered.module, "train");
  const Stmt* epochs = nullptr;
  for_each_nested(train.body, [&](const Stmt& stmt) {
    if (epochs == nullptr && stmt.kind == StmtKind::Loop) epochs = &stmt;
  });
  ASSERT_NE(epochs, nullptr);
  const BindingIndex index(train);
  EXPECT_FALSE(index.defined_outside(*epochs, "losses"));  // bound in the body only
  EXPECT_TRUE(index.defined_outside(*epochs, "count"));    // bound before, too
  EXPECT_TRUE(index.defined_outside(*epochs, "hidden"));
  EXPECT_TRUE(index.defined_outside(*epochs, "seen"));    // `global`
  EXPECT_TRUE(index.defined_outside(*epochs, "steps"));   // a parameter
  EXPECT_FALSE(index.defined_outside(*epochs, "epoch"));  // the loop's own target
  ASSERT_NE(index.binding_before(*epochs, "hidden"), nullptr);
  EXPECT_EQ(index.binding_before(*epochs, "losses"), nullptr);
}

}  // namespace
}  // namespace sealint::ir
