// PlaceState's merges give what merging whole copies of the state gave: each place either branch
// (or a loop body, or a handler) wrote becomes the join of its two values, a place written on one
// side only is joined with "unknown", and a place nobody wrote keeps its value.
#include "analyzer/ir/place_state.h"

#include <gtest/gtest.h>

namespace sealint::ir {
namespace {

Fact with_grad() {
  return grad_fact();
}
Fact without_grad() {
  return no_grad_fact(ValueKind::Tensor);
}

TEST(PlaceStateTest, AnIfJoinsWhatEitherBranchWroteAndKeepsTheRest) {
  PlaceState state;
  state.set("kept", without_grad());
  state.set("both", without_grad());
  state.open_scope();
  state.set("both", with_grad());  // then-branch
  state.set("then_only", without_grad());
  state.erase("kept");
  const PlaceState::Branch taken = state.undo_scope();
  EXPECT_EQ(*state.find("kept"), without_grad()) << "undone for the else-branch";
  EXPECT_FALSE(state.contains("then_only"));
  state.set("else_only", with_grad());  // else-branch
  state.join_with_branch(taken);
  state.close_scope();
  EXPECT_EQ(state.find("both")->grad, Grad::Yes);
  EXPECT_EQ(state.find("then_only")->grad, Grad::Unknown) << "no on one path, unknown on the other";
  EXPECT_EQ(state.find("else_only")->grad, Grad::Yes) << "yes on any path is evidence";
  EXPECT_EQ(state.find("kept")->grad, Grad::Unknown) << "deleted on one path";
  EXPECT_EQ(state.find("kept")->kind, ValueKind::Tensor);
}

TEST(PlaceStateTest, APlaceAbsentOnBothPathsStaysAbsent) {
  PlaceState state;
  state.open_scope();
  state.set("temp", with_grad());
  state.erase("temp");
  const PlaceState::Branch taken = state.undo_scope();
  state.join_with_branch(taken);
  state.close_scope();
  EXPECT_FALSE(state.contains("temp"));
}

TEST(PlaceStateTest, ALoopJoinsEachPassWithTheStateBeforeIt) {
  PlaceState state;
  state.set("total", without_grad());
  state.open_scope();
  for (int pass = 0; pass < 2; ++pass) {
    state.set("total", with_grad());
    state.set("loss", with_grad());
    state.join_with_scope_start();
  }
  state.close_scope();
  EXPECT_EQ(state.find("total")->grad, Grad::Yes);
  EXPECT_EQ(state.find("loss")->grad, Grad::Yes);
}

// An inner scope's journal becomes the outer one's: undoing the outer branch undoes what the
// inner statement wrote too.
TEST(PlaceStateTest, AnInnerScopeIsUndoneWithTheOuterBranch) {
  PlaceState state;
  state.set("x", without_grad());
  state.open_scope();  // outer if
  state.open_scope();  // a loop inside its then-branch
  state.set("x", with_grad());
  state.join_with_scope_start();
  state.close_scope();
  EXPECT_EQ(state.find("x")->grad, Grad::Yes);
  const PlaceState::Branch taken = state.undo_scope();
  EXPECT_EQ(*state.find("x"), without_grad());
  state.join_with_branch(taken);
  state.close_scope();
  EXPECT_EQ(state.find("x")->grad, Grad::Yes);
}

TEST(PlaceStateTest, RebindingANameForgetsThePlacesBelowItOnly) {
  PlaceState state;
  for (const char* key : {"x", "x.a", "x.a.b", "x[0]", "xy", "x_", "y.a"})
    state.set(key, with_grad());
  state.open_scope();
  state.erase_below("x");
  EXPECT_TRUE(state.contains("x"));
  EXPECT_FALSE(state.contains("x.a"));
  EXPECT_FALSE(state.contains("x.a.b"));
  EXPECT_FALSE(state.contains("x[0]"));
  EXPECT_TRUE(state.contains("xy"));
  EXPECT_TRUE(state.contains("x_"));
  EXPECT_TRUE(state.contains("y.a"));
  (void)state.undo_scope();
  EXPECT_TRUE(state.contains("x.a.b")) << "the erase is journaled like any write";
  state.close_scope();
}

}  // namespace
}  // namespace sealint::ir
