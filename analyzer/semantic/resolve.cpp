// The resolver of calls to the file's own functions and methods (grad_flow.h): names, the
// receiver (the first parameter, lowered to `self`), and the class chain within the file; and,
// through the project scope, the functions and classes other files of the project define.
#include <algorithm>

#include "analyzer/knowledge/frameworks.h"
#include "analyzer/semantic/grad_flow.h"
#include "analyzer/semantic/iteration.h"

namespace sealint::ir {

namespace {

const ClassDef* class_named(const Module& module, std::string_view name) {
  for (const ClassDef& cls : module.classes()) {
    if (cls.name == name) return &cls;
  }
  return nullptr;
}

std::string search(const Module& module, const ClassDef& cls,
                   const std::function<bool(std::string_view)>& matches, size_t depth) {
  if (depth > module.classes().size()) return {};
  for (const Expr* base : cls.bases) {
    std::string qualified = qualified_name(module, base);
    if (qualified.empty()) continue;
    if (matches(qualified)) return qualified;
    if (base->kind != ExprKind::Name) continue;
    if (const ClassDef* local = class_named(module, base->text); local && local != &cls) {
      if (std::string found = search(module, *local, matches, depth + 1); !found.empty())
        return found;
    }
  }
  return {};
}

}  // namespace

std::string inherited_base(const Module& module, const ClassDef& cls,
                           const std::function<bool(std::string_view)>& matches) {
  return search(module, cls, matches, 0);
}

const knowledge::FrameworkHook* framework_hook_of(const Module& module, const Function& function) {
  if (function.parent_class == nullptr) return nullptr;
  const std::string base =
      inherited_base(module, *function.parent_class, [&](std::string_view qualified) {
        return knowledge::framework_hook(qualified, function.name) != nullptr;
      });
  return base.empty() ? nullptr : knowledge::framework_hook(base, function.name);
}

const ClassDef* FileAnalysis::class_named(std::string_view name) const {
  auto it = classes_by_name_.find(name);
  return it == classes_by_name_.end() ? nullptr : it->second;
}

const Function* FileAnalysis::function_named(std::string_view name) const {
  auto it = functions_by_name_.find(name);
  return it == functions_by_name_.end() ? nullptr : it->second;
}

const ClassDef* FileAnalysis::base_in_file(const ClassDef& cls) const {
  for (const Expr* base : cls.bases) {
    if (base->kind != ExprKind::Name) continue;
    if (const ClassDef* next = class_named(base->text)) return next;
  }
  return nullptr;
}

const Function* FileAnalysis::method_of(const ClassDef& cls, std::string_view name) const {
  // Bounded by the number of classes: a cycle of same-file bases (invalid Python) ends.
  const size_t limit = module_.classes().size();
  size_t hops = 0;
  for (const ClassDef* owner = &cls; owner != nullptr && hops <= limit;
       owner = base_in_file(*owner), ++hops) {
    // Indexed: `self.m()` in a class of thousands of methods would otherwise scan them all.
    if (auto methods = methods_by_class_.find(owner); methods != methods_by_class_.end()) {
      if (auto it = methods->second.find(name); it != methods->second.end()) return it->second;
      continue;
    }
    for (const Function* method : owner->methods) {  // a class of another module
      if (method->name == name) return method;
    }
  }
  return nullptr;
}

std::vector<const Function*> FileAnalysis::overrides_of(const ClassDef& cls,
                                                        std::string_view name) const {
  std::vector<const Function*> found;
  const size_t limit = module_.classes().size();
  for (const ClassDef& other : module_.classes()) {
    if (&other == &cls) continue;
    bool derives = false;
    size_t hops = 0;
    for (const ClassDef* up = base_in_file(other); up != nullptr && hops <= limit;
         up = base_in_file(*up), ++hops) {
      if (up == &cls) {
        derives = true;
        break;
      }
    }
    if (!derives) continue;
    for (const Function* method : other.methods) {
      if (method->name == name) found.push_back(method);
    }
  }
  return found;
}

namespace {

bool is_not_implemented(const Expr* e) {
  if (e != nullptr && e->kind == ExprKind::Call) e = e->callee();
  return e != nullptr && e->kind == ExprKind::Name &&
         (e->text == "NotImplementedError" || e->text == "NotImplemented");
}

// A method that only says a subclass must define it: `@abstractmethod`, or a body (after its
// docstring) of `raise NotImplementedError`, `return NotImplementedError`, `pass` or `...`.
bool is_abstract(const Module& module, const Function& function) {
  for (const Expr* decorator : function.decorators) {
    const Expr* name = decorator->kind == ExprKind::Call ? decorator->callee() : decorator;
    if ((name->kind == ExprKind::Name || name->kind == ExprKind::Attr) &&
        name->text == "abstractmethod")
      return true;
  }
  std::vector<const Stmt*> body(function.body.begin(), function.body.end());
  if (!body.empty() && body.front()->kind == StmtKind::ExprStmt && body.front()->value != nullptr &&
      body.front()->value->kind == ExprKind::Const &&
      body.front()->value->const_kind == ConstKind::Str)
    body.erase(body.begin());
  if (body.size() != 1) return body.empty();
  const Stmt& only = *body.front();
  switch (only.kind) {
    case StmtKind::Raise:
    case StmtKind::Return:
      return is_not_implemented(only.value);
    case StmtKind::ExprStmt:
      return only.value != nullptr && only.value->kind == ExprKind::Const &&
             only.value->const_kind == ConstKind::Ellipsis;
    case StmtKind::Other:  // `pass` has no statement kind of its own
      return module.file().code().substr(only.range.begin, only.range.end - only.range.begin) ==
             "pass";
    default:
      return false;
  }
}

}  // namespace

std::vector<const Function*> FileAnalysis::self_call_targets(const ClassDef& cls,
                                                             std::string_view name) const {
  const std::vector<const Function*> overrides = overrides_of(cls, name);
  if (overrides.empty()) return {};
  std::vector<const Function*> targets;
  if (const Function* own = method_of(cls, name); own != nullptr && !is_abstract(module_, *own))
    targets.push_back(own);
  for (const Function* override : overrides) {
    if (!is_abstract(module_, *override)) targets.push_back(override);
  }
  return targets;
}

std::vector<const Function*> FileAnalysis::self_call_targets(const Expr& call) const {
  const Expr* callee = call.callee();
  if (callee == nullptr || callee->kind != ExprKind::Attr ||
      callee->base()->kind != ExprKind::Name || callee->base()->text != kReceiver)
    return {};
  const Fact& receiver = fact(*callee->base());
  if (receiver.instance_of == nullptr || receiver.kind == ValueKind::Class) return {};
  return self_call_targets(*receiver.instance_of, callee->text);
}

const Function* FileAnalysis::resolve_method(const Fact& receiver, std::string_view name) const {
  return receiver.instance_of == nullptr ? nullptr : method_of(*receiver.instance_of, name);
}

const Function* FileAnalysis::resolve_by_name(const Function& caller, const Expr& call) const {
  const Expr* callee = call.callee();
  if (callee->kind == ExprKind::Name) return function_named(callee->text);
  if (callee->kind == ExprKind::Attr && callee->base()->kind == ExprKind::Name &&
      callee->base()->text == kReceiver && caller.parent_class != nullptr) {
    return method_of(*caller.parent_class, callee->text);
  }
  // `shop.fit(x)` on a parameter every call site of the file hands an object of one class of the
  // file (`measure(self, loader)`, `episode(Agent(), env)`).
  if (callee->kind == ExprKind::Attr && callee->base()->kind == ExprKind::Name) {
    for (size_t i = 0; i < caller.params.size(); ++i) {
      if (caller.params[i].name != callee->base()->text) continue;
      const ClassDef* cls = caller_param_class(caller, i);
      return cls == nullptr ? nullptr : method_of(*cls, callee->text);
    }
  }
  return nullptr;
}

const Function* FileAnalysis::resolve_callee(const Function& caller, const Expr& call) const {
  if (const Function* target = resolve_by_name(caller, call)) return target;
  const Expr* callee = call.callee();
  if (callee->kind != ExprKind::Attr) return nullptr;
  if (callee->base()->kind == ExprKind::Name && callee->base()->text == kReceiver &&
      caller.parent_class != nullptr) {
    return nullptr;  // `self.m()` that no class of the chain defines
  }
  const Fact& receiver = facts_[callee->base()->id];
  if (receiver.instance_of != nullptr && receiver.kind != ValueKind::Class) {
    return resolve_method(receiver, callee->text);
  }
  return nullptr;
}

bool FileAnalysis::draws_next_item(const Function& caller, const Expr& call) const {
  if (call.kind != ExprKind::Call) return false;
  const Function* drawn = resolve_by_name(caller, call);
  if (drawn == nullptr) drawn = unique_method_by_name(call);
  if (drawn == nullptr || drawn == &caller) return false;
  // Marked false while it is read: a cycle of helpers draws nothing.
  if (const auto it = returns_next_item_.find(drawn); it != returns_next_item_.end())
    return it->second;
  returns_next_item_[drawn] = false;
  const bool draws = semantic::returns_next_item(
      *drawn, [this, drawn](const Expr& inner) { return draws_next_item(*drawn, inner); });
  return returns_next_item_[drawn] = draws;
}

const Function* FileAnalysis::unique_method_by_name(const Expr& call) const {
  const Expr* callee = call.callee();
  if (callee->kind != ExprKind::Attr) return nullptr;
  const Expr* root = callee->base();
  while (root->kind == ExprKind::Attr) root = root->base();
  if (root->kind != ExprKind::Name || root->text == kReceiver ||
      module_.is_import_alias(root->text))
    return nullptr;
  auto it = unique_methods_.find(callee->text);
  return it == unique_methods_.end() ? nullptr : it->second;
}

const Function* FileAnalysis::resolve_callee_or_unique_method(const Function& caller,
                                                              const Expr& call) const {
  if (const Function* target = resolve_callee(caller, call)) return target;
  const Expr* callee = call.callee();
  if (callee->kind != ExprKind::Attr || callee->base()->kind != ExprKind::Name) return nullptr;
  const std::string_view receiver = callee->base()->text;
  if (receiver == kReceiver || module_.is_import_alias(receiver)) return nullptr;
  // A value of a known kind has its own methods (`opt.step()` is not the file's `step`); a module
  // whose class is not known here (a model handed in) may be an instance of the file's.
  const Fact& receiver_fact = facts_[callee->base()->id];
  const bool unknown_module = receiver_fact.kind == ValueKind::Module &&
                              receiver_fact.instance_of == nullptr &&
                              receiver_fact.foreign == nullptr;
  if (receiver_fact.kind != ValueKind::Unknown && !unknown_module) return nullptr;
  // Null when two methods of that name exist: ambiguous.
  auto it = unique_methods_.find(callee->text);
  return it == unique_methods_.end() ? nullptr : it->second;
}

int Callee::param_index(std::string_view param) const {
  if (local != nullptr) {
    for (size_t i = 0; i < local->params.size(); ++i) {
      if (local->params[i].name == param) return static_cast<int>(i);
    }
    return -1;
  }
  return foreign != nullptr ? foreign->param_index(param) : -1;
}

void for_each_argument_in(const Expr& call, const Callee& callee, size_t first_param,
                          uint32_t params, const std::function<bool(const Expr&)>& visit) {
  auto selected = [&](size_t param) { return param < 32 && (params & (1U << param)) != 0; };
  for (size_t i = 0; i < call.arg_count(); ++i) {
    if (selected(i + first_param) && visit(*call.arg(i))) return;
  }
  for (const Keyword& keyword : call.keywords) {
    const int param = callee.param_index(keyword.name);
    if (param >= 0 && selected(static_cast<size_t>(param)) && visit(*keyword.value)) return;
  }
}

std::string_view class_name_of(const Fact& fact) {
  if (fact.instance_of != nullptr) return fact.instance_of->name;
  if (fact.foreign != nullptr) return fact.foreign->name;
  return {};
}

const FunctionSummary& FileAnalysis::summary(const Callee& callee) const {
  static const FunctionSummary kNone;  // immutable: not shared mutable state
  if (callee.local != nullptr) return summary(*callee.local);
  return callee.foreign != nullptr ? callee.foreign->summary : kNone;
}

Callee FileAnalysis::resolve_method_anywhere(const Fact& receiver, std::string_view name) const {
  if (receiver.kind == ValueKind::Class) return {};
  if (const Function* local = resolve_method(receiver, name)) return {local, nullptr};
  if (receiver.foreign != nullptr && project_ != nullptr)
    return {nullptr, project_->method(*receiver.foreign, name)};
  return {};
}

Callee FileAnalysis::resolve_callee_anywhere(const Function& caller, const Expr& call) const {
  if (const Function* local = resolve_callee(caller, call)) return {local, nullptr};
  if (project_ == nullptr) return {};
  const Expr* callee = call.callee();
  if (const ForeignFunction* function = imported_function(callee)) return {nullptr, function};
  if (callee->kind != ExprKind::Attr) return {};
  return resolve_method_anywhere(facts_[callee->base()->id], callee->text);
}

std::string FileAnalysis::imported_path(const Expr* expr) const {
  const Expr* root = root_name(expr);
  if (project_ == nullptr || root == nullptr || root->kind != ExprKind::Name ||
      !module_.is_import_alias(root->text)) {
    return {};
  }
  std::string path = qualified_name(module_, expr);
  // torch's own names are the knowledge tables' (torch's sources are a project too, whose
  // summaries of autograd Functions and C++ bindings would only blur what the tables know).
  if (path == "torch" || path.starts_with("torch.")) return {};
  return path;
}

const ForeignClass* FileAnalysis::imported_class(const Expr* expr) const {
  const std::string path = imported_path(expr);
  const ForeignClass* found = path.empty() ? nullptr : project_->class_named(path);
  used_project_ = used_project_ || found != nullptr;
  return found;
}

Fact FileAnalysis::instance_of_imported(const ForeignClass& cls) const {
  Fact fact;
  fact.foreign = &cls;
  fact.kind = !project_->is_module(cls) ? ValueKind::Instance
              : cls.is_loss             ? ValueKind::LossFn
                                        : ValueKind::Module;
  return fact;
}

const ForeignFunction* FileAnalysis::imported_function(const Expr* expr) const {
  const std::string path = imported_path(expr);
  const ForeignFunction* found = path.empty() ? nullptr : project_->function(path);
  used_project_ = used_project_ || found != nullptr;
  return found;
}

}  // namespace sealint::ir
