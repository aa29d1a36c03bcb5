#include "rules/SL011/loaders.h"

#include <optional>
#include <string>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/data_loading.h"
#include "analyzer/knowledge/naming.h"

namespace sealint::rules::sl011 {

using ir::ClassDef;
using ir::Expr;
using ir::ExprKind;
using ir::Function;
using ir::Stmt;

std::unordered_map<const ClassDef*, LoaderUse> LoaderScan::loaders() {
  std::unordered_map<const ClassDef*, LoaderUse> out;
  const auto record = [&](const std::vector<const ClassDef*>& classes, const Expr& call,
                          const Workers& workers, const Expr* via) {
    // num_workers=0, or none: the main process loads the data.
    if (workers.count == Workers::Count::Zero) return;
    for (const ClassDef* cls : classes) {
      auto [it, inserted] = out.try_emplace(cls, LoaderUse{&call, workers, via});
      if (!inserted && it->second.workers.count == Workers::Count::Unknown &&
          workers.count == Workers::Count::Positive) {
        it->second = {&call, workers, via};
      }
    }
  };
  for (const Function& function : module_.functions()) {
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      ir::for_each_expr(stmt, [&](const Expr& call) {
        if (call.kind != ExprKind::Call || !is_data_loader(call)) return;
        const Expr* dataset = call.keyword("dataset");
        if (dataset == nullptr) dataset = call.arg(0);
        if (dataset == nullptr) return;
        // `def make_loader(dataset, workers): return DataLoader(dataset, num_workers=workers)`:
        // each call of the file pairs a dataset with a worker count.
        const std::optional<size_t> param = unbound_parameter(function, *dataset, call);
        if (param && !calls_.of(function).empty()) {
          for (const semantic::CallSite& site : calls_.of(function)) {
            bool unknown = false;
            const Expr* arg = semantic::argument_for(function, *site.call, *param, unknown);
            if (arg == nullptr) continue;
            std::vector<const ClassDef*> classes;
            dataset_classes(*site.caller, *arg, site.call->range.begin, 1, classes);
            pinned_ = &site;
            pinned_function_ = &function;
            const Workers workers = workers_of(function, call);
            pinned_ = nullptr;
            pinned_function_ = nullptr;
            record(classes, call, workers, site.call);
          }
          return;
        }
        std::vector<const ClassDef*> classes;
        dataset_classes(function, *dataset, call.range.begin, 0, classes);
        record(classes, call, workers_of(function, call), nullptr);
      });
    });
  }
  return out;
}

// The parameter `expr` names at `call`, when nothing in the function rebinds it before.
std::optional<size_t> LoaderScan::unbound_parameter(const Function& function, const Expr& expr,
                                                    const Expr& call) {
  if (expr.kind != ExprKind::Name ||
      definitions_.before(function, std::string(expr.text), call.range.begin) != nullptr)
    return std::nullopt;
  return semantic::parameter_index(function, expr.text);
}

bool LoaderScan::is_data_loader(const Expr& call) const {
  const Expr* callee = call.callee();
  // The file's own `DataLoader` class or function.
  if (callee->kind == ExprKind::Name && (analysis_.class_named(callee->text) != nullptr ||
                                         analysis_.function_named(callee->text) != nullptr))
    return false;
  return knowledge::last_component(ir::qualified_name(module_, callee)) == "DataLoader";
}

// The dataset classes of the file an expression may hold: `MyDataset(...)`, a name bound to
// one, `self.train_set`, a parameter the file's calls pass one to, `Subset(ds, idx)`,
// `random_split(ds, ...)`, `ConcatDataset([...])`.
void LoaderScan::dataset_classes(const Function& function, const Expr& expr, uint32_t pos,
                                 int depth, std::vector<const ClassDef*>& out) {
  if (depth > 8) return;
  const ir::Fact& fact = analysis_.fact(expr);
  if (fact.instance_of != nullptr && fact.kind == ir::ValueKind::Instance) {
    out.push_back(fact.instance_of);
    return;
  }
  switch (expr.kind) {
    case ExprKind::Call: {
      const Expr* callee = expr.callee();
      if (callee->kind == ExprKind::Name) {
        if (const ClassDef* cls = analysis_.class_named(callee->text)) {
          out.push_back(cls);
          return;
        }
      }
      // The qualified name must outlive `last`, a view into it.
      const std::string qualified = ir::qualified_name(module_, callee);
      if (knowledge::is_dataset_wrapper(knowledge::last_component(qualified))) {
        for (size_t i = 0; i < expr.arg_count(); ++i)
          dataset_classes(function, *expr.arg(i), pos, depth + 1, out);
        if (const Expr* ds = expr.keyword("dataset"))
          dataset_classes(function, *ds, pos, depth + 1, out);
      }
      return;
    }
    case ExprKind::Collection:
      for (const Expr* item : expr.items) dataset_classes(function, *item, pos, depth + 1, out);
      return;
    case ExprKind::IfExp:
      dataset_classes(function, *expr.items[0], pos, depth + 1, out);
      dataset_classes(function, *expr.items[2], pos, depth + 1, out);
      return;
    case ExprKind::Name:
    case ExprKind::Attr:
      place_classes(function, expr, pos, depth, out);
      return;
    case ExprKind::Const:
    case ExprKind::BinOp:
    case ExprKind::UnaryOp:
    case ExprKind::BoolOp:
    case ExprKind::Compare:
    case ExprKind::Subscript:
    case ExprKind::Comprehension:
    case ExprKind::Starred:
    case ExprKind::Lambda:
    case ExprKind::Await:
    case ExprKind::NamedExpr:
    case ExprKind::Slice:
    case ExprKind::Other:
      return;
  }
}

void LoaderScan::place_classes(const Function& function, const Expr& expr, uint32_t pos, int depth,
                               std::vector<const ClassDef*>& out) {
  const std::string key = ir::place_key(&expr);
  if (key.empty()) return;
  if (const semantic::Definition* definition = definitions_.before(function, key, pos)) {
    if (definition->value != nullptr)
      dataset_classes(function, *definition->value, definition->pos, depth + 1, out);
    return;
  }
  const std::string_view self = semantic::receiver_name(function);
  if (expr.kind == ExprKind::Name) {
    // `DataLoader(self, ...)` in a method of the dataset class.
    if (!self.empty() && expr.text == self) {
      out.push_back(function.parent_class);
      return;
    }
    // `def make_loader(dataset): return DataLoader(dataset, ...)`: what the calls pass.
    const std::optional<size_t> index = semantic::parameter_index(function, expr.text);
    if (!index) return;
    for (const semantic::CallSite& site : calls_.of(function)) {
      bool unknown = false;
      if (const Expr* arg = semantic::argument_for(function, *site.call, *index, unknown))
        dataset_classes(*site.caller, *arg, site.call->range.begin, depth + 1, out);
    }
    return;
  }
  // `self.train_set` bound in another method of the class (`setup()`).
  if (self.empty() || ir::place_root(key) != self) return;
  for (const Function* method : function.parent_class->methods) {
    const std::string_view other_self = semantic::receiver_name(*method);
    if (other_self.empty()) continue;
    const std::string other_key = std::string(other_self) + key.substr(self.size());
    const semantic::Definition* definition = definitions_.before(*method, other_key, UINT32_MAX);
    if (definition != nullptr && definition->value != nullptr)
      dataset_classes(*method, *definition->value, definition->pos, depth + 1, out);
  }
}

}  // namespace sealint::rules::sl011
