// Kinds of parameters from the file's call sites (GENERALIZE.md, "kinds from use and from call
// sites"): `validate(net, nn.CrossEntropyLoss(), loader)` makes validate's second parameter a
// loss function and its first a module whatever they are called, when `net` was built from an
// nn.Module class in the caller. Syntax only, before any function is walked: an argument is
// classified by what constructs it (FileAnalysis::classify_value), directly or through the
// caller's own assignments to the name, or by the kind its caller's parameter got in the previous
// round (a model handed down main() -> train() -> step()).
#include <optional>
#include <unordered_map>
#include <vector>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/grad_flow.h"
#include "analyzer/semantic/kinds_from_use.h"

namespace sealint::ir {
namespace {

// The kinds a call site can establish: what a value is for, not what it holds.
bool is_role_kind(ValueKind kind) {
  return kind == ValueKind::Module || kind == ValueKind::LossFn || kind == ValueKind::Optimizer ||
         kind == ValueKind::Loader;
}

// A role, or an object of one of the file's classes: a helper handed a trainer object
// (`run_step(self, batch)`, `evaluate(Trainer(...), loader)`) reads its attributes and methods as
// the class defines them.
bool is_handed_kind(const Fact& fact) {
  return is_role_kind(fact.kind) ||
         (fact.kind == ValueKind::Instance && fact.instance_of != nullptr);
}

// One parameter's kind over every call seen: the one known kind, or Unknown once two disagree;
// and the class of the file every call's argument was built from, if they agree.
struct SeenKind {
  ValueKind kind = ValueKind::Unknown;
  const ClassDef* cls = nullptr;
  bool conflict = false;
  bool class_conflict = false;
  void add(ValueKind other, const ClassDef* other_cls = nullptr) {
    if (other == ValueKind::Unknown || conflict) return;
    if (kind == ValueKind::Unknown) {
      kind = other;
    } else if (kind != other) {
      kind = ValueKind::Unknown;
      conflict = true;
      cls = nullptr;
      return;
    }
    if (class_conflict) return;
    if (cls == nullptr && other_cls != nullptr) {
      cls = other_cls;
    } else if (other_cls == nullptr || cls != other_cls) {
      cls = nullptr;
      class_conflict = true;
    }
  }
};

// How many rounds a kind travels down the call graph (main -> fit -> train_epoch -> step).
constexpr int kRounds = 4;

// How many helpers deep a parameter handed on is followed to the function that uses it.
constexpr int kHandedDepth = 3;

}  // namespace

void FileAnalysis::compute_caller_param_kinds() {
  // What a function binds each plain name to, by construction (`net = Net().to(device)`); a
  // rebinding from an unknown value (`net = net.to(device)`) tells nothing against it.
  auto bindings_of = [&](const Function& function) {
    std::unordered_map<std::string_view, SeenKind> bound;
    for_each_nested(function.body, [&](const Stmt& stmt) {
      if (stmt.kind != StmtKind::Assign && stmt.kind != StmtKind::AnnAssign) return;
      for (const Expr* target : stmt.targets) {
        if (target->kind != ExprKind::Name) continue;
        const Fact made = classify_value(stmt.value);
        bound[target->text].add(is_handed_kind(made) ? made.kind : ValueKind::Unknown,
                                made.instance_of);
      }
    });
    return bound;
  };
  // A module-level model handed on by a function that does not bind the name itself
  // (`f_layer = nn.Linear(8, 8)` at the top, `step(f_layer, x)` in a function).
  const std::unordered_map<std::string_view, SeenKind> globals = bindings_of(module_.top_level());
  for (int round = 0; round < kRounds; ++round) {
    std::unordered_map<const Function*, std::vector<SeenKind>> seen;
    for (const Function& caller : module_.functions()) {
      const std::unordered_map<std::string_view, SeenKind> locals = bindings_of(caller);
      std::vector<ValueKind> caller_uses;  // what the caller does with its parameters, on demand
      std::vector<std::string_view> local_names;  // and with its locals
      std::vector<ValueKind> local_uses;
      BackwardEvidence drawn;  // no backward evidence: only which calls draw items
      drawn.draws = [this, &caller](const Expr& call) { return draws_next_item(caller, call); };
      // The argument's kind, and the class of the file it was built from when known.
      using Argument = std::pair<ValueKind, const ClassDef*>;
      auto argument_kind = [&](const Expr& arg) -> Argument {
        const Fact constructed = classify_value(&arg);
        if (is_handed_kind(constructed)) return {constructed.kind, constructed.instance_of};
        if (arg.kind != ExprKind::Name) return {ValueKind::Unknown, nullptr};
        // A method handing on its receiver (`render_step(self, image)`).
        if (arg.text == kReceiver && caller.parent_class != nullptr)
          return {is_module_class(caller.parent_class) ? ValueKind::Module : ValueKind::Instance,
                  caller.parent_class};
        if (auto it = locals.find(arg.text);
            it != locals.end() && it->second.kind != ValueKind::Unknown)
          return {it->second.kind, it->second.cls};
        for (size_t p = 0; p < caller.params.size(); ++p) {
          if (caller.params[p].name != arg.text) continue;
          const ValueKind handed = caller_param_kind(caller, p);
          // What the caller does with it (`net.eval()` before `predict(net, x)`).
          if (handed != ValueKind::Unknown) return {handed, caller_param_class(caller, p)};
          if (caller_uses.empty()) caller_uses = param_kinds_from_use(caller, drawn);
          return {caller_uses[p], nullptr};
        }
        if (!locals.contains(arg.text)) {
          if (auto it = globals.find(arg.text);
              it != globals.end() && it->second.kind != ValueKind::Unknown)
            return {it->second.kind, it->second.cls};
          return {ValueKind::Unknown, nullptr};
        }
        // A local built from what the file cannot classify (`net = networks.Net()`, a class of
        // another file): what the caller does with it (`net.eval()`) says what it is.
        if (local_uses.empty()) {
          for (const auto& [name, _] : locals) local_names.push_back(name);
          local_uses = name_kinds_from_use(caller, local_names, drawn);
        }
        for (size_t i = 0; i < local_names.size(); ++i) {
          if (local_names[i] == arg.text) return {local_uses[i], nullptr};
        }
        return {ValueKind::Unknown, nullptr};
      };
      for_each_nested(caller.body, [&](const Stmt& stmt) {
        for_each_expr(stmt, [&](const Expr& call) {
          if (call.kind != ExprKind::Call) return;
          const Function* target = resolve_by_name(caller, call);
          size_t first_param = call.callee()->kind == ExprKind::Attr ? 1 : 0;
          // A class called: its __init__ receives the arguments past the receiver.
          if (target == nullptr && call.callee()->kind == ExprKind::Name) {
            if (const ClassDef* cls = class_named(call.callee()->text)) {
              target = method_of(*cls, "__init__");
              first_param = 1;
            }
          }
          if (target == nullptr) return;
          std::vector<SeenKind>& kinds = seen[target];
          kinds.resize(target->params.size());
          for (size_t i = 0; i < call.arg_count(); ++i) {
            if (call.arg(i)->kind == ExprKind::Starred) break;  // positions unknown from here
            const size_t param = i + first_param;
            if (param < kinds.size()) {
              const auto [kind, cls] = argument_kind(*call.arg(i));
              kinds[param].add(kind, cls);
            }
          }
          const Callee callee{target, nullptr};
          for (const Keyword& keyword : call.keywords) {
            const int param = keyword.name.empty() ? -1 : callee.param_index(keyword.name);
            if (param >= 0 && static_cast<size_t>(param) < kinds.size()) {
              const auto [kind, cls] = argument_kind(*keyword.value);
              kinds[static_cast<size_t>(param)].add(kind, cls);
            }
          }
        });
      });
    }
    bool changed = false;
    for (const auto& [function, kinds] : seen) {
      std::vector<ValueKind>& known = caller_param_kinds_[function];
      std::vector<const ClassDef*>& classes = caller_param_classes_[function];
      known.resize(kinds.size(), ValueKind::Unknown);
      classes.resize(kinds.size(), nullptr);
      for (size_t i = 0; i < kinds.size(); ++i) {
        if (kinds[i].kind != known[i] || kinds[i].cls != classes[i]) {
          known[i] = kinds[i].kind;
          classes[i] = kinds[i].cls;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  // `self.criterion = criterion` in a constructor the file calls with a loss: the attribute holds
  // what the parameter got, where no assignment of the class said otherwise.
  for (const ClassDef& cls : module_.classes()) {
    auto& attrs = class_attrs_[&cls];
    for (const Function* method : cls.methods) {
      for_each_nested(method->body, [&](const Stmt& stmt) {
        if (stmt.kind != StmtKind::Assign || stmt.value == nullptr ||
            stmt.value->kind != ExprKind::Name)
          return;
        for (const Expr* target : stmt.targets) {
          const std::string key = place_key(target);
          // `self.x` (the IR names every receiver kReceiver), not `self.x.y` or `self.x[k]`.
          const std::string prefix = std::string(kReceiver) + ".";
          if (!key.starts_with(prefix) ||
              key.find_first_of(".[", prefix.size()) != std::string::npos)
            continue;
          for (size_t p = 0; p < method->params.size(); ++p) {
            if (method->params[p].name != stmt.value->text) continue;
            const ValueKind kind = caller_param_kind(*method, p);
            if (kind == ValueKind::Unknown) break;
            Fact fact;
            fact.kind = kind;
            fact.instance_of = caller_param_class(*method, p);
            attrs.emplace(key.substr(prefix.size()), fact);
          }
        }
      });
    }
  }
}

std::vector<ValueKind> FileAnalysis::callee_param_kinds(const Function& function) const {
  return handed_kinds(function, 0);
}

std::vector<ValueKind> FileAnalysis::handed_kinds(const Function& function, int depth) const {
  if (const auto it = handed_kinds_.find(&function); it != handed_kinds_.end()) return it->second;
  // Being asked (a cycle of calls) or past the depth bound: nothing known, and nothing kept, so
  // that the answer for a function does not depend on which caller asked first.
  if (depth > kHandedDepth || !handing_.insert(&function).second) return {};
  std::vector<SeenKind> seen(function.params.size());
  bool complete = true;
  auto param_index = [&](const Expr& arg) -> int {
    if (arg.kind != ExprKind::Name) return -1;
    for (size_t p = 0; p < function.params.size(); ++p) {
      if (function.params[p].name == arg.text) return static_cast<int>(p);
    }
    return -1;
  };
  for_each_nested(function.body, [&](const Stmt& stmt) {
    for_each_expr(stmt, [&](const Expr& call) {
      if (call.kind != ExprKind::Call) return;
      const Function* target = resolve_by_name(function, call);
      // `steps.run(m, ...)` on a local object: the one method of that name among the classes.
      if (target == nullptr) target = unique_method_by_name(call);
      if (target == nullptr || target == &function) return;
      const size_t first_param = call.callee()->kind == ExprKind::Attr ? 1 : 0;
      std::optional<std::vector<ValueKind>> further;  // what the callee's own callees make of it
      for (size_t i = 0; i < call.arg_count(); ++i) {
        if (call.arg(i)->kind == ExprKind::Starred) break;  // positions unknown from here
        const int own = param_index(*call.arg(i));
        const size_t theirs = i + first_param;
        if (own < 0 || theirs >= target->params.size()) continue;
        ValueKind used = param_kinds_by_use(*target)[theirs];
        // A step moved into a helper that hands the value on (`step(c, o, u)` calling
        // `fit(c, o, u)`): the function that uses it says what it is.
        if (used == ValueKind::Unknown) {
          if (!further) {
            further = handed_kinds(*target, depth + 1);
            complete = complete && handed_kinds_.contains(target);
          }
          if (theirs < further->size()) used = (*further)[theirs];
        }
        seen[static_cast<size_t>(own)].add(is_role_kind(used) ? used : ValueKind::Unknown);
      }
    });
  });
  handing_.erase(&function);
  std::vector<ValueKind> kinds;
  kinds.reserve(seen.size());
  for (const SeenKind& s : seen) kinds.push_back(s.kind);
  if (complete) handed_kinds_[&function] = kinds;
  return kinds;
}

const ClassDef* FileAnalysis::caller_param_class(const Function& function, size_t param) const {
  const auto it = caller_param_classes_.find(&function);
  if (it == caller_param_classes_.end() || param >= it->second.size()) return nullptr;
  return it->second[param];
}

ValueKind FileAnalysis::caller_param_kind(const Function& function, size_t param) const {
  const auto it = caller_param_kinds_.find(&function);
  if (it == caller_param_kinds_.end() || param >= it->second.size()) return ValueKind::Unknown;
  return it->second[param];
}

}  // namespace sealint::ir
