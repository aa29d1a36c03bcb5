#pragma once
// Where a model runs and records a graph: a call of a module, and a call of the file's own
// function that runs one (a "forward helper": `out = self._forward(batch)`). A function summary
// beside grad-flow's: an evaluation loop that hands each batch to a helper method runs the model
// as surely as one that calls it in the loop body.
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

// A call that runs a model: `model(x)` on a module, or `model->forward(x)` / `model.forward(x)`
// (or another method that runs the forward pass: `model.inference(x)`).
[[nodiscard]] bool is_model_call(const ir::FileAnalysis& analysis, const ir::Expr& call);

// A model's class: an nn.Module by its bases, or a class with a base defining `forward` (a model
// deriving from a project's base in another file: `class DeepICF(GeneralRecommender)`). Whether
// autograd is on in its methods is its caller's choice.
[[nodiscard]] bool is_model_class(const ir::FileAnalysis& analysis, const ir::ClassDef& cls);

class ModelRuns {
 public:
  explicit ModelRuns(const ir::FileAnalysis& analysis) : analysis_(analysis) {}

  // A function that runs a model once per call, and where; all nullptr when none.
  struct Helper {
    const ir::Function* function = nullptr;
    const ir::Expr* model_call = nullptr;
    // The call in `function` that runs the model: `model_call` itself, or the call of the
    // function that makes it (`y_pred = self.infer(Xi)` in skorch's `validation_step`).
    const ir::Expr* step_call = nullptr;
  };

  // The first model call that `function` makes once per call and that records a graph (its
  // result has grad: autograd is on there): outside every no_grad block and every loop, directly
  // or through the file's functions it calls that way (three calls deep; deeper where a callee's
  // whole answer is known already). Empty when none does, or when `function` trains (its graph
  // is used). A cycle of calls ends: a function being searched gives nothing to its callers.
  [[nodiscard]] Helper per_call(const ir::Function& function);

  // The function of the file that `call` (made in `caller`) runs and that records a model's
  // graph once per call (a step helper), with the model call it makes; empty when none.
  [[nodiscard]] Helper helper_called(const ir::Function& caller, const ir::Expr& call);

  // Whether `helper` keeps no graph of its model run (semantic::helper_keeps_no_graph), followed
  // to the function that makes the run through the helpers between (`run2()` returning what
  // `run()` returns): one of them lets only values out (reads the run as values, detaches it)
  // and those inside it return the graph on; or, when `returns_it`, all of them return it on.
  [[nodiscard]] bool keeps_no_graph_through(const Helper& helper, bool returns_it);

 private:
  struct Found {
    const ir::Expr* call = nullptr;
    const ir::Expr* via = nullptr;  // the call in the function searched that leads to `call`
    bool complete = true;           // every callee was read: a "none" holds for every caller
  };
  Found search(const ir::Function& function, int depth);

  const ir::FileAnalysis& analysis_;
  // The answer for each function whose answer does not depend on the depth it was asked at.
  struct Answer {
    const ir::Expr* call = nullptr;
    const ir::Expr* via = nullptr;
  };
  std::unordered_map<const ir::Function*, Answer> functions_;
  std::unordered_set<const ir::Function*> searching_;
};

}  // namespace sealint::semantic
