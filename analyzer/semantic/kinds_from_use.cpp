#include "analyzer/semantic/kinds_from_use.h"

#include <algorithm>
#include <utility>

#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/torch_api.h"
#include "analyzer/knowledge/torch_nn.h"
#include "analyzer/semantic/iteration.h"

namespace sealint::ir {
namespace {

// `net.train(mode == "train")`, `net.train(False)`, `net.train(is_training)`: a flag, not a
// corpus (gensim's `model.train(sentences, ...)` takes more).
bool is_flag_argument(const Expr& call) {
  if (!call.keywords.empty() || call.arg_count() > 1) return false;
  if (call.arg_count() == 0) return true;
  const Expr* arg = call.arg(0);
  return arg->kind == ExprKind::Compare || arg->kind == ExprKind::Name ||
         (arg->kind == ExprKind::Const && arg->const_kind == ConstKind::Bool) ||
         (arg->kind == ExprKind::UnaryOp && arg->text == "not");
}

bool contains(const std::vector<std::string>& sorted, std::string_view key) {
  return std::binary_search(sorted.begin(), sorted.end(), key);
}

// A place of `sorted` is a field of `name` (`out.loss` for `out`).
bool has_field_in(const std::vector<std::string>& sorted, std::string_view name) {
  const std::string prefix = std::string(name) + ".";
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), prefix);
  return it != sorted.end() && it->starts_with(prefix);
}

// Every call of a plain name in `expr`: `visit(name, top)` with `top` for one that makes
// `expr`'s value (the outermost call, through arithmetic), false for one nested in another
// call's arguments or receiver.
template <typename Visit>
void find_calls(const Expr& expr, bool outermost, const Visit& visit) {
  if (expr.kind == ExprKind::Call) {
    const Expr* callee = expr.callee();
    if (callee->kind == ExprKind::Name) visit(callee->text, outermost);
    for (const Expr* item : expr.items) find_calls(*item, false, visit);
    for (const Keyword& keyword : expr.keywords) find_calls(*keyword.value, false, visit);
    return;
  }
  // `loss = a + b`, `loss = -f(x)`: arithmetic keeps the outermost position.
  const bool arithmetic = expr.kind == ExprKind::BinOp || expr.kind == ExprKind::UnaryOp;
  for (const Expr* item : expr.items) find_calls(*item, outermost && arithmetic, visit);
}

// What the function does with one parameter.
struct Uses {
  bool module = false;     // `.eval()`, `.train(flag)`, `.parameters()`
  bool zeroed = false;     // `.zero_grad()`
  bool stepped = false;    // `.step()`
  bool makes = false;      // its call makes the 0-d loss handed to a backward
  bool feeds = false;      // its call feeds a graph a backward consumes
  bool predicts = false;   // its call on an item of an iterable is read as a prediction
  bool runs_part = false;  // `p.encoder(x)`: a part a model holds, called on values

  [[nodiscard]] ValueKind kind() const {
    if (module) return ValueKind::Module;
    if (zeroed && stepped) return ValueKind::Optimizer;
    if (makes == feeds) {  // neither, or both (a recursive step)
      return !makes && (predicts || runs_part) ? ValueKind::Module : ValueKind::Unknown;
    }
    return makes ? ValueKind::LossFn : ValueKind::Module;
  }
};

// Every Name in `target` (`x`, `(x, y)`, `[a, *rest]`).
template <typename Visit>
void names_in(const Expr& target, const Visit& visit) {
  if (target.kind == ExprKind::Name) {
    visit(target.text);
    return;
  }
  if (target.kind != ExprKind::Collection && target.kind != ExprKind::Starred) return;
  for (const Expr* item : target.items) names_in(*item, visit);
}

// The names a function binds to the items of what it iterates (a `for` loop's targets, a
// comprehension's, or `next(it)`'s), and those computed from them through subscripts, attributes
// and methods (`x = batch[0].to(device)`): one batch, flow-insensitive.
class Items {
 public:
  Items(const Function& function, const DrawsItem& draws) {
    for_each_nested(function.body, [&](const Stmt& stmt) {
      if (stmt.kind == StmtKind::Loop && stmt.loop_kind == LoopKind::For && !stmt.targets.empty())
        names_in(*stmt.targets[0], [&](std::string_view name) { names_.push_back(name); });
      for_each_expr(stmt, [&](const Expr& e) {
        if (e.kind != ExprKind::Comprehension) return;
        for (const ComprehensionFor& generator : e.generators) {
          if (generator.target != nullptr)
            names_in(*generator.target, [&](std::string_view name) { names_.push_back(name); });
        }
      });
    });
    // Derived names, to a fixed point (each pass adds names or ends it; a bound keeps it short).
    for (int pass = 0; pass < 4; ++pass) {
      const size_t before = names_.size();
      for_each_nested(function.body, [&](const Stmt& stmt) {
        if (stmt.kind != StmtKind::Assign || stmt.value == nullptr ||
            !(contains(*stmt.value) || semantic::is_next_call(*stmt.value) ||
              (draws && draws(*stmt.value))))
          return;
        for (const Expr* target : stmt.targets) {
          names_in(*target, [&](std::string_view name) {
            if (!has(name)) names_.push_back(name);
          });
        }
      });
      if (names_.size() == before) break;
    }
  }

  // `expr` is an item or made from one: `x`, `batch[0]`, `seq[i]`, `x.cuda()`, `sample.image`.
  [[nodiscard]] bool contains(const Expr& expr) const {
    switch (expr.kind) {
      case ExprKind::Name:
        return has(expr.text);
      case ExprKind::Attr:
      case ExprKind::Starred:
        return expr.base() != nullptr && contains(*expr.base());
      case ExprKind::Subscript:
        return std::any_of(expr.items.begin(), expr.items.end(),
                           [&](const Expr* part) { return contains(*part); });
      case ExprKind::Call:
        // A method of the item (`x.to(device)`), not a call that takes it.
        return expr.callee()->kind == ExprKind::Attr && contains(*expr.callee());
      default:
        return false;
    }
  }

 private:
  [[nodiscard]] bool has(std::string_view name) const {
    return std::find(names_.begin(), names_.end(), name) != names_.end();
  }
  std::vector<std::string_view> names_;
};

// Which parameter's call on an item of an iterable `call` is (`f(x)`, `d(seq[i], state)` with the
// state its earlier call returned): every argument an item, `None` or such a state, at least one
// an item. nullptr otherwise.
std::string_view item_callee(
    const Expr& call, const Items& items,
    const std::vector<std::pair<std::string_view, std::string_view>>& returned_by) {
  if (call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Name ||
      call.arg_count() == 0 || !call.keywords.empty())
    return {};
  const std::string_view callee = call.callee()->text;
  bool any_item = false;
  for (size_t i = 0; i < call.arg_count(); ++i) {
    const Expr* arg = call.arg(i);
    if (items.contains(*arg)) {
      any_item = true;
      continue;
    }
    const bool state = is_none_literal(arg) ||
                       (arg->kind == ExprKind::Name &&
                        std::any_of(returned_by.begin(), returned_by.end(), [&](const auto& bound) {
                          return bound.first == arg->text && bound.second == callee;
                        }));
    if (!state) return {};
  }
  return any_item ? callee : std::string_view{};
}

// A parameter called on the items of an iterable, whose result is read as a prediction
// (`f(x).argmax(1)`, `out = h(x); out.topk(5)`, `o, s = d(x, s); o.data`), is a model whatever it
// is called: a metric or a transform is not read through `argmax` or `detach()`. Flow-insensitive:
// a generator primes its state on the items of a prompt and reads its predictions in the next
// loop, where it is fed its own output.
template <typename Param>
void mark_predictions(const Function& function, const Param& param, const DrawsItem& draws) {
  const Items items(function, draws);
  // (local, parameter) for each local bound to what the parameter's call, or a method of it,
  // returned: `o, s = d(x, s)`, `s = d.init_state()`.
  std::vector<std::pair<std::string_view, std::string_view>> returned_by;
  for_each_nested(function.body, [&](const Stmt& stmt) {
    if (stmt.kind != StmtKind::Assign || stmt.value == nullptr ||
        stmt.value->kind != ExprKind::Call)
      return;
    const Expr* callee = stmt.value->callee();
    if (callee->kind == ExprKind::Attr && callee->base()->kind == ExprKind::Name)
      callee = callee->base();
    if (callee->kind != ExprKind::Name || param(callee->text) == nullptr) return;
    for (const Expr* target : stmt.targets) {
      names_in(*target,
               [&](std::string_view name) { returned_by.emplace_back(name, callee->text); });
    }
  });
  auto result_of = [&](const Expr& e) -> std::string_view {
    if (e.kind == ExprKind::Call && e.callee()->kind == ExprKind::Name) return e.callee()->text;
    if (e.kind != ExprKind::Name) return {};
    for (const auto& [local, by] : returned_by) {
      if (local == e.text) return by;
    }
    return {};
  };
  std::vector<std::string_view> on_items;
  std::vector<std::string_view> read;
  for_each_nested(function.body, [&](const Stmt& stmt) {
    for_each_expr(stmt, [&](const Expr& e) {
      if (const std::string_view callee = item_callee(e, items, returned_by); !callee.empty())
        on_items.push_back(callee);
      if (e.kind == ExprKind::Attr && knowledge::kPredictionReads.contains(e.text))
        read.push_back(result_of(*e.base()));
    });
  });
  for (const std::string_view callee : on_items) {
    Uses* u = param(callee);
    if (u != nullptr && std::find(read.begin(), read.end(), callee) != read.end())
      u->predicts = true;
  }
}

}  // namespace

std::vector<ValueKind> param_kinds_from_use(const Function& function,
                                            const BackwardEvidence& backward) {
  std::vector<std::string_view> names;
  names.reserve(function.params.size());
  for (const Param& p : function.params) names.push_back(p.name);
  return name_kinds_from_use(function, names, backward);
}

std::vector<ValueKind> name_kinds_from_use(const Function& function,
                                           const std::vector<std::string_view>& names,
                                           const BackwardEvidence& backward) {
  std::vector<Uses> uses(names.size());
  auto param = [&](std::string_view name) -> Uses* {
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == name) return &uses[i];
    }
    return nullptr;
  };
  const auto& losses = backward.losses;
  const auto& graphs = backward.graphs;
  const auto& sources = backward.sources;
  const bool any_backward = !losses.empty() || !sources.empty() || !backward.returned.empty() ||
                            !backward.predicted.empty();
  // `out = f(x)`, `_, out = f(x)`: the parameter whose call made a local, for the losses below.
  std::vector<std::pair<std::string_view, Uses*>> made_by;
  for_each_nested(function.body, [&](const Stmt& stmt) {
    if (stmt.kind != StmtKind::Assign || stmt.value == nullptr ||
        stmt.value->kind != ExprKind::Call || stmt.value->callee()->kind != ExprKind::Name)
      return;
    Uses* u = param(stmt.value->callee()->text);
    if (u == nullptr) return;
    for (const Expr* target : stmt.targets) {
      if (target->kind == ExprKind::Name) made_by.emplace_back(target->text, u);
      if (target->kind != ExprKind::Collection) continue;
      for (const Expr* item : target->items) {
        if (item->kind == ExprKind::Name) made_by.emplace_back(item->text, u);
      }
    }
  });
  // The calls in `value`, assigned to what a backward consumes: the outermost makes the loss
  // when `loss` (the value is a loss handed to it), every other one feeds the graph.
  auto record = [&](const Expr& value, bool loss) {
    find_calls(value, true, [&](std::string_view name, bool top) {
      Uses* u = param(name);
      if (u == nullptr) return;
      if (loss && top)
        u->makes = true;
      else
        u->feeds = true;
    });
    // `loss = crit(head(out[-1]), y)` with `out, state = f(x, state)` earlier: the parameter
    // whose call made a local the value reads feeds the graph too.
    for_each_subexpr(value, [&](const Expr& sub) {
      if (sub.kind != ExprKind::Name) return;
      for (const auto& [local, u] : made_by) {
        if (local == sub.text) u->feeds = true;
      }
    });
  };
  mark_predictions(function, param, backward.draws);
  // `return crit(net(x), y), out` where the caller hands the first part to a backward.
  for (const Expr* returned : backward.returned) record(*returned, /*loss=*/true);
  for (const Expr* returned : backward.predicted) record(*returned, /*loss=*/false);
  for_each_nested(function.body, [&](const Stmt& stmt) {
    for_each_expr(stmt, [&](const Expr& call) {
      if (call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Attr) return;
      // `F.cross_entropy(f(x), y)`, `out = f(x); F.mse_loss(out, y)`: torch's functional losses
      // take a model's output first (the name is the API).
      if (knowledge::kLossFunctions.contains(call.callee()->text) && call.arg(0) != nullptr) {
        const Expr* prediction = call.arg(0);
        // `F.mse_loss(head(f(x)), y)`: every parameter called inside the prediction feeds it.
        if (prediction->kind == ExprKind::Call) {
          find_calls(*prediction, true, [&](std::string_view name, bool) {
            if (Uses* u = param(name)) u->feeds = true;
          });
        } else if (prediction->kind == ExprKind::Name) {
          for (const auto& [local, u] : made_by) {
            if (local == prediction->text) u->feeds = true;
          }
        }
      }
      const Expr* receiver = call.callee()->base();
      const std::string_view method = call.callee()->text;
      // `f(g(x), y).backward()`, `g(x).sum().backward()`
      if (method == "backward" && any_backward) {
        find_calls(*receiver, true, [&](std::string_view name, bool top) {
          if (Uses* u = param(name)) (top ? u->makes : u->feeds) = true;
        });
      }
      if (receiver->kind != ExprKind::Name) return;
      Uses* u = param(receiver->text);
      if (u == nullptr) return;
      // `df.eval("a + b")`, TF's `tensor.eval(feed_dict=...)`: other libraries' methods of these
      // names take arguments; torch's `train` takes a flag.
      if ((knowledge::kModuleOnlyMethods.contains(method) && call.arg_count() == 0 &&
           call.keywords.empty()) ||
          (method == "train" && is_flag_argument(call)) ||
          (method == "parameters" && call.arg_count() <= 1)) {
        u->module = true;
      }
      // `net.backbone(images)`, `m.forward(x)`: torch's forward, or a part named as a model's
      // (the attribute is the model's field, whatever the file calls the parameter).
      if (knowledge::runs_module_forward(method, call.arg_count() > 0 || !call.keywords.empty()))
        u->runs_part = true;
      if (method == "zero_grad") u->zeroed = true;
      if (method == "step" && call.arg_count() == 0 && call.keywords.empty()) u->stepped = true;
    });
    if (!any_backward || stmt.kind != StmtKind::Assign || stmt.value == nullptr) return;
    for (const Expr* target : stmt.targets) {
      if (target->kind == ExprKind::Name) {
        const bool loss = contains(losses, target->text);
        // `outputs = f(**batch); outputs.loss.backward()`: a field of the result is consumed.
        const bool source = contains(sources, target->text) || has_field_in(sources, target->text);
        if (loss || source) record(*stmt.value, loss);
        continue;
      }
      // `loss, n, logs = f(out, y)`: a call whose results include the loss makes it (a
      // criterion returning counts and logs beside); `out, hidden = g(x, hidden)`: one whose
      // results include a consumed graph feeds it. A result handed to a backward through a
      // wrapper (`opt.backward(loss)`) may be either: no evidence then.
      bool loss = false;
      bool handed = false;
      bool consumed = false;
      for_each_subexpr(*target, [&](const Expr& sub) {
        if (sub.kind != ExprKind::Name) return;
        loss = loss || contains(losses, sub.text);
        handed = handed || contains(graphs, sub.text);
        consumed = consumed || contains(sources, sub.text);
      });
      if (loss || (consumed && !handed)) record(*stmt.value, loss);
    }
  });
  std::vector<ValueKind> kinds;
  kinds.reserve(uses.size());
  for (const Uses& u : uses) kinds.push_back(u.kind());
  return kinds;
}

}  // namespace sealint::ir
