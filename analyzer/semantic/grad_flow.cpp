#include "analyzer/semantic/grad_flow.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <memory>
#include <set>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/builtins.h"
#include "analyzer/knowledge/containers.h"
#include "analyzer/knowledge/frameworks.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/knowledge/torch_api.h"
#include "analyzer/knowledge/torch_nn.h"
#include "analyzer/knowledge/torchvision.h"
#include "analyzer/knowledge/transformers.h"
#include "analyzer/semantic/guards.h"
#include "analyzer/semantic/iteration.h"
#include "analyzer/semantic/kinds_from_use.h"
#include "analyzer/semantic/torch_code.h"

namespace sealint::ir {

using knowledge::is_loader_like_name;
using knowledge::is_loss_field_name;
using knowledge::is_loss_fn_like_name;
using knowledge::is_model_like_name;
using knowledge::is_optimizer_like_name;

namespace {

using knowledge::last_component;

bool is_capitalized(std::string_view name) {
  return !name.empty() && std::isupper(static_cast<unsigned char>(name[0]));
}

}  // namespace

namespace {

// Places read by an expression: Names, attribute chains and subscripts.
void collect_places(const Expr* expr, std::vector<std::string>& out) {
  if (expr == nullptr) return;
  for_each_subexpr(*expr, [&](const Expr& sub) {
    if (sub.kind == ExprKind::Name || sub.kind == ExprKind::Attr ||
        sub.kind == ExprKind::Subscript) {
      std::string key = place_key(&sub);
      if (!key.empty()) out.push_back(std::move(key));
    }
  });
}

bool is_backward_call(const Expr& expr) {
  if (expr.kind != ExprKind::Call) return false;
  const Expr* callee = expr.callee();
  if (callee->kind == ExprKind::Attr) {
    return callee->text == "backward" || callee->text == "manual_backward";
  }
  return callee->kind == ExprKind::Name && (callee->text == "backward" || callee->text == "grad");
}

// The places whose graph an expression hands to a backward: maximal places only (`losses[-1]`
// is an element, not the list; `self.total`, not `self`). A method call with positional
// arguments passes them on (`scaler.scale(loss)`, `accelerator.backward(loss)`); one without
// transforms its receiver (`loss.mean()`, `torch.stack(losses).sum()`). Without
// `through_arguments`, only arithmetic and argument-less methods are followed: what a graph is
// computed from by a call (`data` in `model(data)`) need not carry one.
void consumed_places(const Expr* expr, std::vector<std::string>& out,
                     bool through_arguments = true) {
  std::vector<const Expr*> stack = {expr};
  while (!stack.empty()) {
    const Expr* e = stack.back();
    stack.pop_back();
    if (e == nullptr) continue;
    if (e->kind == ExprKind::Name || e->kind == ExprKind::Attr || e->kind == ExprKind::Subscript) {
      std::string key = place_key(e);
      if (!key.empty()) {
        out.push_back(std::move(key));
        continue;
      }
    }
    if (e->kind == ExprKind::Call) {
      if (through_arguments) {
        for (size_t i = 0; i < e->arg_count(); ++i) stack.push_back(e->arg(i));
      }
      // A method's receiver: `loss.sum()`; with arguments (`out.view(-1, n)`) only among the
      // sources, where what the graph was computed from counts.
      const Expr* callee = e->callee();
      if (callee->kind == ExprKind::Attr && (e->arg_count() == 0 || through_arguments))
        stack.push_back(callee->base());
      continue;
    }
    if (e->kind == ExprKind::Lambda) continue;
    for (const Expr* item : e->items) stack.push_back(item);
  }
}

struct BackwardPlaces {
  // Handed to a backward, or computed from such a place by arithmetic (`loss = total / n`):
  // they carry a graph. Sorted.
  std::vector<std::string> graphs;
  std::vector<std::string> with_sources;  // and every place they were computed from, sorted
  // Handed to a backward whole (`output.loss.backward()`, `loss = out.loss; loss.backward()`),
  // not an operand of the arithmetic that made the loss (`args.coef` in `a - args.coef * b`).
  std::vector<std::string> handed;
  // Names handed to a backward without a gradient (`loss.backward()`, `accelerator.backward(loss)`,
  // `self.manual_backward(loss)`): autograd accepts only a one-element tensor there, so what
  // they are bound to is a 0-d loss, whatever it was computed from. Sorted.
  std::vector<std::string> implicit_gradient;
};

// The name a backward call hands its graph to without a gradient, or nullptr: `x.backward()`
// (keywords other than `gradient` allowed), or one argument to a wrapper whose backward takes the
// loss (Lightning's `manual_backward`, Accelerate's and Fabric's `backward`).
const Expr* without_gradient(const Expr& call) {
  const Expr* callee = call.callee();
  if (callee->kind != ExprKind::Attr || call.keyword("gradient") != nullptr) return nullptr;
  if (callee->text == "backward" && call.arg_count() == 0) return callee->base();
  const std::string receiver_key = place_key(callee->base());
  const std::string_view receiver = last_component(receiver_key);
  const bool takes_the_loss =
      callee->text == "manual_backward" ||
      (callee->text == "backward" && (receiver == "accelerator" || receiver == "fabric"));
  return takes_the_loss && call.arg_count() == 1 ? call.arg(0) : nullptr;
}

void sort_unique(std::vector<std::string>& places) {
  std::sort(places.begin(), places.end());
  places.erase(std::unique(places.begin(), places.end()), places.end());
}

// The parts of the return statements of `function` at `slots` (FileAnalysis::returned_use): the
// whole value for -1, else the item at that tuple position.
std::vector<const Expr*> returned_parts(const Function& function, const std::vector<int>& slots) {
  std::vector<const Expr*> parts;
  if (slots.empty()) return parts;
  for_each_nested(function.body, [&](const Stmt& stmt) {
    if (stmt.kind != StmtKind::Return || stmt.value == nullptr) return;
    for (const int slot : slots) {
      if (slot < 0) {
        parts.push_back(stmt.value);
      } else if (stmt.value->kind == ExprKind::Collection &&
                 static_cast<size_t>(slot) < stmt.value->items.size()) {
        parts.push_back(stmt.value->items[static_cast<size_t>(slot)]);
      }
    }
  });
  return parts;
}

// `returned`: what the function returns to a caller's backward, consumed as by a backward here;
// `predicted`: what it returns to a caller's loss, a graph that backward consumes too.
BackwardPlaces backward_places_of(const Function& function,
                                  const std::vector<const Expr*>& returned = {},
                                  const std::vector<const Expr*>& predicted = {}) {
  std::vector<std::string> places;
  std::vector<std::string> inputs;
  std::vector<std::string> implicit_gradient;
  std::vector<const Stmt*> assignments;
  for (const Expr* part : returned) {
    if (part->kind == ExprKind::Name) implicit_gradient.emplace_back(part->text);
    consumed_places(part, places, false);
    consumed_places(part, inputs, true);
  }
  for (const Expr* part : predicted) {
    consumed_places(part, places, false);
    consumed_places(part, inputs, true);
  }
  for_each_nested(function.body, [&](const Stmt& stmt) {
    if (stmt.kind == StmtKind::Assign || stmt.kind == StmtKind::AugAssign)
      assignments.push_back(&stmt);
    for_each_expr(stmt, [&](const Expr& expr) {
      if (expr.kind != ExprKind::Call) return;
      const Expr* callee = expr.callee();
      const bool autograd_fn = callee->kind == ExprKind::Attr &&
                               (callee->text == "grad" || callee->text == "backward") &&
                               dotted_name(callee).find("autograd") != std::string::npos;
      if (!is_backward_call(expr) && !autograd_fn) return;
      if (const Expr* loss = autograd_fn ? nullptr : without_gradient(expr);
          loss != nullptr && loss->kind == ExprKind::Name) {
        implicit_gradient.emplace_back(loss->text);
      }
      // `loss.backward(retain_graph=True)` consumes the receiver; `accelerator.backward(loss)`,
      // `torch.autograd.grad(loss, params)` and `loss.backward(torch.ones_like(loss))` their
      // first argument.
      // What it is handed (`places`), and the inputs of the calls that made that value
      // (`inputs`: `out` in `crit(out, y).backward()`), which are its sources only.
      auto consume = [&](const Expr* handed) {
        consumed_places(handed, places, false);
        consumed_places(handed, inputs, true);
      };
      if (expr.arg(0) != nullptr) {
        consume(expr.arg(0));
      } else if (callee->kind == ExprKind::Attr && !autograd_fn) {
        consume(callee->base());
      }
      if (const Expr* outputs = expr.keyword("outputs")) consume(outputs);
      if (const Expr* tensors = expr.keyword("tensors")) consume(tensors);
    });
  });
  // Follow one or two assignment steps back: `loss = total / n; loss.backward()` consumes total.
  auto follow = [&](std::vector<std::string> found, bool through_arguments) {
    for (int round = 0; round < 2; ++round) {
      const size_t before = found.size();
      // A set, not a search of `found` per target: a function of many backward calls and many
      // assignments would take quadratic time.
      const std::set<std::string, std::less<>> consumed(found.begin(), found.end());
      for (const Stmt* stmt : assignments) {
        for (const Expr* target : stmt->targets) {
          const std::string key = place_key(target);
          if (!key.empty() && consumed.contains(key))
            consumed_places(stmt->value, found, through_arguments);
        }
      }
      if (found.size() == before) break;
    }
    sort_unique(found);
    return found;
  };
  BackwardPlaces result;
  // The places handed whole, through plain assignments only (`loss = out.loss`).
  std::vector<std::string> handed = places;
  for (int round = 0; round < 2; ++round) {
    const std::set<std::string, std::less<>> known(handed.begin(), handed.end());
    for (const Stmt* stmt : assignments) {
      if (stmt->kind != StmtKind::Assign || stmt->value == nullptr) continue;
      for (const Expr* target : stmt->targets) {
        const std::string key = place_key(target);
        const std::string value = place_key(stmt->value);
        if (!key.empty() && !value.empty() && known.contains(key)) handed.push_back(value);
      }
    }
  }
  sort_unique(handed);
  result.handed = std::move(handed);
  result.graphs = follow(places, false);
  places.insert(places.end(), inputs.begin(), inputs.end());
  result.with_sources = follow(std::move(places), true);
  sort_unique(implicit_gradient);
  result.implicit_gradient = std::move(implicit_gradient);
  return result;
}

}  // namespace

// Walks one function in source order, evaluating every expression against a flow-sensitive
// state of places, and writes the facts into the FileAnalysis. Loops run twice (at shallow
// depth) so that values carried across iterations reach their uses.

class GradWalker {
 public:
  GradWalker(const FileAnalysis& analysis, const Function& function,
             FileAnalysis::FunctionState& out)
      : a_(analysis), fn_(function), out_(out) {}

  void run() {
    const FileAnalysis::ReturnedUse& use = a_.returned_use(fn_);
    const std::vector<const Expr*> returned = returned_parts(fn_, use.losses);
    const std::vector<const Expr*> predicted = returned_parts(fn_, use.predictions);
    BackwardPlaces backward = backward_places_of(fn_, returned, predicted);
    out_.backward_places = std::move(backward.with_sources);
    out_.backward_graphs = std::move(backward.graphs);
    backward_handed_ = std::move(backward.handed);
    implicit_gradient_ = std::move(backward.implicit_gradient);
    no_grad_ = a_.runs_without_grad(fn_) ? 1 : 0;
    // ignite's `Metric.update(self, output)`: the framework hands in a value with a graph.
    const knowledge::FrameworkHook* hook = framework_hook_of(a_.module(), fn_);
    const knowledge::FrameworkHook* graph_param = hook;
    if (graph_param != nullptr && (graph_param->graph_param < 0 || no_grad_ > 0))
      graph_param = nullptr;
    // The same evidence as above: computed once per function, whichever asks first.
    const std::vector<ValueKind>& used_as = a_.param_kinds_by_use(fn_);
    std::vector<ValueKind> handed_as;  // what the callees it is handed to make of it, on demand
    for (size_t i = 0; i < fn_.params.size() && i < 32; ++i) {
      Fact param;
      param.params = 1U << i;
      const std::string_view name = fn_.params[i].name;
      // What the file's callers pass first (structure), the parameter's name last.
      param.kind = a_.caller_param_kind(fn_, i);
      if (param.kind == ValueKind::Module || param.kind == ValueKind::Instance)
        param.instance_of = a_.caller_param_class(fn_, i);
      // The framework's own call fills it (the parameter's place is the API, not its name).
      if (param.kind == ValueKind::Unknown && hook != nullptr &&
          hook->model_param == static_cast<int>(i))
        param.kind = ValueKind::Module;
      // `encoder: DefaultClassifier`: the class the annotation names, of the file or of the
      // project, gives its methods and attributes (a class is a claim the code relies on, unlike
      // `val: float` on a value that is handed tensors).
      // What the callers pass may say it is a module without saying which (`self.model`).
      const bool classless = param.instance_of == nullptr && param.foreign == nullptr &&
                             (param.kind == ValueKind::Unknown || param.kind == ValueKind::Module ||
                              param.kind == ValueKind::Instance);
      if (classless && fn_.params[i].annotation != nullptr) {
        const Fact annotated = a_.annotated_class(*fn_.params[i].annotation);
        if (annotated.kind != ValueKind::Unknown) param = annotated;
        param.params = 1U << i;
      }
      if (param.kind == ValueKind::Unknown) param.kind = used_as[i];
      if (param.kind == ValueKind::Unknown) {
        if (handed_as.empty()) handed_as = a_.callee_param_kinds(fn_);
        param.kind = handed_as[i];
      }
      if (param.kind == ValueKind::Unknown) {
        if (is_model_like_name(name)) param.kind = ValueKind::Module;
        if (is_loss_fn_like_name(name)) param.kind = ValueKind::LossFn;
        if (is_optimizer_like_name(name)) param.kind = ValueKind::Optimizer;
        if (is_loader_like_name(name)) param.kind = ValueKind::Loader;
      }
      // A Python annotation is the author's claim, not a type: `val: float` is handed tensors
      // (the leak itself); only a framework's table yields to it.
      const TypeHint hint = fn_.params[i].type_hint;
      const bool python_hint = a_.module().language() == Language::Python;
      // A loader hint only says what a loop over it iterates, so Python's counts too.
      param =
          with_type_hint(python_hint && hint != TypeHint::Loader ? TypeHint::Unknown : hint, param);
      // A hint that says it is no tensor (`output: int`, ignite's Frequency) wins.
      if (graph_param != nullptr && graph_param->graph_param == static_cast<int>(i) &&
          hint != TypeHint::Number) {
        param.grad = Grad::Yes;  // what it is made of stays unknown: a tensor, a tuple of them
        if (graph_param->graph_param_is_pair) prediction_pair_ = name;
      }
      // `loss.backward()` on the parameter itself (a helper that scales, backpropagates and
      // returns the loss): only a tensor with a graph takes a backward, whatever the caller
      // handed in as far as the file can tell.
      if (no_grad_ == 0 && param.grad == Grad::Unknown &&
          std::find(backward_handed_.begin(), backward_handed_.end(), name) !=
              backward_handed_.end())
        param.grad = Grad::Yes;
      if (i == 0 && fn_.parent_class != nullptr && name == kReceiver) {
        param.kind = ValueKind::Instance;
        param.instance_of = fn_.parent_class;
        param.params = 0;
      }
      state_.set(std::string(name), param);
    }
    exec_body(fn_.body);
    out_.final_state = state_.take();
  }

 private:
  // ---- statements -------------------------------------------------------------------------

  void exec_body(const std::vector<Stmt*>& body) {
    for (const Stmt* stmt : body) exec(*stmt);
  }

  void exec(const Stmt& stmt) {
    current_ = &stmt;
    switch (stmt.kind) {
      case StmtKind::Assign:
      case StmtKind::AnnAssign: {
        const Fact value = eval(stmt.value);
        for (const Expr* target : stmt.targets) {
          // `d[k] = v`, `obj.x = v`: the container and key are read, and their facts kept.
          if (target->kind == ExprKind::Subscript || target->kind == ExprKind::Attr) {
            eval(target->base());
            for (size_t i = 1; i < target->items.size(); ++i) eval(target->items[i]);
          }
          record_self_assignment(stmt, target);
          bind(target, value, stmt.value);
        }
        return;
      }
      case StmtKind::AugAssign: {
        if (stmt.targets.empty()) return;
        const Expr* target = stmt.targets[0];
        const Fact current = eval(target);
        const Fact value = eval(stmt.value);
        const std::string key = place_key(target);
        if (key.starts_with("self.") && (stmt.text == "+=" || stmt.text == "-="))
          record_effect(SelfEffect::Kind::Accumulate, key, value, &stmt, stmt.value);
        bind(target, combine(current, value, stmt.text == "+=" ? "+" : "*"), nullptr);
        return;
      }
      case StmtKind::ExprStmt:
        eval(stmt.value);
        // `torch.set_grad_enabled(False)` as a statement: grad off for what follows.
        if (stmt.guard_kind != GuardKind::Other) no_grad_ = disables_grad(stmt.guard_kind) ? 1 : 0;
        return;
      case StmtKind::Return: {
        const Fact value = eval(stmt.value);
        record_return_elements(stmt.value);
        out_.summary.returns = returned_ ? join(out_.summary.returns, value) : value;
        returned_ = true;
        return;
      }
      case StmtKind::Raise:
        eval(stmt.value);
        return;
      case StmtKind::Del:
        for (const Expr* target : stmt.targets) {
          const std::string key = place_key(target);
          if (!key.empty()) state_.erase(key);
        }
        return;
      case StmtKind::Loop:
        exec_loop(stmt);
        return;
      case StmtKind::Guard: {
        for (const Expr* item : stmt.items) eval(item);
        for (const Expr* target : stmt.targets) bind(target, Fact{}, nullptr);
        const bool off = disables_grad(stmt.guard_kind);
        const bool on = stmt.guard_kind == GuardKind::EnableGrad;
        const int saved = no_grad_;
        if (off) ++no_grad_;
        if (on) no_grad_ = 0;
        exec_body(stmt.body);
        no_grad_ = saved;
        return;
      }
      case StmtKind::If: {
        eval(stmt.value);
        state_.open_scope();
        narrow_on_none_test(stmt.value, true);
        exec_body(stmt.body);
        const PlaceState::Branch taken = state_.undo_scope();
        narrow_on_none_test(stmt.value, false);
        exec_body(stmt.orelse);
        state_.join_with_branch(taken);
        state_.close_scope();
        return;
      }
      case StmtKind::Try: {
        exec_body(stmt.body);
        state_.open_scope();  // each handler may run or not after the body
        for (const Handler& handler : stmt.handlers) {
          for (const Expr* type : handler.types) eval(type);
          if (!handler.name.empty()) state_.erase(std::string(handler.name));
          exec_body(handler.body);
          state_.join_with_scope_start();
        }
        state_.close_scope();
        exec_body(stmt.orelse);
        exec_body(stmt.finalbody);
        return;
      }
      case StmtKind::FunctionDef:
        if (stmt.function != nullptr) {
          Fact fact;
          fact.kind = ValueKind::Function;
          fact.function = stmt.function;
          state_.set(std::string(stmt.function->name), fact);
        }
        return;
      case StmtKind::ClassDef:
        if (stmt.class_def != nullptr) {
          Fact fact;
          fact.kind = ValueKind::Class;
          fact.instance_of = stmt.class_def;
          state_.set(std::string(stmt.class_def->name), fact);
        }
        return;
      case StmtKind::Import:
        for (const ImportAlias& alias : stmt.imports) state_.erase(std::string(alias.local));
        return;
      case StmtKind::Global:
        return;
      case StmtKind::Other:
        exec_body(stmt.body);
        return;
    }
  }

  void exec_loop(const Stmt& loop) {
    ++loop_depth_;
    loops_.push_back(&loop);
    loop_items_.push_back(items_of(loop));
    // Nested loops would run 2^depth times: the second pass is for shallow loops only.
    const int passes = loop_depth_ <= 3 ? 2 : 1;
    state_.open_scope();  // the body may run or not, once or again
    for (int pass = 0; pass < passes; ++pass) {
      const Fact iter = eval(loop.value);
      if (loop.loop_kind == LoopKind::For) {
        for (const Expr* target : loop.targets) bind(target, element_of(iter, loop.value), nullptr);
      }
      exec_body(loop.body);
      state_.join_with_scope_start();
    }
    state_.close_scope();
    loops_.pop_back();
    loop_items_.pop_back();
    --loop_depth_;
    exec_body(loop.orelse);
  }

  // `return output, loss.item()`: what each element holds, so that `out, l = f()` does not
  // give `l` the graph of `out`. Kept only while every return is a tuple of the same size.
  void record_return_elements(const Expr* value) {
    auto& elements = out_.summary.return_elements;
    const bool tuple = value != nullptr && value->kind == ExprKind::Collection &&
                       value->collection_kind == CollectionKind::Tuple;
    if (!tuple || (returned_ && elements.size() != value->items.size())) {
      elements.clear();
      tuples_only_ = false;
      return;
    }
    if (!tuples_only_) return;
    for (size_t i = 0; i < value->items.size(); ++i) {
      const Fact& f = a_.facts_[value->items[i]->id];
      if (returned_)
        elements[i] = join(elements[i], f);
      else
        elements.push_back(f);
    }
  }

  // `if state is not None: state = state.detach()`: on the path where the test says the name
  // is None, it holds no graph.
  void narrow_on_none_test(const Expr* test, bool taken) {
    if (test == nullptr || test->kind != ExprKind::Compare || test->items.size() != 2) return;
    const Expr* name = test->items[0];
    const Expr* none = test->items[1];
    if (name->kind != ExprKind::Name || none->kind != ExprKind::Const ||
        none->const_kind != ConstKind::None)
      return;
    const bool none_when_taken = test->text == "is";
    if ((test->text == "is" || test->text == "is not") && taken == none_when_taken) {
      state_.set(std::string(name->text), no_grad_fact());
    }
  }

  // What a method leaves in `self` that outlives the call: a parameter stored or summed into an
  // attribute (any depth), or a graph made here (outside the method's own loops, which the
  // rules check where they are).
  void record_effect(SelfEffect::Kind kind, const std::string& key, const Fact& value,
                     const Stmt* stmt, const Expr* value_expr) {
    const bool local = value.grad == Grad::Yes && no_grad_ == 0 && loop_depth_ == 0;
    if (value.params == 0 && !local) return;
    out_.summary.self_effects.push_back(
        {kind, key.substr(5), value.params, local, stmt, value_expr});
  }

  // `self.x = value` in a method: a reset of x (when value does not read it), or an
  // accumulation (`self.sum = self.sum + val`).
  void record_self_assignment(const Stmt& stmt, const Expr* target) {
    const std::string key = place_key(target);
    if (!key.starts_with("self.")) return;
    if (!reads_place(stmt.value, key)) {
      out_.summary.resets.push_back(key.substr(5));
      return;
    }
    if (stmt.value != nullptr && stmt.value->kind == ExprKind::BinOp) {
      record_effect(SelfEffect::Kind::Accumulate, key, a_.facts_[stmt.value->id], &stmt,
                    stmt.value);
    }
  }

  // ---- binding ----------------------------------------------------------------------------

  // `torch.max(x, dim)`, `x.topk(k)`, `x.sort()`: a (values, indices) pair.
  bool returns_values_and_indices(const Expr* value_expr) const {
    if (value_expr == nullptr || value_expr->kind != ExprKind::Call) return false;
    const Expr* callee = value_expr->callee();
    std::string_view name;
    size_t args = value_expr->arg_count() + value_expr->keywords.size();
    if (callee->kind == ExprKind::Attr) {
      const std::string qualified = qualified_name(a_.module(), callee);
      if (qualified.starts_with("torch.")) {
        name = callee->text;
        args = args > 0 ? args - 1 : 0;  // the tensor itself is the first argument
      } else {
        name = callee->text;  // a tensor method: `out.max(1)`
      }
    }
    if (!knowledge::kValuesAndIndicesFunctions.contains(name)) return false;
    // `torch.max(x)` without a dimension is one value.
    return name == "topk" || name == "sort" || name == "kthvalue" || args > 0;
  }

  // `expr` is the framework's `(prediction, labels)` parameter, as handed in.
  [[nodiscard]] bool is_prediction_pair(const Expr* expr) const {
    return expr != nullptr && !prediction_pair_.empty() && expr->kind == ExprKind::Name &&
           expr->text == prediction_pair_;
  }

  void bind(const Expr* target, Fact value, const Expr* value_expr) {
    if (target == nullptr) return;
    if (target->kind == ExprKind::Collection) {
      if (bind_returned_tuple(target, value_expr)) return;
      const bool same_shape = value_expr != nullptr && value_expr->kind == ExprKind::Collection &&
                              value_expr->items.size() == target->items.size();
      if (!same_shape && unpacks_loss(value)) {
        bind_loss_tuple(*target, value);
        return;
      }
      for (size_t i = 0; i < target->items.size(); ++i) {
        const Expr* item = target->items[i];
        Fact element =
            same_shape ? a_.facts_[value_expr->items[i]->id] : element_of(value, nullptr);
        // `y_pred, y = output`: the pair's labels carry no graph of the step, known from the
        // framework's convention for its output, else from the name.
        const bool labels = is_prediction_pair(value_expr) ||
                            (item->kind == ExprKind::Name && knowledge::is_target_name(item->text));
        if (!same_shape && i > 0 && labels) {
          element = Fact{};
        }
        // `values, indices = torch.max(out, 1)`: the indices are integers, with no graph.
        if (!same_shape && i == 1 && returns_values_and_indices(value_expr))
          element = no_grad_fact(ValueKind::Tensor);
        bind(item, element, same_shape ? value_expr->items[i] : nullptr);
      }
      return;
    }
    if (target->kind == ExprKind::Starred) {
      Fact list = value;
      list.kind = ValueKind::Container;
      bind(target->base(), list, nullptr);
      return;
    }
    const std::string key = place_key(target);
    if (key.empty()) return;
    // The target carries the fact it was bound to, for rules that ask about names (SL004).
    struct RecordBound {
      const Fact& value;
      Fact& slot;
      ~RecordBound() { slot = value; }
    } record{value, a_.facts_[target->id]};
    // `loss = compute(batch)` (or arithmetic on one, `-1 * torch.mean(ll)`) followed by
    // `loss.backward()`: the backward is the evidence. Not `loss = outputs.loss`: the evidence
    // is the name's, over the whole function, and an evaluation loop's `outputs` computed under
    // no_grad may bind the same name.
    if (value.grad == Grad::Unknown && no_grad_ == 0 && target->kind == ExprKind::Name &&
        value.kind != ValueKind::Module && value.kind != ValueKind::Container &&
        consumed_below(key) && value_expr != nullptr &&
        (value_expr->kind == ExprKind::Call || value_expr->kind == ExprKind::BinOp ||
         value_expr->kind == ExprKind::UnaryOp)) {
      value.grad = Grad::Yes;
      value.kind = ValueKind::Tensor;
      value.scalar = true;
    }
    if (holds_graph(value) && target->kind == ExprKind::Name &&
        std::binary_search(implicit_gradient_.begin(), implicit_gradient_.end(), key)) {
      value.scalar = true;
    }
    if (target->kind == ExprKind::Subscript) {
      // `d[k] = v` puts v in d: the container now holds what v holds.
      const std::string base = place_key(target->base());
      if (const Fact* held = state_.find(base);
          held != nullptr && held->kind == ValueKind::Container) {
        Fact container = *held;
        container.grad = join(container.grad, value.grad);
        state_.set(base, container);
      }
    }
    // Rebinding a name forgets what was known below it (`stats` for `stats["loss"]`).
    if (target->kind == ExprKind::Name) state_.erase_below(key);
    state_.set(key, value);
  }

  // A loss is 0-d: a loss call whose result is unpacked (`loss, sample_size, logs =
  // criterion(model, sample)`) returned a tuple. Its first element is the loss and the others
  // may be loss terms (`loss, loss_items = self.loss_fn(...)`, with graphs); but one named as a
  // count or a log (`sample_size`, `logging_output`) holds numbers and logged values.
  static bool unpacks_loss(const Fact& value) {
    return holds_graph(value) && value.scalar && value.kind == ValueKind::Tensor;
  }

  void bind_loss_tuple(const Expr& target, const Fact& loss) {
    for (size_t i = 0; i < target.items.size(); ++i) {
      const Expr* item = target.items[i];
      const bool side_result =
          i > 0 && item->kind == ExprKind::Name && knowledge::is_loss_side_result_name(item->text);
      bind(item, side_result ? Fact{} : element_of(loss, nullptr), nullptr);
    }
  }

  // `self.step(batch)` in a base class runs a same-file subclass's override on an instance of
  // it: the methods it may run (the base's own unless abstract, and each override), whose
  // results (and whether one trains) join. Empty when no subclass overrides the method.
  std::vector<const Function*> overriding_targets(const Expr& call) const {
    std::vector<const Function*> targets = a_.self_call_targets(call);
    std::erase(targets, &fn_);  // a method calling itself adds nothing to what it returns
    return targets;
  }

  // `loss, stats = self._compute_loss(...)` where subclasses override `_compute_loss`: each
  // element joins over the overrides, when every one returns a tuple of that size.
  bool bind_overridden_tuple(const Expr* target, const Expr& call) {
    const std::vector<const Function*> targets = overriding_targets(call);
    if (targets.empty()) return false;
    std::vector<Fact> elements(target->items.size());
    for (size_t t = 0; t < targets.size(); ++t) {
      const FunctionSummary& summary = a_.summary(*targets[t]);
      if (summary.return_elements.size() != target->items.size()) return false;
      for (size_t i = 0; i < elements.size(); ++i) {
        const Fact element =
            map_returned(summary.return_elements[i], call, {targets[t], nullptr}, 1);
        elements[i] = t == 0 ? element : join(elements[i], element);
      }
    }
    for (size_t i = 0; i < elements.size(); ++i) bind(target->items[i], elements[i], nullptr);
    return true;
  }

  // `out, loss = train_step(...)` where the file's train_step returns a tuple: element-wise.
  bool bind_returned_tuple(const Expr* target, const Expr* value_expr) {
    if (value_expr == nullptr || value_expr->kind != ExprKind::Call) return false;
    if (bind_forward_tuple(target, *value_expr)) return true;
    if (bind_overridden_tuple(target, *value_expr)) return true;
    const Callee callee = a_.resolve_callee_anywhere(fn_, *value_expr);
    if (!callee || callee.local == &fn_) return false;
    const FunctionSummary& summary = a_.summary(callee);
    if (summary.return_elements.size() != target->items.size()) return false;
    // A method called on an object skips its receiver; a function (`utils.step(...)`) has none.
    const bool method_call =
        value_expr->callee()->kind == ExprKind::Attr &&
        (callee.local != nullptr || a_.imported_function(value_expr->callee()) == nullptr);
    for (size_t i = 0; i < target->items.size(); ++i) {
      bind(target->items[i],
           map_returned(summary.return_elements[i], *value_expr, callee, method_call ? 1 : 0),
           nullptr);
    }
    return true;
  }

  // `out, perm, ratio = model(data)` where the model's class is in the file: an element its
  // `forward` returns as a number (`x.size(0) / n`) is a number; the others come from a model
  // call, with a graph unless autograd is off.
  bool bind_forward_tuple(const Expr* target, const Expr& call) {
    const Fact& model = a_.facts_[call.callee()->id];
    if (model.kind != ValueKind::Module || model.instance_of == nullptr) return false;
    const Function* forward = a_.resolve_method(model, "forward");
    if (forward == nullptr || forward == &fn_) return false;
    const FunctionSummary& summary = a_.summary(*forward);
    if (summary.return_elements.size() != target->items.size()) return false;
    for (size_t i = 0; i < target->items.size(); ++i) {
      const Fact& element = summary.return_elements[i];
      const bool plain = element.kind == ValueKind::Number ||
                         (element.grad == Grad::No && element.kind != ValueKind::Tensor);
      bind(target->items[i],
           plain ? no_grad_fact(element.kind)
                 : (no_grad_ > 0 ? no_grad_fact(ValueKind::Tensor) : grad_fact(false)),
           nullptr);
    }
    return true;
  }

  // A backward is handed `key` or a place inside it (`output.loss.backward()` for `output`), or
  // what it is handed is `key` by arithmetic. Not the inputs of the calls that made it (`data`
  // in `loss = model(data).sum()`): they need not carry a graph; nor the object holding an
  // operand of that arithmetic (`args` for `args.ent_coef` in `pg - args.ent_coef * ent`).
  bool consumed_below(const std::string& key) const {
    if (std::binary_search(out_.backward_graphs.begin(), out_.backward_graphs.end(), key))
      return true;
    const auto& places = backward_handed_;
    auto it = std::lower_bound(places.begin(), places.end(), key);
    for (; it != places.end() && it->starts_with(key); ++it) {
      if (it->size() == key.size() || (*it)[key.size()] == '.' || (*it)[key.size()] == '[')
        return true;
    }
    return false;
  }

  Fact element_of(const Fact& iterable, const Expr* iter_expr) const {
    Fact element;
    if (iterable.kind == ValueKind::Loader) return no_grad_fact(ValueKind::Tensor);
    if (iter_expr != nullptr && iter_expr->kind == ExprKind::Call &&
        iter_expr->callee()->kind == ExprKind::Name && iter_expr->callee()->text == "range") {
      return no_grad_fact(ValueKind::Number);
    }
    if (iterable.kind == ValueKind::Module) {
      element.kind = ValueKind::Module;  // `for layer in self.layers`
      return element;
    }
    element.grad = iterable.grad == Grad::Yes ? Grad::Yes : Grad::Unknown;
    element.scalar = iterable.scalar;
    element.params = iterable.params;
    if (element.grad == Grad::Yes) element.kind = ValueKind::Tensor;
    return element;
  }

  // ---- expressions ------------------------------------------------------------------------

  Fact eval(const Expr* expr) {
    if (expr == nullptr) return {};
    Fact fact = with_type_hint(expr->type_hint, eval_uncached(*expr));
    a_.facts_[expr->id] = fact;
    return fact;
  }

  // What the C++ frontend's types add: a number has no graph; a module, an optimizer or a
  // container of tensors is one whatever its name.
  static Fact with_type_hint(TypeHint hint, Fact fact) {
    switch (hint) {
      case TypeHint::Number:
        fact.grad = Grad::No;
        fact.kind = ValueKind::Number;
        fact.params = 0;
        break;
      case TypeHint::Module:
        if (fact.kind == ValueKind::Unknown || fact.kind == ValueKind::Instance)
          fact.kind = ValueKind::Module;
        break;
      case TypeHint::Optimizer:
        if (fact.kind == ValueKind::Unknown || fact.kind == ValueKind::Instance)
          fact.kind = ValueKind::Optimizer;
        break;
      case TypeHint::TensorContainer:
        fact.kind = ValueKind::Container;
        break;
      case TypeHint::Tensor:
        if (fact.kind == ValueKind::Unknown) fact.kind = ValueKind::Tensor;
        break;
      case TypeHint::Loader:
        fact.kind = ValueKind::Loader;
        break;
      case TypeHint::Unknown:
      case TypeHint::Guard:
        break;
    }
    return fact;
  }

  // Kind evidence from a name alone (`model`, `criterion`, `optimizer`, `train_loader`), for a
  // value nothing else tells about.
  static void kind_from_name(std::string_view name, Fact& fact) {
    if (fact.kind != ValueKind::Unknown || fact.grad != Grad::Unknown) return;
    if (is_model_like_name(name)) fact.kind = ValueKind::Module;
    if (is_loss_fn_like_name(name)) fact.kind = ValueKind::LossFn;
    if (is_optimizer_like_name(name)) fact.kind = ValueKind::Optimizer;
    if (is_loader_like_name(name)) fact.kind = ValueKind::Loader;
  }

  Fact lookup_name(std::string_view name) const {
    if (const Fact* known = state_.find(name)) {
      Fact fact = *known;
      kind_from_name(name, fact);
      return fact;
    }
    if (const ClassDef* cls = a_.class_named(name)) {
      Fact fact;
      fact.kind = ValueKind::Class;
      fact.instance_of = cls;
      return fact;
    }
    if (const Function* function = a_.function_named(name)) {
      Fact fact;
      fact.kind = ValueKind::Function;
      fact.function = function;
      return fact;
    }
    Fact fact = a_.global(name);
    // An imported name is a function, a class or a module, whatever it is called:
    // `from timm.utils import reparameterize_model` runs no model (unless the top level binds
    // the name again: `import model` then `model = torch.load(f)`).
    if (!a_.is_import_alias(name) || a_.binds_global(name)) kind_from_name(name, fact);
    return fact;
  }

  Fact eval_uncached(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Const:
        return e.const_kind == ConstKind::Int || e.const_kind == ConstKind::Float ||
                       e.const_kind == ConstKind::Bool
                   ? no_grad_fact(ValueKind::Number)
                   : no_grad_fact();
      case ExprKind::Name:
        return lookup_name(e.text);
      case ExprKind::Attr:
        return eval_attr(e);
      case ExprKind::Subscript:
        return eval_subscript(e);
      case ExprKind::Call:
        return eval_call(e);
      case ExprKind::BinOp: {
        const Fact lhs = eval(e.items[0]);
        const Fact rhs = eval(e.items[1]);
        return combine(lhs, rhs, e.text);
      }
      case ExprKind::UnaryOp: {
        const Fact operand = eval(e.base());
        if (e.text == "not") return no_grad_fact(ValueKind::Number);
        return no_grad_ > 0 && operand.kind != ValueKind::Number ? without_grad(operand) : operand;
      }
      case ExprKind::BoolOp:
        return join(eval(e.items[0]), eval(e.items[1]));
      case ExprKind::Compare:
        for (const Expr* item : e.items) eval(item);
        return no_grad_fact(ValueKind::Number);
      case ExprKind::Collection: {
        Fact out = no_grad_fact(ValueKind::Container);
        bool all_scalar = !e.items.empty();
        for (const Expr* item : e.items) {
          const Fact f = eval(item);
          out.grad =
              e.items.size() == 1 || item == e.items.front() ? f.grad : join(out.grad, f.grad);
          out.params |= f.params;
          out.detached = out.detached || f.detached;
          all_scalar = all_scalar && (f.scalar || f.kind == ValueKind::Number);
        }
        if (e.items.empty()) out.grad = Grad::No;
        out.scalar = all_scalar;
        return out;
      }
      case ExprKind::Comprehension:
        return eval_comprehension(e);
      case ExprKind::Starred:
      case ExprKind::Await:
        return eval(e.base());
      case ExprKind::IfExp: {
        eval(e.items[1]);
        const Fact body = eval(e.items[0]);
        const Fact orelse = eval(e.items[2]);
        // `x.detach() if isinstance(x, torch.Tensor) else x`: the other branch is no tensor.
        if (not_a_tensor_otherwise(e)) return body;
        return join(body, orelse);
      }
      case ExprKind::Lambda: {
        Fact fact;
        fact.kind = ValueKind::Function;
        return fact;
      }
      case ExprKind::NamedExpr: {
        const Fact value = eval(e.items[1]);
        bind(e.items[0], value, e.items[1]);
        return value;
      }
      case ExprKind::Slice:
        for (const Expr* item : e.items) eval(item);
        return no_grad_fact();
      case ExprKind::Other:
        // `yield value`: the operand runs; what the expression gives back is unknown.
        for (const Expr* item : e.items) eval(item);
        return {};
    }
    return {};
  }

  static Fact without_grad(Fact fact) {
    fact.grad = Grad::No;
    fact.params = 0;
    fact.detached = false;
    return fact;
  }

  Fact combine(const Fact& lhs, const Fact& rhs, std::string_view op) const {
    Fact out;
    out.params = lhs.params | rhs.params;
    if (lhs.kind == ValueKind::Container && rhs.kind == ValueKind::Container) {
      out.kind = ValueKind::Container;  // list concatenation keeps what both hold
      out.grad = join(lhs.grad, rhs.grad);
      return out;
    }
    const bool lhs_num = lhs.kind == ValueKind::Number;
    const bool rhs_num = rhs.kind == ValueKind::Number;
    if (lhs_num && rhs_num) return no_grad_fact(ValueKind::Number);
    // `[None] * n`: a preallocated list holds what its literal holds (`n` is a count, whatever
    // sealint knows of it).
    if (op == "*" && (lhs.kind == ValueKind::Container) != (rhs.kind == ValueKind::Container)) {
      const Fact& list = lhs.kind == ValueKind::Container ? lhs : rhs;
      const Fact& count = lhs.kind == ValueKind::Container ? rhs : lhs;
      if (count.grad != Grad::Yes) return list;
    }
    if (no_grad_ > 0) return no_grad_fact(ValueKind::Tensor);
    if (lhs.grad == Grad::Yes || rhs.grad == Grad::Yes) {
      out.grad = Grad::Yes;
      out.kind = ValueKind::Tensor;
      out.scalar = (lhs.scalar || lhs_num) && (rhs.scalar || rhs_num) && op != "@";
      return out;
    }
    if ((lhs.grad == Grad::No || lhs_num) && (rhs.grad == Grad::No || rhs_num)) {
      out.grad = Grad::No;
      out.kind = lhs.kind == ValueKind::Tensor || rhs.kind == ValueKind::Tensor
                     ? ValueKind::Tensor
                     : ValueKind::Unknown;
      out.detached = (lhs.detached || rhs.detached);
      out.scalar = (lhs.scalar || lhs_num) && (rhs.scalar || rhs_num);
      return out;
    }
    return out;
  }

  Fact eval_attr(const Expr& e) { return attr_of(e, eval(e.base())); }

  // The fact of `e` (an attribute) whose base evaluated to `base`: the caller that has the base's
  // fact already (a method call's receiver) does not evaluate the base again, which would make a
  // chain `x.a().b().c()` exponential.
  Fact attr_of(const Expr& e, const Fact& base) {
    const std::string key = place_key(&e);
    if (!key.empty()) {
      if (const Fact* known = state_.find(key)) return *known;
    }
    // An attribute the class of the file assigns (`self.embed = nn.Linear(...)`), on an instance
    // or on a module built from a module class of the file.
    if ((base.kind == ValueKind::Instance || base.kind == ValueKind::Module) &&
        base.instance_of != nullptr) {
      Fact attr = a_.class_attr(base.instance_of, e.text);
      if (attr.kind != ValueKind::Unknown || attr.grad != Grad::Unknown) return attr;
      if (const Function* method = a_.resolve_method(base, e.text)) {
        Fact fact;
        fact.kind = ValueKind::Function;
        fact.function = method;
        return fact;
      }
    }
    const std::string_view attr = e.text;
    if (attr == "data") {
      Fact fact = no_grad_fact(ValueKind::Tensor);
      fact.detached = base.grad == Grad::Yes;
      fact.scalar = base.scalar;
      return fact;
    }
    if (knowledge::kTensorAttributesWithoutGraph.contains(attr)) return no_grad_fact();
    if (base.kind == ValueKind::Module) {
      Fact fact;
      fact.kind = ValueKind::Module;  // a submodule (or a parameter)
      return fact;
    }
    Fact fact;
    fact.params = base.params;
    // A field of a model's output computed without autograd (`model(x).logits` under no_grad):
    // no graph either.
    if (base.grad == Grad::No && base.kind == ValueKind::Tensor && !base.detached) {
      fact = no_grad_fact(ValueKind::Tensor);
      fact.params = base.params;
      return fact;
    }
    if (base.grad == Grad::Yes && base.kind != ValueKind::Container) {
      fact.grad = Grad::Yes;
      fact.kind = ValueKind::Tensor;
      fact.scalar = base.scalar || is_loss_field_name(attr);
    }
    if (fact.kind == ValueKind::Unknown && base.kind == ValueKind::Instance) {
      // `self.criterion`, `self.model`: an attribute never assigned where we could see it.
      if (is_model_like_name(attr)) fact.kind = ValueKind::Module;
      if (is_loss_fn_like_name(attr)) fact.kind = ValueKind::LossFn;
      if (is_optimizer_like_name(attr)) fact.kind = ValueKind::Optimizer;
      if (is_loader_like_name(attr)) fact.kind = ValueKind::Loader;
    }
    // `self.runner.model`, `self.trainer.model`: the model of an object the class holds but
    // sealint cannot see (a runner built in another file).
    if (fact.kind == ValueKind::Unknown && base.kind == ValueKind::Unknown &&
        e.base()->kind == ExprKind::Attr && knowledge::is_model_noun(attr) &&
        place_key(e.base()).starts_with("self.")) {
      fact.kind = ValueKind::Module;
    }
    return fact;
  }

  Fact eval_subscript(const Expr& e) {
    const Fact base = eval(e.base());
    for (size_t i = 1; i < e.items.size(); ++i) eval(e.items[i]);
    const std::string key = place_key(&e);
    if (!key.empty()) {
      if (const Fact* known = state_.find(key)) return *known;
    }
    if (base.kind == ValueKind::Container) {
      Fact element = element_of(base, nullptr);
      return element;
    }
    // An element of a module container (`nn.ModuleList`, `nn.ModuleDict`, `nn.Sequential`) is a
    // module: `self.model["generator"](z)` runs a model, as `self.layers[i](x)` does.
    if (base.kind == ValueKind::Module) {
      Fact fact;
      fact.kind = ValueKind::Module;
      fact.params = base.params;
      return fact;
    }
    if (base.grad == Grad::Yes && no_grad_ == 0) {
      Fact fact = grad_fact(false);
      fact.params = base.params;
      return fact;
    }
    Fact fact;
    fact.params = base.params;
    if (base.grad == Grad::No) {
      fact.grad = Grad::No;
      // A slice of a tensor without a graph is such a tensor (`logits[..., :-1, :]`), on the
      // same device.
      if (base.kind == ValueKind::Tensor) fact.kind = ValueKind::Tensor;
      if (base.kind == ValueKind::Number) fact.kind = ValueKind::Number;  // `x.size()[0]`
      fact.detached = base.detached;
      fact.scalar = base.scalar;  // `loss.data[0]`: an element of a 0-d loss
    }
    return fact;
  }

  Fact eval_comprehension(const Expr& e) {
    // Comprehension targets live in their own scope: restore what they shadowed.
    std::vector<std::pair<std::string, std::optional<Fact>>> shadowed;
    for (const ComprehensionFor& gen : e.generators) {
      const Fact iter = eval(gen.iter);
      std::vector<std::string> names;
      collect_places(gen.target, names);
      for (const std::string& name : names) {
        const Fact* known = state_.find(name);
        shadowed.emplace_back(name, known == nullptr ? std::nullopt : std::optional<Fact>(*known));
      }
      bind(gen.target, element_of(iter, gen.iter), nullptr);
      for (const Expr* cond : gen.conditions) eval(cond);
    }
    Fact element = eval(e.items[0]);
    if (e.items.size() > 1) element = eval(e.items[1]);  // a dict's value
    for (auto it = shadowed.rbegin(); it != shadowed.rend(); ++it) {
      if (it->second)
        state_.set(it->first, *it->second);
      else
        state_.erase(it->first);
    }
    Fact out;
    out.kind = ValueKind::Container;
    out.grad = element.grad;
    out.scalar = element.scalar || element.kind == ValueKind::Number;
    out.params = element.params;
    out.detached = element.detached;
    return out;
  }

  // ---- calls ------------------------------------------------------------------------------

  Fact eval_call(const Expr& call) {
    std::vector<Fact> args;
    uint32_t arg_params = 0;
    bool any_grad_arg = false;
    for (size_t i = 0; i < call.arg_count(); ++i) {
      args.push_back(eval(call.arg(i)));
      arg_params |= args.back().params;
      any_grad_arg = any_grad_arg || args.back().grad == Grad::Yes;
    }
    for (const Keyword& keyword : call.keywords) {
      const Fact f = eval(keyword.value);
      arg_params |= f.params;
      any_grad_arg =
          any_grad_arg || (f.grad == Grad::Yes && !keyword.name.empty() && keyword.name != "out");
    }
    const Expr* callee = call.callee();
    if (callee->kind == ExprKind::Attr) {
      const Expr* root = root_name(callee);
      if (root != nullptr && root->kind == ExprKind::Name && a_.is_import_alias(root->text) &&
          !state_.contains(root->text)) {
        eval(callee);
        return eval_qualified(call, qualified_name(a_.module(), callee), args, any_grad_arg,
                              arg_params);
      }
      const Fact receiver = eval(callee->base());
      // `self.gru(x, h)`: an attribute of an instance that holds a module, not a method;
      // `self.runner.model(batch)`: the model of an object sealint cannot see.
      // (A module of a class of the file: only an attribute its class assigns; `model.eval()`
      // and `model.parameters()` are nn.Module's.)
      const bool assigned_part =
          receiver.kind == ValueKind::Module && receiver.instance_of != nullptr &&
          a_.class_attr(receiver.instance_of, callee->text).kind != ValueKind::Unknown;
      if (((receiver.kind == ValueKind::Instance || assigned_part) &&
           !a_.resolve_method_anywhere(receiver, callee->text)) ||
          receiver.kind == ValueKind::Unknown) {
        const Fact attribute = with_type_hint(callee->type_hint, attr_of(*callee, receiver));
        a_.facts_[callee->id] = attribute;
        if (attribute.kind == ValueKind::Module || attribute.kind == ValueKind::LossFn) {
          return call_value(call, attribute);
        }
      }
      return eval_method(call, receiver, callee->text, args, any_grad_arg, arg_params);
    }
    const Fact target = eval(callee);
    if (callee->kind == ExprKind::Name) {
      const std::string_view name = callee->text;
      if (target.kind == ValueKind::Unknown && !state_.contains(name)) {
        if (a_.is_import_alias(name)) {
          return eval_qualified(call, a_.module().resolve_import(name), args, any_grad_arg,
                                arg_params);
        }
        if (auto builtin = eval_builtin(name, args, arg_params)) return *builtin;
      }
      // A parameter: what the caller hands in is a callable nothing is known of. A name bound
      // here to another library's object (`acc = torchmetrics.Accuracy()`) is not followed: such
      // objects often compute values without a graph.
      if (target.kind == ValueKind::Unknown && target.grad == Grad::Unknown &&
          state_.contains(name) && fn_.has_param(name)) {
        return opaque_call(any_grad_arg, arg_params | target.params);
      }
    }
    return call_value(call, target);
  }

  // A call of a value nothing is known of: a parameter or a local that holds a callable
  // (`crit(model(x), y)` whatever `crit` is called). Almost every callable that takes a tensor
  // with a graph and returns a tensor keeps the graph (GENERALIZE.md), so a graph argument makes
  // a graph result while autograd is on; the callables known to cut it (`float`, `len`,
  // `.item()`, a function of the project whose summary says so) are answered before this.
  // A loss function runs here with autograd on: every loop around it computes a loss per
  // iteration, an evaluation step whatever its data is called, unless this is a module's own
  // method or one step's computation (a `forward()` or a step that sums losses over heads or
  // time steps before one backward). A model run alone is not enough: a loop over layers or
  // inputs inside one pass builds the pass itself.
  void note_loss_computed(const Expr& call) {
    if (loops_.empty()) return;
    // `for name, criterion in self.criteria.items()`: the loop goes over loss functions (the
    // terms of one loss), not over data.
    const Expr* callee = root_name(call.callee());
    for (const Stmt* loop : loops_) {
      for (const Expr* target : loop->targets) {
        bool binds = false;
        for_each_subexpr(*target, [&](const Expr& sub) {
          binds = binds || (callee != nullptr && sub.kind == ExprKind::Name &&
                            callee->kind == ExprKind::Name && sub.text == callee->text);
        });
        if (binds) return;
      }
    }
    if (fn_.parent_class != nullptr && a_.is_module_class(fn_.parent_class)) return;
    // `forward()` of a loss object of another file's class (a criterion summing its tasks'
    // losses); the name is the API, its class may be out of sight.
    if (fn_.name == "forward") return;
    // A backward in the function but outside the loop consumes what the loop built: the loop is
    // one step's computation (a sum over time steps or tasks), not a sequence of steps. Inside
    // the loop, loop_trains answers already.
    if (!out_.backward_graphs.empty() || !implicit_gradient_.empty()) return;
    for (const Stmt* loop : loops_) a_.model_run_loops_[loop] = true;
  }

  Fact opaque_call(bool any_grad_arg, uint32_t params) const {
    Fact fact;
    fact.params = params;
    if (any_grad_arg && no_grad_ == 0) {
      fact.grad = Grad::Yes;
      fact.kind = ValueKind::Tensor;
    }
    return fact;
  }

  // Calling a value: a model, a loss function, a class, a function of the file.
  // A loss's prediction (its first argument) is known to carry no graph, and no other argument
  // carries one (`loss_fn(logits, y)` with the logits computed under no_grad).
  bool inputs_without_graph(const Expr& call) const {
    if (call.arg_count() == 0) return false;
    const Fact& prediction = a_.facts_[call.arg(0)->id];
    if (prediction.grad != Grad::No) return false;
    for (size_t i = 1; i < call.arg_count(); ++i) {
      if (a_.facts_[call.arg(i)->id].grad == Grad::Yes) return false;
    }
    return true;
  }

  // The names a loop binds to its items (a `for` loop's targets, `batch = next(it)` in its body),
  // and those its body computes from them (`x = batch[0].to(device)`), with what they are items
  // of; a `for` loop over values written out (`for t in (a, b)`) or over counts (`range(n)`)
  // binds none.
  struct LoopItems {
    std::vector<std::string_view> names;
    std::vector<const Expr*> iterables;  // the loop's iterable, each `next()`'s iterator
  };
  LoopItems items_of(const Stmt& loop) const {
    LoopItems items;
    auto add_names = [&](const Expr& target) {
      for_each_subexpr(target, [&](const Expr& sub) {
        if (sub.kind == ExprKind::Name) items.names.push_back(sub.text);
      });
    };
    const bool over_items =
        loop.loop_kind == LoopKind::For && loop.value != nullptr &&
        loop.value->kind != ExprKind::Collection &&
        !(loop.value->kind == ExprKind::Call && loop.value->callee()->kind == ExprKind::Name &&
          loop.value->callee()->text == "range");
    if (over_items) {
      items.iterables.push_back(loop.value);
      for (const Expr* target : loop.targets) add_names(*target);
    }
    // `batch = next(it)`: an item advanced by hand, in a `while` or a counted loop; also through
    // a function of the file that draws it (`x, y = draw(it)`, `batch = self.feed.pull()`).
    for_each_nested(loop.body, [&](const Stmt& stmt) {
      if (stmt.kind != StmtKind::Assign || stmt.value == nullptr) return;
      const Expr& value = *stmt.value;
      bool next_item = semantic::is_next_call(value);
      if (next_item) {
        items.iterables.push_back(value.arg(0));
      } else if (a_.draws_next_item(fn_, value)) {
        next_item = true;
        for (size_t i = 0; i < value.arg_count(); ++i) items.iterables.push_back(value.arg(i));
      }
      if (!next_item && !made_from(stmt.value, items.names)) return;
      for (const Expr* target : stmt.targets) add_names(*target);
    });
    return items;
  }

  // `expr` is one of `items` or read from one: `x`, `batch[0]`, `sample.image`, `x.to(device)`.
  static bool made_from(const Expr* expr, const std::vector<std::string_view>& items) {
    expr = semantic::read_root(expr);
    return expr != nullptr && expr->kind == ExprKind::Name &&
           std::find(items.begin(), items.end(), expr->text) != items.end();
  }

  // `expr` is made from one of `items`, or computed from one by calls (`net(batch)` in
  // `head(net(batch))`, `encode(x.cuda())`): the data of this iteration, a few calls deep.
  static bool fed_from(const Expr* expr, const std::vector<std::string_view>& items, int depth) {
    if (made_from(expr, items)) return true;
    if (depth >= 3 || expr == nullptr || expr->kind != ExprKind::Call) return false;
    for (size_t i = 0; i < expr->arg_count(); ++i) {
      if (fed_from(expr->arg(i), items, depth + 1)) return true;
    }
    return false;
  }

  // A model run on the items of the loop around it makes the loop a pass over data, whatever
  // the iterable is called (`for item in items: kept.append(net(item))`). Not in a module's own
  // method or a `forward()` (a pass's own loop over its inputs), and not where a backward of the
  // function consumes what the loop built (one step's computation over its parts).
  void note_model_run(const Expr& call) {
    if (loops_.empty() || no_grad_ > 0 || fn_.name == "forward") return;
    if (fn_.parent_class != nullptr && a_.is_module_class(fn_.parent_class)) return;
    if (!out_.backward_graphs.empty() || !implicit_gradient_.empty()) return;
    // `for step in seq` over a tensor goes over its rows or time steps: one pass's input.
    const LoopItems& items = loop_items_.back();
    for (const Expr* iterable : items.iterables) {
      if (a_.facts_[iterable->id].kind == ValueKind::Tensor) return;
    }
    bool on_items = false;
    for (size_t i = 0; i < call.arg_count(); ++i)
      on_items = on_items || fed_from(call.arg(i), items.names, 0);
    if (on_items) a_.item_run_loops_[loops_.back()] = true;
  }

  Fact call_value(const Expr& call, const Fact& target) {
    switch (target.kind) {
      case ValueKind::Module:
        note_model_run(call);
        return no_grad_ > 0 ? no_grad_fact(ValueKind::Tensor) : grad_fact(false);
      case ValueKind::LossFn:
        // Of values computed without autograd (`loss_fn(logits, y)`, logits made under
        // no_grad), a loss has no graph either.
        if (no_grad_ > 0 || inputs_without_graph(call)) {
          Fact fact = no_grad_fact(ValueKind::Tensor);
          fact.scalar = true;  // still the 0-d loss, only without a graph
          return fact;
        }
        note_loss_computed(call);
        return grad_fact(true);
      case ValueKind::Class: {
        Fact fact;
        fact.instance_of = target.instance_of;
        fact.kind =
            a_.is_module_class(target.instance_of) ? ValueKind::Module : ValueKind::Instance;
        if (target.instance_of && target.instance_of->name.ends_with("Loss") &&
            fact.kind == ValueKind::Module) {
          fact.kind = ValueKind::LossFn;
        }
        return fact;
      }
      case ValueKind::Function:
        if (target.function != nullptr) return apply_summary(call, {target.function, nullptr}, 0);
        return {};
      case ValueKind::Instance:
        // `self(x)` in a method of a module class runs the module's forward.
        if (target.instance_of != nullptr && a_.is_module_class(target.instance_of))
          return no_grad_ > 0 ? no_grad_fact(ValueKind::Tensor) : grad_fact(false);
        return {};
      default:
        return {};
    }
  }

  // The result of calling an in-file function, from its summary: the returned value, with
  // grad when a grad argument flows to the return.
  Fact apply_summary(const Expr& call, const Callee& callee, size_t first_param) {
    const FunctionSummary& summary = a_.summary(callee);
    if (summary.trains) out_.summary.trains = true;
    Fact result = map_returned(summary.returns, call, callee, first_param);
    // Another file's function or method that runs a model: what it returns of the run carries
    // the graph here unless autograd is off (its own file reports the graphs it keeps).
    if (callee.foreign != nullptr && callee.foreign->runs_model &&
        result.kind != ValueKind::Number && !result.scalar) {
      result.grad = no_grad_ > 0 ? Grad::No : Grad::Yes;
      if (result.kind == ValueKind::Unknown) result.kind = ValueKind::Tensor;
    }
    return result;
  }

  // A value a function returns, seen at one call: grad when the function makes it so, or when
  // a grad argument reaches it through the parameters in `returned.params`.
  Fact map_returned(const Fact& returned, const Expr& call, const Callee& callee,
                    size_t first_param) const {
    Fact result = returned;
    result.params = 0;
    // `apply_to_tensor(hidden, torch.Tensor.detach)`: what the function makes of its arguments
    // goes through the sanitiser it is handed; the summary cannot tell.
    if (returned.params != 0 && hands_sanitiser(call)) {
      result.grad = Grad::Unknown;
      return result;
    }
    auto take = [&](const Fact& arg) {
      result.params |= arg.params;
      if (arg.grad != Grad::Yes || no_grad_ != 0) return;
      result.grad = Grad::Yes;
      result.scalar = result.scalar || arg.scalar;
      if (result.kind == ValueKind::Unknown) result.kind = ValueKind::Tensor;
    };
    for_each_argument_in(call, callee, first_param, returned.params, [&](const Expr& arg) {
      take(a_.facts_[arg.id]);
      return false;
    });
    if (no_grad_ > 0 && result.grad == Grad::Yes) result.grad = Grad::No;
    return result;
  }

  // `body if isinstance(x, torch.Tensor) else x`: where the `else` value is taken, it is not a
  // tensor.
  static bool not_a_tensor_otherwise(const Expr& e) {
    const Expr* condition = e.items[1];
    const Expr* orelse = e.items[2];
    if (condition->kind != ExprKind::Call || condition->callee()->kind != ExprKind::Name ||
        condition->callee()->text != "isinstance" || condition->arg_count() != 2 ||
        orelse->kind != ExprKind::Name) {
      return false;
    }
    const Expr* checked = condition->arg(0);
    return checked->kind == ExprKind::Name && checked->text == orelse->text &&
           dotted_name(condition->arg(1)).ends_with("Tensor");
  }

  // An argument that is a sanitising function, not a value: `torch.Tensor.detach`,
  // `lambda t: t.detach()`.
  static bool hands_sanitiser(const Expr& call) {
    auto sanitises = [](const Expr* arg) {
      if (arg->kind == ExprKind::Attr) return is_sanitiser_method(arg->text);
      if (arg->kind != ExprKind::Lambda || arg->items.empty()) return false;
      bool found = false;
      for_each_subexpr(*arg->items[0], [&](const Expr& sub) {
        found = found || (sub.kind == ExprKind::Call && sub.callee()->kind == ExprKind::Attr &&
                          is_sanitiser_method(sub.callee()->text));
      });
      return found;
    };
    for (size_t i = 0; i < call.arg_count(); ++i) {
      if (sanitises(call.arg(i))) return true;
    }
    return std::any_of(call.keywords.begin(), call.keywords.end(),
                       [&](const Keyword& k) { return sanitises(k.value); });
  }

  static bool is_sanitiser_method(std::string_view method) {
    return method == "detach" || method == "detach_" ||
           knowledge::kTensorMethodsWithoutGraph.contains(method);
  }

  Fact eval_method(const Expr& call, const Fact& receiver, std::string_view method,
                   const std::vector<Fact>& args, bool any_grad_arg, uint32_t arg_params) {
    const Expr* receiver_expr = call.callee()->base();
    // `net_g.eval()`: only a module answers it, so a value nothing else told about (a parameter
    // not named like a model) is a module from here on; so is an instance of a class whose
    // module base sealint cannot see (`model = get_model()` making a subclass of another
    // library's model), unless the class defines that method itself (an evaluator's `eval()`).
    // `df.eval("a + b")` and TF's `tensor.eval(feed_dict=...)` take arguments.
    // The receiver of a method (`self.eval()`) is what its class is: not re-decided here.
    const bool is_receiver =
        receiver_expr->kind == ExprKind::Name && receiver_expr->text == kReceiver;
    const bool unknown_kind = receiver.kind == ValueKind::Unknown ||
                              (receiver.kind == ValueKind::Instance && !is_receiver &&
                               !a_.resolve_method_anywhere(receiver, method));
    if (unknown_kind && receiver.grad == Grad::Unknown && call.arg_count() == 0 &&
        call.keywords.empty() && knowledge::kModuleOnlyMethods.contains(method)) {
      if (const std::string key = place_key(receiver_expr); !key.empty()) {
        Fact module = receiver;
        module.kind = ValueKind::Module;
        state_.set(key, module);
      }
    }
    if (method == "backward" || method == "manual_backward") {
      out_.summary.trains = true;
      return no_grad_fact();
    }
    if (method == "step" || method == "zero_grad") {
      if (receiver.kind == ValueKind::Optimizer) {
        out_.summary.trains = true;
      } else if (const Callee target = a_.resolve_method_anywhere(receiver, method)) {
        // torchopt's `MetaSGD.step(loss)`: a class of the project that steps by its own rule.
        return apply_summary(call, target, 1);
      }
      return {};
    }
    if (method == "detach" || method == "detach_") {
      Fact fact = no_grad_fact(ValueKind::Tensor);
      fact.detached = receiver.grad == Grad::Yes || receiver.detached;
      fact.scalar = receiver.scalar;
      // `hidden.detach_()` cuts the place's own history in place.
      if (method == "detach_") {
        if (const std::string key = place_key(receiver_expr); !key.empty()) state_.set(key, fact);
      }
      return fact;
    }
    if (method == "cpu" || method == "numpy" || (method == "to" && mentions_cpu(call))) {
      if (receiver.kind == ValueKind::Module) return receiver;
      Fact fact = receiver;
      fact.detached = false;  // on the host now
      if (method == "numpy") fact = no_grad_fact();
      return fact;
    }
    if (knowledge::kTensorMethodsWithoutGraph.contains(method)) {
      Fact fact = no_grad_fact(method == "item" || method == "size" || method == "numel"
                                   ? ValueKind::Number
                                   : ValueKind::Tensor);
      // `pred = out.argmax(1)` of a model's output: no graph, still on the output's device.
      fact.detached = knowledge::kTensorMethodsKeepingDevice.contains(method) &&
                      (receiver.grad == Grad::Yes || receiver.detached);
      return fact;
    }
    if (const std::vector<const Function*> targets = overriding_targets(call); !targets.empty()) {
      Fact joined = apply_summary(call, {targets[0], nullptr}, 1);
      for (size_t i = 1; i < targets.size(); ++i)
        joined = join(joined, apply_summary(call, {targets[i], nullptr}, 1));
      return joined;
    }
    if (const Callee target = a_.resolve_method_anywhere(receiver, method)) {
      Fact result = apply_summary(call, target, 1);
      // `self.forward(x)` in a method of a module class runs the module: whatever its summary
      // says it returns (it may keep its outputs on `self`), a graph is recorded.
      if (receiver.kind == ValueKind::Instance && receiver.instance_of != nullptr &&
          a_.is_module_class(receiver.instance_of) && method == "forward" && no_grad_ == 0 &&
          result.grad == Grad::Unknown) {
        result.grad = Grad::Yes;
        if (result.kind == ValueKind::Unknown) result.kind = ValueKind::Tensor;
      }
      return result;
    }
    if (receiver.kind == ValueKind::Class && receiver.instance_of != nullptr) {
      return {};  // a classmethod or static helper: not followed
    }
    // `self.loss(pred, y)`, `self.criterion(out, y)`, `trainer.compute_loss(model, batch)`: a
    // loss held in an attribute, or a method the file does not define, called on the step's
    // values.
    if ((!args.empty() || !call.keywords.empty()) && receiver.kind != ValueKind::Container &&
        (method == "loss" || is_loss_fn_like_name(method) ||
         knowledge::is_loss_function_name(method))) {
      return no_grad_ > 0 ? no_grad_fact(ValueKind::Tensor) : grad_fact(true);
    }
    switch (receiver.kind) {
      case ValueKind::Module:
        // `model.forward(x)`, and a part the model holds (`self.asr.speecht5.encoder(...)`).
        if (knowledge::runs_module_forward(method, !args.empty() || !call.keywords.empty())) {
          note_model_run(call);
          return no_grad_ > 0 ? no_grad_fact() : grad_fact(false);
        }
        if (method == "to" || method == "cuda" || method == "train" || method == "eval" ||
            method == "half" || method == "float" || method == "double" ||
            method == "requires_grad_" || method == "apply") {
          return receiver;
        }
        // Any other method of the model handed a value that carries a graph computes on it
        // (`model.decoder1(model.encoder(x))`, `policy.pi(features)`): its result carries the
        // graph on, whatever the method is called.
        if (any_grad_arg && !knowledge::kModuleMethodsWithoutGraph.contains(method))
          return no_grad_ > 0 ? no_grad_fact() : grad_fact(false);
        return {};
      case ValueKind::LossFn:
        if (method != "forward") return {};
        if (no_grad_ > 0) return no_grad_fact();
        note_loss_computed(call);
        return grad_fact(true);
      case ValueKind::Container:
        if (method == "pop" || method == "popleft" || method == "get" || method == "__getitem__") {
          return element_of(receiver, nullptr);
        }
        if (method == "copy") return receiver;
        if (const knowledge::ContainerStore* store = knowledge::container_store(method))
          note_container_store(call, receiver_expr, args, *store);
        return {};
      default:
        break;
    }
    // On a receiver of unknown kind, only a method that nothing else is known for is a store.
    if (const knowledge::ContainerStore* store = knowledge::container_store(method);
        store != nullptr && !store->ambiguous) {
      note_container_store(call, receiver_expr, args, *store);
      return {};
    }
    if (receiver.grad == Grad::Yes) {
      if (no_grad_ > 0) return no_grad_fact(ValueKind::Tensor);
      Fact fact = grad_fact(receiver.scalar || (knowledge::kTensorReductions.contains(method) &&
                                                args.empty() && call.keywords.empty()));
      fact.params = receiver.params | arg_params;
      return fact;
    }
    Fact fact;
    fact.params = receiver.params;
    // A method of a value without a graph (a comparison's bool tensor, a detached tensor) makes
    // none unless a grad argument joins in.
    if (receiver.grad == Grad::No &&
        (receiver.kind == ValueKind::Tensor || receiver.kind == ValueKind::Number) &&
        !any_grad_arg) {
      fact = no_grad_fact(ValueKind::Tensor);
      fact.detached = receiver.detached;
      fact.scalar =
          receiver.scalar || (knowledge::kTensorReductions.contains(method) && args.empty());
    }
    return fact;
  }

  static bool mentions_cpu(const Expr& call) {
    for (size_t i = 0; i < call.arg_count(); ++i) {
      const Expr* arg = call.arg(i);
      if (arg->kind == ExprKind::Const && arg->text.find("cpu") != std::string_view::npos)
        return true;
    }
    return false;
  }

  // `losses.append(loss)`: the container now holds what was stored; in a method, storing a
  // parameter into `self.<list>` is a summary effect.
  void note_container_store(const Expr& call, const Expr* receiver_expr,
                            const std::vector<Fact>& args, const knowledge::ContainerStore& store) {
    const std::string key = place_key(receiver_expr);
    if (key.empty() || args.empty()) return;
    // `insert(i, v)` with one argument is not the call the table describes: keep the first.
    const Fact& stored = store.value_arg < args.size() ? args[store.value_arg] : args[0];
    // For `extend` the argument is an iterable whose grad fact is its elements'.
    const Grad held = stored.grad;
    if (const Fact* known = state_.find(key)) {
      Fact container = *known;
      container.grad = join(container.grad, held);
      state_.set(key, container);
    } else {
      Fact fact;
      fact.kind = ValueKind::Container;
      fact.grad = held == Grad::Yes ? Grad::Yes : Grad::Unknown;
      state_.set(key, fact);
    }
    if (key.starts_with("self.")) {
      const Expr* value = call.arg(store.value_arg) ? call.arg(store.value_arg) : call.arg(0);
      record_effect(SelfEffect::Kind::Append, key, stored, current_, value);
    }
  }

  std::optional<Fact> eval_builtin(std::string_view name, const std::vector<Fact>& args,
                                   uint32_t arg_params) const {
    if (knowledge::kBuiltinsWithPlainResult.contains(name)) return no_grad_fact(ValueKind::Number);
    if (name == "sum" || name == "max" || name == "min" || name == "abs") {
      Fact out;
      out.params = arg_params;
      bool all_no = !args.empty();
      bool scalar = !args.empty();
      for (const Fact& arg : args) {
        if (arg.grad == Grad::Yes && no_grad_ == 0) out.grad = Grad::Yes;
        all_no = all_no && (arg.grad == Grad::No || arg.kind == ValueKind::Number);
        scalar = scalar && (arg.scalar || arg.kind == ValueKind::Number);
      }
      if (out.grad == Grad::Yes) {
        out.kind = ValueKind::Tensor;
        out.scalar = scalar;
      } else if (all_no) {
        out.grad = Grad::No;
      }
      return out;
    }
    if (name == "list" || name == "tuple" || name == "sorted" || name == "reversed" ||
        name == "set" || name == "deque") {
      Fact out = no_grad_fact(ValueKind::Container);
      if (!args.empty()) {
        out.grad = args[0].grad == Grad::Yes
                       ? Grad::Yes
                       : (args[0].grad == Grad::No ? Grad::No : Grad::Unknown);
        out.params = args[0].params;
        out.scalar = args[0].scalar;
      }
      return out;
    }
    if (name == "dict" || name == "defaultdict" || name == "OrderedDict")
      return no_grad_fact(ValueKind::Container);
    if (name == "enumerate" || name == "zip" || name == "iter") {
      Fact out;
      out.kind = ValueKind::Container;
      out.params = arg_params;
      if (name == "iter" && !args.empty()) return args[0];
      return out;
    }
    if (name == "next" && !args.empty()) return element_of(args[0], nullptr);
    return std::nullopt;
  }

  Fact eval_qualified(const Expr& call, const std::string& qualified, const std::vector<Fact>& args,
                      bool any_grad_arg, uint32_t arg_params) {
    const std::string_view q = qualified;
    const std::string_view last = last_component(q);
    if (q.starts_with("numpy.") || q.starts_with("math.") || q.starts_with("np."))
      return no_grad_fact(ValueKind::Number);
    // The project's own code before the knowledge tables (torch's own names never resolve into
    // the project: FileAnalysis::imported_path). A summary that knows nothing of the result
    // (horovod's own `allreduce`, an autograd Function's `apply`) leaves the answer to them.
    const std::optional<Fact> imported = eval_imported(call);
    if (imported && (imported->grad != Grad::Unknown || imported->kind != ValueKind::Unknown))
      return *imported;
    if (q == "collections.deque" || q == "collections.defaultdict" ||
        q == "collections.OrderedDict") {
      return no_grad_fact(ValueKind::Container);
    }
    if (!a_.has_torch()) return {};
    // `hvd.allreduce(loss)`, `utils.reduce_tensor(loss)`: a collective outside torch returns
    // its argument's value with its graph. (torch.distributed's collectives work in place.)
    if ((any_grad_arg || arg_params != 0) && no_grad_ == 0 && !q.starts_with("torch.") &&
        knowledge::is_collective_name(last) && !args.empty()) {
      Fact fact = any_grad_arg ? grad_fact(args[0].scalar) : Fact{};
      fact.params = arg_params;
      return fact;
    }
    if (q.ends_with("DataLoader")) return no_grad_fact(ValueKind::Loader);
    // torch.autograd.Variable (a no-op wrapper since PyTorch 0.4) is the tensor it wraps.
    if (q == "torch.autograd.Variable" || q == "torch.autograd.variable.Variable") {
      Fact fact = args.empty() ? Fact{} : args[0];
      if (fact.kind == ValueKind::Unknown) fact.kind = ValueKind::Tensor;
      const Expr* requires_grad = call.keyword("requires_grad");
      if (requires_grad != nullptr && requires_grad->text == "True") {
        fact.grad = Grad::Yes;
        fact.leaf = true;
      }
      return fact;
    }
    if (q.starts_with("torch.autograd.")) {
      if (last == "backward" || last == "grad") out_.summary.trains = true;
      return {};
    }
    if (q.starts_with("torch.optim.") && is_capitalized(last)) {
      Fact fact;
      fact.kind = ValueKind::Optimizer;
      return fact;
    }
    if (q == "torch.nn.Parameter" || q == "torch.nn.parameter.Parameter") {
      Fact parameter = grad_fact(false);
      parameter.leaf = true;
      return parameter;
    }
    if (q.starts_with("torch.nn.") && !q.starts_with("torch.nn.functional.") &&
        !q.starts_with("torch.nn.utils.") && !q.starts_with("torch.nn.init.") &&
        is_capitalized(last)) {
      Fact fact;
      fact.kind = last.ends_with("Loss") ? ValueKind::LossFn : ValueKind::Module;
      return fact;
    }
    if (knowledge::is_torchvision_model(q) || knowledge::is_transformers_model_loader(q)) {
      Fact fact;
      fact.kind = ValueKind::Module;
      return fact;
    }
    if (no_grad_ > 0 && (q.starts_with("torch."))) return no_grad_fact(ValueKind::Tensor);
    if (q.starts_with("torch.nn.functional.")) {
      if (knowledge::kLossFunctions.contains(last) || knowledge::is_loss_function_name(last)) {
        const Expr* reduction = call.keyword("reduction");
        const bool reduced =
            reduction == nullptr || reduction->text.find("none") == std::string_view::npos;
        // The loss of a detached prediction (`F.cross_entropy(y_pred.detach(), y)`) has none.
        if (!args.empty() && args[0].grad == Grad::No && !any_grad_arg) {
          Fact fact = no_grad_fact(ValueKind::Tensor);
          fact.scalar = reduced;
          return fact;
        }
        // Grad whatever the arguments (a loss of the model's output), but made from them: a
        // summary says which parameters reach it, so a caller handing detached values is seen.
        note_loss_computed(call);
        Fact fact = grad_fact(reduced);
        fact.params = arg_params;
        return fact;
      }
      if (any_grad_arg) {
        Fact fact = grad_fact(false);
        fact.params = arg_params;
        return fact;
      }
      Fact fact;
      fact.params = arg_params;
      return fact;
    }
    if (q.starts_with("torch.") && q.find('.', 6) == std::string_view::npos) {
      if (knowledge::kTorchFunctionsWithoutGraph.contains(last)) {
        Fact fact = no_grad_fact(ValueKind::Tensor);
        // `torch.argmax(out, -1)` of a model's output stays on its device.
        fact.detached = knowledge::kTensorMethodsKeepingDevice.contains(last) && !args.empty() &&
                        (args[0].grad == Grad::Yes || args[0].detached);
        return fact;
      }
      if (knowledge::kTorchFactories.contains(last)) {
        const Expr* requires_grad = call.keyword("requires_grad");
        if (requires_grad != nullptr && requires_grad->text == "True") return grad_fact(false);
        return no_grad_fact(ValueKind::Tensor);
      }
      // LibTorch spells the functional losses torch::mse_loss, torch::nll_loss ...: a 0-d loss.
      if (knowledge::kLossFunctions.contains(last) || knowledge::is_loss_function_name(last)) {
        note_loss_computed(call);
        Fact fact = grad_fact(true);
        fact.params = arg_params;
        return fact;
      }
      if (any_grad_arg) {
        Fact fact = grad_fact(last == "sum" || last == "mean" || last == "norm");
        fact.params = arg_params;
        // torch.stack(losses).sum() of a list of scalars is still a reduction away from scalar.
        return fact;
      }
      bool all_no = !args.empty();
      for (const Fact& arg : args)
        all_no = all_no && (arg.grad == Grad::No || arg.kind == ValueKind::Number);
      Fact fact = all_no ? no_grad_fact(ValueKind::Tensor) : Fact{};
      fact.params = arg_params;
      return fact;
    }
    return imported.value_or(Fact{});
  }

  // A call of a class or function another file of the project defines, from its summary.
  std::optional<Fact> eval_imported(const Expr& call) {
    const Expr* callee = call.callee();
    if (const ForeignClass* cls = a_.imported_class(callee)) return a_.instance_of_imported(*cls);
    if (const ForeignFunction* function = a_.imported_function(callee))
      return apply_summary(call, {nullptr, function}, 0);
    return std::nullopt;
  }

  const FileAnalysis& a_;
  const Function& fn_;
  FileAnalysis::FunctionState& out_;
  PlaceState state_;
  std::vector<std::string> implicit_gradient_;  // BackwardPlaces::implicit_gradient
  std::vector<std::string> backward_handed_;    // BackwardPlaces::handed
  // The framework's graph parameter that is a `(prediction, labels)` pair (ignite's `output`).
  std::string_view prediction_pair_;
  int no_grad_ = 0;
  int loop_depth_ = 0;
  std::vector<const Stmt*> loops_;  // the loops around the statement being walked, outermost first
  std::vector<LoopItems> loop_items_;  // items_of each of loops_
  const Stmt* current_ = nullptr;      // the statement being evaluated (a summary effect's site)
  bool returned_ = false;
  bool tuples_only_ = true;
};

// ---- FileAnalysis ---------------------------------------------------------------------------

FileAnalysis::FileAnalysis(const Module& module, const ProjectScope* project)
    : module_(module),
      project_(project),
      torch_code_(is_torch_code(module)),
      facts_(module.expr_count()) {
  for (const Function& function : module.functions()) {
    if (function.is_module || function.parent_class != nullptr) continue;
    functions_by_name_.emplace(function.name, &function);
  }
  for (const ClassDef& cls : module.classes()) {
    classes_by_name_.emplace(cls.name, &cls);
    auto& methods = methods_by_class_[&cls];
    for (const Function* method : cls.methods) {
      methods.emplace(method->name, method);
      const auto [it, added] = unique_methods_.emplace(method->name, method);
      if (!added) it->second = nullptr;
    }
  }
  // Which classes are nn.Modules: a base that names one, here or through the file's imports.
  for (size_t round = 0; round < module.classes().size() + 1; ++round) {
    bool changed = false;
    for (const ClassDef& cls : module.classes()) {
      if (module_classes_[&cls]) continue;
      for (const Expr* base : cls.bases) {
        const std::string q = qualified_name(module, base);
        const ClassDef* local = base->kind == ExprKind::Name ? class_named(base->text) : nullptr;
        const ForeignClass* imported = local == nullptr ? imported_class(base) : nullptr;
        if (q.ends_with("Module") || q.ends_with("Sequential") ||
            (local != nullptr && module_classes_[local]) ||
            (imported != nullptr && project_->is_module(*imported)) ||
            (q.starts_with("torch.nn.") && !q.starts_with("torch.nn.functional"))) {
          module_classes_[&cls] = true;
          changed = true;
          break;
        }
      }
    }
    if (!changed) break;
  }
  // What `self.x` holds, from the assignments in the class's methods (syntax only).
  for (const ClassDef& cls : module.classes()) {
    auto& attrs = class_attrs_[&cls];
    for (const Function* method : cls.methods) {
      for_each_nested(method->body, [&](const Stmt& stmt) {
        if (stmt.kind != StmtKind::Assign && stmt.kind != StmtKind::AnnAssign) return;
        const auto record = [&](const Expr* target, const Expr* value_expr) {
          const std::string key = place_key(target);
          if (!key.starts_with("self.") || key.find_first_of(".[", 5) != std::string::npos) return;
          const Fact value = classify_value(value_expr);
          if (value.kind == ValueKind::Unknown) return;
          auto [it, inserted] = attrs.emplace(key.substr(5), value);
          if (!inserted && it->second.kind != value.kind) it->second = Fact{};
        };
        for (const Expr* target : stmt.targets) {
          // `self.q, self.target = Net(), Net()`: element by element.
          if (target->kind == ExprKind::Collection && stmt.value != nullptr &&
              stmt.value->kind == ExprKind::Collection &&
              stmt.value->items.size() == target->items.size()) {
            for (size_t i = 0; i < target->items.size(); ++i)
              record(target->items[i], stmt.value->items[i]);
            continue;
          }
          record(target, stmt.value);
        }
      });
    }
  }
  // Module-level names, likewise, before any function body is walked: also those bound under
  // `if __name__ == "__main__":`, a `try` or a `with` (`trainer = Trainer(model)` in a script's
  // main block is the global its functions use). Bindings of different kinds tell nothing; of
  // one kind, they join (`model = Net()` then `model = nn.DataParallel(model)`: a module).
  std::unordered_map<std::string, int> global_bindings;
  for_each_nested(module.top_level().body, [&](const Stmt& stmt) {
    if (stmt.kind != StmtKind::Assign) return;
    for (const Expr* target : stmt.targets) {
      // `model = None` until the main block builds it says nothing of what it will be.
      if (target->kind != ExprKind::Name || is_none_literal(stmt.value)) continue;
      const std::string name(target->text);
      const Fact value = classify_value(stmt.value);
      Fact& known = globals_[name];
      if (++global_bindings[name] == 1) {
        known = value;
      } else if (known != value) {
        known = known.kind == value.kind && value.kind != ValueKind::Unknown ? join(known, value)
                                                                             : Fact{};
      }
    }
  });
  compute_caller_param_kinds();
  compute_no_grad_functions();
  for (const Function& function : module.functions()) ensure_walked(function);
  // With the top level walked, its final state is the better picture of module globals.
  if (!module.functions().empty()) {
    for (const auto& [name, fact] : functions_.at(&module.top_level())->final_state) {
      if (fact.kind != ValueKind::Unknown && name.find_first_of(".[") == std::string::npos)
        globals_[name] = fact;
    }
  }
}

FileAnalysis::FunctionState& FileAnalysis::ensure_walked(const Function& function) const {
  auto& slot = functions_[&function];
  if (!slot) slot = std::make_unique<FunctionState>();
  FunctionState& state = *slot;
  if (state.walked || state.in_progress) return state;
  state.in_progress = true;
  GradWalker(*this, function, state).run();
  state.in_progress = false;
  state.walked = true;
  return state;
}

const FileAnalysis::ReturnedUse& FileAnalysis::returned_use(const Function& function) const {
  if (!returned_uses_) {
    returned_uses_.emplace();
    for (const Function& caller : module_.functions()) {
      std::vector<const Stmt*> bound;  // `value, _ = step(...)` of a function of the file
      for_each_nested(caller.body, [&](const Stmt& stmt) {
        if (stmt.kind == StmtKind::Assign && stmt.value != nullptr &&
            stmt.value->kind == ExprKind::Call && stmt.targets.size() == 1 &&
            resolve_by_name(caller, *stmt.value) != nullptr)
          bound.push_back(&stmt);
      });
      if (bound.empty()) continue;  // one scan per caller that binds such a result
      const BackwardPlaces consumed = backward_places_of(caller);
      // Names handed first to one of torch's losses (`F.l1_loss(out, y)`): predictions.
      std::vector<std::string_view> predictions;
      for_each_nested(caller.body, [&](const Stmt& stmt) {
        for_each_expr(stmt, [&](const Expr& call) {
          if (call.kind == ExprKind::Call && call.callee()->kind == ExprKind::Attr &&
              knowledge::kLossFunctions.contains(call.callee()->text) && call.arg(0) != nullptr &&
              call.arg(0)->kind == ExprKind::Name)
            predictions.push_back(call.arg(0)->text);
        });
      });
      auto handed = [&](const Expr* target) {
        return target->kind == ExprKind::Name &&
               std::binary_search(consumed.graphs.begin(), consumed.graphs.end(), target->text);
      };
      auto predicted = [&](const Expr* target) {
        return target->kind == ExprKind::Name &&
               std::find(predictions.begin(), predictions.end(), target->text) != predictions.end();
      };
      for (const Stmt* stmt : bound) {
        ReturnedUse& use = (*returned_uses_)[resolve_by_name(caller, *stmt->value)];
        const Expr* target = stmt->targets[0];
        if (handed(target)) use.losses.push_back(-1);
        if (predicted(target)) use.predictions.push_back(-1);
        if (target->kind != ExprKind::Collection) continue;
        for (size_t i = 0; i < target->items.size(); ++i) {
          if (handed(target->items[i])) use.losses.push_back(static_cast<int>(i));
          if (predicted(target->items[i])) use.predictions.push_back(static_cast<int>(i));
        }
      }
    }
    for (auto& [callee, use] : *returned_uses_) {
      for (std::vector<int>* slots : {&use.losses, &use.predictions}) {
        std::sort(slots->begin(), slots->end());
        slots->erase(std::unique(slots->begin(), slots->end()), slots->end());
      }
    }
    hand_returned_use_to_callees();
  }
  static const ReturnedUse kNone;
  const auto it = returned_uses_->find(&function);
  return it == returned_uses_->end() ? kNone : it->second;
}

// A function that returns what a function of the file returned to it (`o = run(p, a); return
// (o,)`, `return run(p, a)`) hands its caller's use on: the callee's result is the loss or the
// prediction too, however many helpers stand between (main -> step -> run).
void FileAnalysis::hand_returned_use_to_callees() const {
  constexpr int kRounds = 4;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::pair<const Function*, ReturnedUse>> known(returned_uses_->begin(),
                                                               returned_uses_->end());
    bool changed = false;
    auto add = [&](const Function* callee, std::vector<int> ReturnedUse::*member, int slot) {
      if (callee == nullptr) return;
      std::vector<int>& slots = (*returned_uses_)[callee].*member;
      const auto at = std::lower_bound(slots.begin(), slots.end(), slot);
      if (at != slots.end() && *at == slot) return;
      slots.insert(at, slot);
      changed = true;
    };
    for (const auto& [function, use] : known) {
      for (std::vector<int> ReturnedUse::*member :
           {&ReturnedUse::losses, &ReturnedUse::predictions}) {
        for (const Expr* part : returned_parts(*function, use.*member)) {
          if (part->kind == ExprKind::Call) {
            add(resolve_by_name(*function, *part), member, -1);
            continue;
          }
          if (part->kind != ExprKind::Name) continue;
          // The assignments of the function that bind the returned name from a call of the file.
          for_each_nested(function->body, [&](const Stmt& stmt) {
            if (stmt.kind != StmtKind::Assign || stmt.value == nullptr ||
                stmt.value->kind != ExprKind::Call || stmt.targets.size() != 1)
              return;
            const Expr* target = stmt.targets[0];
            if (target->kind == ExprKind::Name && target->text == part->text) {
              add(resolve_by_name(*function, *stmt.value), member, -1);
            } else if (target->kind == ExprKind::Collection) {
              for (size_t i = 0; i < target->items.size(); ++i) {
                if (target->items[i]->kind == ExprKind::Name &&
                    target->items[i]->text == part->text)
                  add(resolve_by_name(*function, *stmt.value), member, static_cast<int>(i));
              }
            }
          });
        }
      }
    }
    if (!changed) break;
  }
}

const std::vector<ValueKind>& FileAnalysis::param_kinds_by_use(const Function& function) const {
  if (const auto it = use_kinds_.find(&function); it != use_kinds_.end()) return it->second;
  const ReturnedUse& use = returned_use(function);
  const std::vector<const Expr*> returned = returned_parts(function, use.losses);
  const std::vector<const Expr*> predicted = returned_parts(function, use.predictions);
  const BackwardPlaces backward = backward_places_of(function, returned, predicted);
  auto draws = [this, &function](const Expr& call) { return draws_next_item(function, call); };
  return use_kinds_[&function] = param_kinds_from_use(
             function, BackwardEvidence{backward.implicit_gradient, backward.graphs,
                                        backward.with_sources, returned, predicted, draws});
}

const FunctionSummary& FileAnalysis::summary(const Function& function) const {
  // A function being walked (recursion) answers with what is known so far.
  return ensure_walked(function).summary;
}

bool FileAnalysis::consumed_by_backward(const Function& function, std::string_view key) const {
  const auto& places = ensure_walked(function).backward_places;
  // Exact places only: `self` appears in every `self.criterion(...)` a loss was computed from.
  return std::binary_search(places.begin(), places.end(), std::string(key));
}

const FileAnalysis::DrainedAttributes& FileAnalysis::drained_attributes(
    const ClassDef& cls, const std::function<DrainedAttributes()>& compute) const {
  auto it = drained_attributes_.find(&cls);
  if (it == drained_attributes_.end()) it = drained_attributes_.emplace(&cls, compute()).first;
  return it->second;
}

const BindingIndex& FileAnalysis::bindings(const Function& function) const {
  std::unique_ptr<BindingIndex>& index = binding_indexes_[&function];
  if (!index) index = std::make_unique<BindingIndex>(function);
  return *index;
}

bool FileAnalysis::runs_without_grad(const Function& function) const {
  auto it = no_grad_functions_.find(&function);
  return it != no_grad_functions_.end() && it->second;
}

bool FileAnalysis::is_module_class(const ClassDef* cls) const {
  auto it = module_classes_.find(cls);
  return it != module_classes_.end() && it->second;
}

Fact FileAnalysis::class_attr(const ClassDef* cls, std::string_view attr) const {
  auto it = class_attrs_.find(cls);
  if (it == class_attrs_.end()) return {};
  auto found = it->second.find(std::string(attr));
  return found == it->second.end() ? Fact{} : found->second;
}

Fact FileAnalysis::global(std::string_view name) const {
  auto it = globals_.find(std::string(name));
  return it == globals_.end() ? Fact{} : it->second;
}

bool FileAnalysis::binds_global(std::string_view name) const {
  return globals_.find(std::string(name)) != globals_.end();
}

bool FileAnalysis::is_import_alias(std::string_view name) const {
  return module_.is_import_alias(name);
}

void FileAnalysis::compute_no_grad_functions() {
  struct Site {
    const Function* caller;
    bool lexically_no_grad;
  };
  std::unordered_map<const Function*, std::vector<Site>> sites;
  // Calls of a method that one class of the file defines, on a receiver syntax cannot tie to it
  // (`model.inference(x)`, `model.module.inference(x)` through DDP). Read only for a method with
  // no call that syntax resolves, so that they can make a method run without grad but never
  // undo what the resolved calls say.
  std::unordered_map<const Function*, std::vector<Site>> unique_method_sites;
  for (const Function& caller : module_.functions()) {
    walk_statements(caller, false, [&](const Stmt& stmt, const StmtContext& context) {
      for_each_expr(stmt, [&](const Expr& expr) {
        if (expr.kind != ExprKind::Call) return;
        // Facts are not computed yet: only what syntax names (a function, `self.m()`).
        if (const Function* target = resolve_by_name(caller, expr)) {
          sites[target].push_back({&caller, context.no_grad});
        } else if (const Function* method = unique_method_by_name(expr)) {
          unique_method_sites[method].push_back({&caller, context.no_grad});
        }
      });
    });
  }
  for (auto& [method, found] : unique_method_sites) {
    if (sites.find(method) == sites.end()) sites[method] = std::move(found);
  }
  for (const Function& function : module_.functions()) {
    no_grad_functions_[&function] = disables_grad(decorator_guard(module_, function));
  }
  // A function all of whose calls run without grad runs without grad; bounded fixpoint.
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    for (const Function& function : module_.functions()) {
      if (no_grad_functions_[&function]) continue;
      auto it = sites.find(&function);
      if (it == sites.end() || it->second.empty()) continue;
      const bool all = std::all_of(it->second.begin(), it->second.end(), [&](const Site& site) {
        return site.lexically_no_grad ||
               (site.caller != &function && no_grad_functions_[site.caller]);
      });
      if (all) {
        no_grad_functions_[&function] = true;
        changed = true;
      }
    }
    if (!changed) break;
  }
}

bool FileAnalysis::is_iteration_loop(const Stmt& loop) const {
  if (auto it = iteration_loops_.find(&loop); it != iteration_loops_.end()) return it->second;
  const bool iterates = iterates_data(loop) || loop_trains(loop) ||
                        model_run_loops_.contains(&loop) || item_run_loops_.contains(&loop);
  iteration_loops_[&loop] = iterates;
  return iterates;
}

bool FileAnalysis::repeats_only_model_runs(const Stmt& loop) const {
  return item_run_loops_.contains(&loop) && !model_run_loops_.contains(&loop) &&
         !iterates_data(loop) && !loop_trains(loop);
}

bool FileAnalysis::iterates_data(const Stmt& loop) const {
  bool iterates = false;
  // Iterating a data loader (directly, or through enumerate/tqdm/zip/iter).
  if (loop.loop_kind == LoopKind::For && loop.value != nullptr) {
    for_each_subexpr(*loop.value, [&](const Expr& sub) {
      if (sub.kind == ExprKind::Name && is_loader_like_name(sub.text)) iterates = true;
      if (sub.kind == ExprKind::Attr && is_loader_like_name(sub.text)) iterates = true;
      if (facts_[sub.id].kind == ValueKind::Loader) iterates = true;
    });
  }
  // `batch = next(it)` in the body, `it` an iterator of a data loader (`it = iter(loader)`): a
  // `while` or counted loop that advances the loader by hand.
  if (!iterates) {
    for_each_nested(loop.body, [&](const Stmt& stmt) {
      for_each_expr(stmt, [&](const Expr& call) {
        if (iterates || call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Name ||
            call.callee()->text != "next" || call.arg(0) == nullptr)
          return;
        const Expr& it = *call.arg(0);
        iterates = facts_[it.id].kind == ValueKind::Loader ||
                   ((it.kind == ExprKind::Name || it.kind == ExprKind::Attr) &&
                    is_loader_like_name(it.text));
      });
    });
  }
  return iterates;
}

bool FileAnalysis::loop_trains(const Stmt& loop) const {
  if (auto it = training_loops_.find(&loop); it != training_loops_.end()) return it->second;
  bool trains = false;
  for_each_nested(loop.body, [&](const Stmt& stmt) {
    if (trains) return;
    for_each_expr(stmt, [&](const Expr& expr) { trains = trains || call_trains(expr); });
  });
  training_loops_[&loop] = trains;
  return trains;
}

bool FileAnalysis::call_trains(const Expr& expr) const {
  if (expr.kind != ExprKind::Call) return false;
  const Expr* callee = expr.callee();
  if (callee->kind == ExprKind::Attr) {
    const std::string_view m = callee->text;
    if (m == "backward" || m == "manual_backward") return true;
    const Fact& receiver = facts_[callee->base()->id];
    if ((m == "step" || m == "zero_grad") &&
        (receiver.kind == ValueKind::Optimizer ||
         is_optimizer_like_name(dotted_name(callee->base())))) {
      return true;
    }
    if (receiver.instance_of != nullptr && receiver.kind != ValueKind::Class) {
      if (const Function* method = resolve_method(receiver, m); method && summary(*method).trains)
        return true;
    }
  }
  if (callee->kind == ExprKind::Name) {
    if (const Function* function = function_named(callee->text);
        function && summary(*function).trains)
      return true;
  }
  // `train_one_epoch(...)` imported from the project, `trainer.step(batch)` on an instance of
  // an imported class: they train in their own file.
  if (project_ != nullptr) {
    const ForeignFunction* target = imported_function(callee);
    if (target == nullptr && callee->kind == ExprKind::Attr)
      target = resolve_method_anywhere(facts_[callee->base()->id], callee->text).foreign;
    if (target != nullptr && target->summary.trains) return true;
  }
  // `torch.autograd.grad(loss, params)`: a backward by another name.
  const std::string q = qualified_name(module_, callee);
  return q.starts_with("torch.autograd.") &&
         knowledge::kAutogradBackwards.contains(std::string_view(q).substr(15));
}

Fact FileAnalysis::annotated_class(const Expr& annotation) const {
  const ClassDef* cls = annotation.kind == ExprKind::Name ? class_named(annotation.text) : nullptr;
  if (cls != nullptr) {
    Fact fact;
    fact.instance_of = cls;
    fact.kind = is_module_class(cls) ? ValueKind::Module : ValueKind::Instance;
    return fact;
  }
  if (const ForeignClass* foreign = imported_class(&annotation))
    return instance_of_imported(*foreign);
  return {};
}

Fact FileAnalysis::classify_value(const Expr* value) const {
  if (value == nullptr) return {};
  switch (value->kind) {
    case ExprKind::Collection:
    case ExprKind::Comprehension:
      return no_grad_fact(ValueKind::Container);
    case ExprKind::Const:
      return value->const_kind == ConstKind::Int || value->const_kind == ConstKind::Float
                 ? no_grad_fact(ValueKind::Number)
                 : Fact{};
    case ExprKind::Call:
      break;
    default:
      return {};
  }
  const Expr* callee = value->callee();
  if (callee->kind == ExprKind::Attr && (callee->text == "to" || callee->text == "cuda" ||
                                         callee->text == "train" || callee->text == "eval")) {
    return classify_value(callee->base());
  }
  if (callee->kind == ExprKind::Name) {
    if (const ClassDef* cls = class_named(callee->text)) {
      Fact fact;
      fact.instance_of = cls;
      fact.kind = is_module_class(cls)
                      ? (cls->name.ends_with("Loss") ? ValueKind::LossFn : ValueKind::Module)
                      : ValueKind::Instance;
      return fact;
    }
    const std::string_view name = callee->text;
    if (name == "list" || name == "dict" || name == "set" || name == "deque" ||
        name == "defaultdict" || name == "OrderedDict") {
      return no_grad_fact(ValueKind::Container);
    }
  }
  if (const ForeignClass* cls = imported_class(callee)) return instance_of_imported(*cls);
  const std::string q = qualified_name(module_, callee);
  const std::string_view last = last_component(q);
  if (q == "collections.deque" || q == "collections.defaultdict")
    return no_grad_fact(ValueKind::Container);
  if (!has_torch()) return {};
  Fact fact;
  if (q.ends_with("DataLoader"))
    fact.kind = ValueKind::Loader;
  else if (q.starts_with("torch.optim.") && is_capitalized(last))
    fact.kind = ValueKind::Optimizer;
  else if (q.starts_with("torch.nn.") && !q.starts_with("torch.nn.functional.") &&
           is_capitalized(last) && last != "Parameter") {
    fact.kind = last.ends_with("Loss") ? ValueKind::LossFn : ValueKind::Module;
  } else if (knowledge::is_torchvision_model(q) || knowledge::is_transformers_model_loader(q)) {
    fact.kind = ValueKind::Module;
  }
  return fact;
}

}  // namespace sealint::ir
