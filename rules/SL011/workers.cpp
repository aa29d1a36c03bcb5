// How many worker processes a DataLoader call starts: a literal, a name bound to one, a parameter
// the file's calls pass one to, a module constant, or a `**kwargs` dict literal.
#include <optional>
#include <string>

#include "analyzer/knowledge/data_loading.h"
#include "rules/SL011/loaders.h"

namespace sealint::rules::sl011 {

namespace {

using ir::CollectionKind;
using ir::Expr;
using ir::ExprKind;
using ir::Function;

Workers unknown_count() {
  Workers out;
  out.count = Workers::Count::Unknown;
  return out;
}

}  // namespace

// num_workers: the keyword, the sixth positional argument, or a `**kwargs` dict literal.
Workers LoaderScan::workers_of(const Function& function, const Expr& call) {
  // Spawned or forkserver workers unpickle their own copy at start: no copy-on-read.
  if (const Expr* context = call.keyword("multiprocessing_context")) {
    if (context->kind != ExprKind::Const || context->text.find("fork") == std::string::npos ||
        context->text.find("forkserver") != std::string::npos) {
      return {};
    }
  }
  const Expr* value = call.keyword("num_workers");
  if (value == nullptr && call.arg_count() > knowledge::kDataLoaderWorkersArg) {
    // Positional, unless a `*args` before it shifts the positions.
    bool starred = false;
    for (size_t i = 0; i <= knowledge::kDataLoaderWorkersArg; ++i)
      starred = starred || call.arg(i)->kind == ExprKind::Starred;
    if (!starred) value = call.arg(knowledge::kDataLoaderWorkersArg);
  }
  if (value == nullptr) {
    for (const ir::Keyword& keyword : call.keywords) {
      // `**loader_kwargs`.
      if (!keyword.name.empty() || keyword.value == nullptr ||
          keyword.value->kind != ExprKind::Starred || keyword.value->base() == nullptr)
        continue;
      value = dict_entry(function, *keyword.value->base(), call.range.begin);
      if (value != nullptr) break;
    }
  }
  // No num_workers: the default is 0, the main process loads the data.
  if (value == nullptr) return {};
  Workers workers = count_of(function, *value, call.range.begin, 0);
  workers.expr = value;
  return workers;
}

// The "num_workers" entry of the dict a `**name` unpacks, when it is a literal of the file.
const Expr* LoaderScan::dict_entry(const Function& function, const Expr& expr, uint32_t pos) {
  const Expr* dict = &expr;
  if (dict->kind == ExprKind::Name) {
    const semantic::Definition* definition =
        definitions_.before(function, std::string(dict->text), pos);
    if (definition == nullptr || definition->value == nullptr || definition->element)
      return nullptr;
    dict = definition->value;
  }
  if (dict->kind == ExprKind::Collection && dict->collection_kind == CollectionKind::Dict) {
    for (size_t i = 0; i + 1 < dict->items.size(); i += 2) {
      const Expr* key = dict->items[i];
      if (key->kind == ExprKind::Const && key->const_kind == ir::ConstKind::Str &&
          key->text.find("num_workers") != std::string_view::npos) {
        return dict->items[i + 1];
      }
    }
  }
  if (dict->kind == ExprKind::Call && ir::qualified_name(module_, dict->callee()) == "dict")
    return dict->keyword("num_workers");
  return nullptr;
}

Workers LoaderScan::count_of(const Function& function, const Expr& value, uint32_t pos, int depth) {
  if (depth > 8) return unknown_count();
  switch (value.kind) {
    case ExprKind::Const: {
      if (value.const_kind != ir::ConstKind::Int) return {};
      long long n = 0;
      for (char c : value.text) {
        if (c < '0' || c > '9' || n > 1'000'000) return unknown_count();
        n = n * 10 + (c - '0');
      }
      if (n <= 0) return {};
      Workers out;
      out.count = Workers::Count::Positive;
      out.n = n;
      return out;
    }
    case ExprKind::UnaryOp:
      // `-1`: not a worker count DataLoader accepts.
      return value.text == "-" ? Workers{} : unknown_count();
    case ExprKind::IfExp: {
      const Workers a = count_of(function, *value.items[0], pos, depth + 1);
      const Workers b = count_of(function, *value.items[2], pos, depth + 1);
      if (a.count == Workers::Count::Zero && b.count == Workers::Count::Zero) return {};
      return unknown_count();
    }
    case ExprKind::Name:
      return name_count(function, value.text, pos, depth);
    case ExprKind::Attr:
    case ExprKind::Call:
    case ExprKind::BinOp:
    case ExprKind::BoolOp:
    case ExprKind::Compare:
    case ExprKind::Collection:
    case ExprKind::Comprehension:
    case ExprKind::Subscript:
    case ExprKind::Starred:
    case ExprKind::Lambda:
    case ExprKind::Await:
    case ExprKind::NamedExpr:
    case ExprKind::Slice:
    case ExprKind::Other:
      return unknown_count();
  }
  return unknown_count();
}

// A name: its binding before `pos`, a parameter (what the file's calls pass, else its default),
// or a module-level constant (`NUM_WORKERS = 8`).
Workers LoaderScan::name_count(const Function& function, std::string_view name, uint32_t pos,
                               int depth) {
  const std::string key(name);
  if (const semantic::Definition* definition = definitions_.before(function, key, pos)) {
    if (definition->value == nullptr || definition->element) return unknown_count();
    return count_of(function, *definition->value, definition->pos, depth + 1);
  }
  if (function.is_module) return unknown_count();
  if (const std::optional<size_t> index = semantic::parameter_index(function, name)) {
    const ir::Param& param = function.params[*index];
    std::vector<semantic::CallSite> sites = calls_.of(function);
    // The call that passed the dataset passes the count too.
    if (pinned_ != nullptr && pinned_function_ == &function) sites = {*pinned_};
    const auto by_default = [&]() {
      if (param.default_value == nullptr) return unknown_count();
      const Workers fallback = count_of(function, *param.default_value, pos, depth + 1);
      // A default above 0 that no call of the file confirms: say "when".
      return fallback.count == Workers::Count::Zero ? fallback : unknown_count();
    };
    if (sites.empty()) return by_default();
    Workers joined;
    for (const semantic::CallSite& site : sites) {
      bool unknown = false;
      const Expr* arg = semantic::argument_for(function, *site.call, *index, unknown);
      const Workers count = unknown ? unknown_count()
                            : arg == nullptr
                                ? by_default()
                                : count_of(*site.caller, *arg, site.call->range.begin, depth + 1);
      if (count.count == Workers::Count::Positive) return count;
      if (count.count == Workers::Count::Unknown) joined = count;
    }
    return joined;
  }
  const Function* top = function.parent_function;
  while (top != nullptr && !top->is_module) top = top->parent_function;
  if (top == nullptr) top = &module_.top_level();
  const semantic::Definition* definition = definitions_.before(*top, key, UINT32_MAX);
  if (definition == nullptr || definition->value == nullptr || definition->element)
    return unknown_count();
  return count_of(*top, *definition->value, definition->pos, depth + 1);
}

}  // namespace sealint::rules::sl011
