#include "analyzer/semantic/model_runs.h"

#include <algorithm>

#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/torch_nn.h"
#include "analyzer/semantic/discarded_outputs.h"

namespace sealint::semantic {

namespace {

constexpr int kMaxDepth = 3;

}  // namespace

bool is_model_call(const ir::FileAnalysis& analysis, const ir::Expr& call) {
  if (call.kind != ir::ExprKind::Call) return false;
  const ir::Expr* callee = call.callee();
  // A module, or in a method of a module class the module itself (`self(x)`).
  auto is_module = [&](const ir::Expr& e) {
    const ir::Fact& fact = analysis.fact(e);
    return fact.kind == ir::ValueKind::Module ||
           (fact.kind == ir::ValueKind::Instance && fact.instance_of != nullptr &&
            analysis.is_module_class(fact.instance_of));
  };
  if (is_module(*callee)) return true;
  if (callee->kind != ir::ExprKind::Attr) {
    // A function of another file of the project that runs a model (`forward_model(...)`).
    const ir::ForeignFunction* imported = analysis.imported_function(callee);
    return imported != nullptr && imported->runs_model;
  }
  // `model.forward(x)`, `self.forward(x)`, and a part the model holds
  // (`self.asr.speecht5.encoder(...)`).
  if (knowledge::runs_module_forward(callee->text,
                                     call.arg_count() > 0 || !call.keywords.empty()) &&
      is_module(*callee->base()))
    return true;
  // A method that another file's class defines and that runs its model, whatever it is called
  // (`encoder.forward_pass(batch)`, `model.predict_step(inputs)`).
  const ir::Callee method =
      analysis.resolve_method_anywhere(analysis.fact(*callee->base()), callee->text);
  return method.foreign != nullptr && method.foreign->runs_model;
}

bool runs_model_anywhere(const ir::FileAnalysis& analysis, const ir::Function& function) {
  // Its own model (an attribute of its object, one it builds or the module holds): a model handed
  // in as another parameter is the caller's to know, and its file may know it only by name.
  auto own_model = [&](const ir::Expr& call) {
    const ir::Expr* root = ir::root_name(call.callee());
    if (root == nullptr || root->kind != ir::ExprKind::Name) return true;
    const bool receiver = function.parent_class != nullptr && !function.params.empty() &&
                          function.params[0].name == root->text;
    return receiver || !function.has_param(root->text);
  };
  bool found = false;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    ir::for_each_expr(stmt, [&](const ir::Expr& expr) {
      found = found || (expr.kind == ir::ExprKind::Call && is_model_call(analysis, expr) &&
                        analysis.fact(expr).grad == ir::Grad::Yes && own_model(expr));
    });
  });
  if (found) return true;
  const ModelRuns::Helper helper = ModelRuns(analysis).per_call(function);
  return helper.model_call != nullptr && own_model(*helper.model_call);
}

bool is_model_class(const ir::FileAnalysis& analysis, const ir::ClassDef& cls) {
  if (analysis.is_module_class(&cls)) return true;
  // A class of its own (no base, or only `object`) is no nn.Module whatever it defines: skorch's
  // `NeuralNet(object)` has a `forward` that batches its module's calls, and drives training.
  const bool own_class = std::all_of(cls.bases.begin(), cls.bases.end(), [](const ir::Expr* base) {
    return base->kind == ir::ExprKind::Name && base->text == "object";
  });
  return !own_class && analysis.method_of(cls, "forward") != nullptr;
}

ModelRuns::Helper ModelRuns::per_call(const ir::Function& function) {
  const Found found = search(function, 0);
  return found.call == nullptr ? Helper{} : Helper{&function, found.call, found.via};
}

ModelRuns::Helper ModelRuns::helper_called(const ir::Function& caller, const ir::Expr& call) {
  if (call.kind != ir::ExprKind::Call) return {};
  const ir::Function* target = analysis_.resolve_callee(caller, call);
  if (target == nullptr || target == &caller) return {};
  const Found found = search(*target, 1);
  return found.call == nullptr ? Helper{} : Helper{target, found.call, found.via};
}

bool ModelRuns::keeps_no_graph_through(const Helper& helper, bool returns_it) {
  std::vector<Helper> chain{helper};
  while (chain.back().function != nullptr && chain.back().step_call != chain.back().model_call &&
         chain.size() <= static_cast<size_t>(kMaxDepth))
    chain.push_back(helper_called(*chain.back().function, *chain.back().step_call));
  if (chain.back().function == nullptr || chain.back().step_call != chain.back().model_call)
    return false;
  // From the function that runs the model outwards: where only values leave, the helpers
  // further out hand on values; one that returns the graph hands the question to its caller.
  for (auto at = chain.rbegin(); at != chain.rend(); ++at) {
    const ir::Expr& call = at == chain.rbegin() ? *at->model_call : *at->step_call;
    if (helper_keeps_no_graph(analysis_, *at->function, call, /*returns_it=*/false)) return true;
    if (!helper_keeps_no_graph(analysis_, *at->function, call, /*returns_it=*/true)) return false;
  }
  return returns_it;
}

ModelRuns::Found ModelRuns::search(const ir::Function& function, int depth) {
  if (auto it = functions_.find(&function); it != functions_.end())
    return {it->second.call, it->second.via, true};
  // Being searched (a cycle of calls): nothing more from here, and not an answer to keep.
  if (!searching_.insert(&function).second) return {nullptr, nullptr, false};
  Found found{nullptr, nullptr, true};
  if (!analysis_.runs_without_grad(function) && !analysis_.summary(function).trains) {
    ir::walk_statements(function, false, [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
      // A model run in a loop of its own makes `function` a whole pass (an evaluation routine
      // with its own finding), not the step of its caller's loop.
      if (found.call != nullptr || where.no_grad || !where.loops.empty()) return;
      ir::for_each_expr(stmt, [&](const ir::Expr& expr) {
        if (found.call != nullptr || expr.kind != ir::ExprKind::Call) return;
        if (is_model_call(analysis_, expr)) {
          if (analysis_.fact(expr).grad == ir::Grad::Yes) found.call = found.via = &expr;
          return;
        }
        const ir::Function* target = analysis_.resolve_callee(function, expr);
        if (target == nullptr || target == &function) return;
        if (depth >= kMaxDepth) {
          found.complete = false;  // a callee left unread
          return;
        }
        const Found inner = search(*target, depth + 1);
        found.call = inner.call;
        if (found.call != nullptr) found.via = &expr;
        found.complete = found.complete && inner.complete;
      });
    });
  }
  searching_.erase(&function);
  // An answer that left a callee unread (the depth bound, a cycle) holds for this search only,
  // so that the answer for a function does not depend on which caller asked first.
  if (found.complete) functions_[&function] = {found.call, found.via};
  return found;
}

}  // namespace sealint::semantic
