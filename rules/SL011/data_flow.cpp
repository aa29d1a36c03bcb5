#include "rules/SL011/data_flow.h"

#include <algorithm>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/data_loading.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/semantic/call_sites.h"
#include "analyzer/semantic/class_bases.h"

namespace sealint::rules::sl011 {

namespace {

using ir::CollectionKind;
using ir::Expr;
using ir::ExprKind;
using ir::Function;
using ir::Stmt;
using ir::StmtKind;
using knowledge::DataCall;
using knowledge::DataMethod;

// `self.samples` -> "samples": the name a place's last attribute gives it.
std::string_view attribute_name(std::string_view key) {
  const size_t dot = key.rfind('.');
  return dot == std::string_view::npos ? key : key.substr(dot + 1);
}

Value container_of(CollectionKind kind, Items items) {
  switch (kind) {
    case CollectionKind::List:
      return objects(Shape::List, items);
    case CollectionKind::Dict:
      return objects(Shape::Dict, items);
    case CollectionKind::Set:
      return objects(Shape::Set, items);
    case CollectionKind::Tuple:
    case CollectionKind::Generator:
      return source(items);
  }
  return {};
}

}  // namespace

bool DataFlow::at_limit(int depth) {
  if (depth > kMaxDepth) cut_ = true;
  return depth > kMaxDepth || ++steps_ > kMaxSteps;
}

Value DataFlow::classify(const Function& function, const Expr& expr, uint32_t pos, int depth) {
  if (at_limit(depth)) return {};
  switch (expr.kind) {
    case ExprKind::Name:
      return lookup(function, std::string(expr.text), pos, depth + 1);
    case ExprKind::Attr: {
      const std::string key = ir::place_key(&expr);
      if (!key.empty() && ir::place_root(key) == semantic::receiver_name(function) &&
          std::count(key.begin(), key.end(), '.') == 1) {
        return lookup(function, key, pos, depth + 1);
      }
      // `df.values`, `df.path`, `frame.loc`: a view of a data frame or an array.
      const Value base = classify(function, *expr.base(), pos, depth + 1);
      if (is_data(base)) return source(Items::Unknown);
      return {};
    }
    case ExprKind::Subscript: {
      const Value base = classify(function, *expr.base(), pos, depth + 1);
      if (base.data == Data::Text) return base;
      if (!is_data(base)) return {};
      // A slice of a list is a list; an item or a column is a view into the data.
      if (base.data == Data::Objects && expr.items.size() == 2 &&
          expr.items[1]->kind == ExprKind::Slice) {
        return base;
      }
      return source(Items::Unknown);
    }
    case ExprKind::Call:
      return classify_call(function, expr, pos, depth + 1);
    case ExprKind::Comprehension: {
      bool over_data = false;
      for (const ir::ComprehensionFor& gen : expr.generators) {
        if (gen.iter == nullptr) continue;
        const Value iter = classify(function, *gen.iter, pos, depth + 1);
        over_data = over_data || is_data(iter);
      }
      if (!over_data) return {};
      Items items = expr.items.empty() ? Items::Unknown : Items::Small;
      for (const Expr* element : expr.items)
        items = join(items, item_kind(function, *element, pos, depth + 1));
      return container_of(expr.collection_kind, items);
    }
    case ExprKind::BinOp: {
      if (expr.text != "+") return {};
      const Value lhs = classify(function, *expr.items[0], pos, depth + 1);
      const Value rhs = classify(function, *expr.items[1], pos, depth + 1);
      if (lhs.data == Data::Text || rhs.data == Data::Text) return {};
      if (lhs.data != Data::Objects && rhs.data != Data::Objects) return {};
      Value out = lhs.data == Data::Objects ? lhs : rhs;
      if (lhs.data == Data::Objects && rhs.data == Data::Objects)
        out.items = join(lhs.items, rhs.items);
      return out;
    }
    case ExprKind::IfExp:
      return join(classify(function, *expr.items[0], pos, depth + 1),
                  classify(function, *expr.items[2], pos, depth + 1));
    case ExprKind::Const:
    case ExprKind::UnaryOp:
    case ExprKind::BoolOp:
    case ExprKind::Compare:
    case ExprKind::Collection:
    case ExprKind::Starred:
    case ExprKind::Lambda:
    case ExprKind::Await:
    case ExprKind::NamedExpr:
    case ExprKind::Slice:
    case ExprKind::Other:
      return {};
  }
  return {};
}

Value DataFlow::stored_value(const Function& function, const std::string& key, const Stmt& stmt,
                             const Expr* value, int depth) {
  if (value == nullptr || at_limit(depth)) return {};
  // A binding's value does not depend on where it is read, only on the data a followed call
  // passes to the function: remember it when none does. A binding being computed reads as not
  // data (a cycle).
  const bool memo = !arguments_.contains(&function);
  const auto memo_key = std::make_tuple(&function, key, stmt.range.begin);
  if (memo) {
    auto [it, inserted] = stored_.try_emplace(memo_key);
    if (!inserted) return it->second;
  }
  // A value cut short by the depth limit is not remembered: read from a shallower place, it may
  // be complete.
  const bool was_cut = cut_;
  cut_ = false;
  Value out = compute_stored_value(function, key, stmt, value, depth);
  if (memo && cut_) stored_.erase(memo_key);
  if (memo && !cut_) stored_[memo_key] = out;
  cut_ = cut_ || was_cut;
  return out;
}

Value DataFlow::compute_stored_value(const Function& function, const std::string& key,
                                     const Stmt& stmt, const Expr* value, int depth) {
  if (const std::optional<Shape> shape = empty_container(module_, value)) {
    const Fill fill = find_fill(function, key, stmt.range.begin, depth + 1);
    // Nothing fills it from the data, or a count bound keeps it small.
    if (fill.stmt == nullptr || fill.few) return {};
    Value out = objects(*shape, fill.items);
    out.fill = fill.stmt;
    out.fill_key = fill.key;
    return out;
  }
  return classify(function, *value, stmt.range.begin, depth + 1);
}

const Function* DataFlow::self_method_call(const Function& function, const Expr& call) const {
  if (call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Attr) return nullptr;
  const Expr* base = call.callee()->base();
  const std::string_view self = semantic::receiver_name(function);
  if (self.empty() || base->kind != ExprKind::Name || base->text != self) return nullptr;
  if (self_class_ == nullptr) return nullptr;
  const Function* method = analysis_.method_of(*self_class_, call.callee()->text);
  return method == &function ? nullptr : method;
}

Value DataFlow::lookup(const Function& function, const std::string& key, uint32_t pos, int depth) {
  if (at_limit(depth)) return {};
  if (knowledge::is_small_table_name(attribute_name(key))) return {};
  const semantic::Definition* definition = definitions_.before(function, key, pos);
  if (definition == nullptr) return parameter_value(function, key);
  if (definition->value == nullptr || definition->element) return {};
  return stored_value(function, key, *definition->stmt, definition->value, depth + 1);
}

Value DataFlow::parameter_value(const Function& function, std::string_view name) const {
  auto it = arguments_.find(&function);
  if (it == arguments_.end()) return {};
  for (const auto& [param, value] : it->second) {
    if (param == name) return value;
  }
  return {};
}

Value DataFlow::classify_returns(const Function& caller, const Function& callee, const Expr& call,
                                 uint32_t pos, int depth) {
  if (at_limit(depth)) return {};
  std::vector<std::pair<std::string_view, Value>> arguments;
  const size_t first = semantic::receiver_name(callee).empty() ? 0 : 1;
  for (size_t i = 0; i < call.arg_count() && first + i < callee.params.size(); ++i) {
    const Value value = classify(caller, *call.arg(i), pos, depth + 1);
    if (is_data(value) || value.data == Data::Text)
      arguments.emplace_back(callee.params[first + i].name, value);
  }
  for (const ir::Keyword& keyword : call.keywords) {
    if (keyword.name.empty() || keyword.value == nullptr) continue;
    const Value value = classify(caller, *keyword.value, pos, depth + 1);
    if (is_data(value) || value.data == Data::Text) arguments.emplace_back(keyword.name, value);
  }
  auto saved = arguments_.find(&callee) == arguments_.end() ? std::nullopt
                                                            : std::optional(arguments_[&callee]);
  arguments_[&callee] = std::move(arguments);
  Value out;
  ir::for_each_nested(callee.body, [&](const Stmt& stmt) {
    if (stmt.kind != StmtKind::Return || stmt.value == nullptr) return;
    out = join(out, classify(callee, *stmt.value, stmt.range.begin, depth + 1));
  });
  if (saved) {
    arguments_[&callee] = std::move(*saved);
  } else {
    arguments_.erase(&callee);
  }
  return out;
}

bool DataFlow::any_arg_is_data(const Function& function, const Expr& call, uint32_t pos, int depth,
                               Items& items) {
  bool any = false;
  for (size_t i = 0; i < call.arg_count(); ++i) {
    const Value arg = classify(function, *call.arg(i), pos, depth + 1);
    if (!is_data(arg)) continue;
    items = any ? join(items, arg.items) : arg.items;
    any = true;
  }
  return any;
}

Value DataFlow::classify_call(const Function& function, const Expr& call, uint32_t pos, int depth) {
  if (at_limit(depth)) return {};
  const Expr* callee = call.callee();
  // Functions and methods of the file: what they return.
  if (callee->kind == ExprKind::Name && !analysis_.is_import_alias(callee->text)) {
    if (const Function* helper = analysis_.function_named(callee->text))
      return classify_returns(function, *helper, call, pos, depth + 1);
    if (analysis_.class_named(callee->text) != nullptr) return {};
  }
  if (const Function* helper = self_method_call(function, call))
    return classify_returns(function, *helper, call, pos, depth + 1);

  const auto first_value = [&]() {
    const Expr* first = call.arg(0);
    return first == nullptr ? Value{} : classify(function, *first, pos, depth + 1);
  };
  Items items = Items::Unknown;
  const DataCall kind = knowledge::data_call(ir::qualified_name(module_, callee));
  switch (kind) {
    case DataCall::ToList:
    case DataCall::ToTuple:
    case DataCall::ToSet:
    case DataCall::ToDict: {
      const Value arg = first_value();
      // Not data; or the characters of a string, a small alphabet.
      if (!is_data(arg)) return {};
      const Shape shape = kind == DataCall::ToTuple  ? Shape::Tuple
                          : kind == DataCall::ToSet  ? Shape::Set
                          : kind == DataCall::ToDict ? Shape::Dict
                                                     : Shape::List;
      return objects(shape, arg.items);
    }
    case DataCall::Pairs:
      return any_arg_is_data(function, call, pos, depth, items) ? source(Items::Objects) : Value{};
    case DataCall::Passes:
      return any_arg_is_data(function, call, pos, depth, items) ? source(items) : Value{};
    case DataCall::Maps:
      return any_arg_is_data(function, call, pos, depth, items) ? source(Items::Unknown) : Value{};
    case DataCall::Indices:
      // `range(len(lines))`: one index per item of the data, ints beyond the shared small ones.
      for (size_t i = 0; i < call.arg_count(); ++i) {
        const Expr* arg = call.arg(i);
        if (arg->kind == ExprKind::Call && arg->callee()->kind == ExprKind::Name &&
            arg->callee()->text == "len" && arg->arg_count() == 1 &&
            is_data(classify(function, *arg->arg(0), pos, depth + 1))) {
          return source(Items::Objects);
        }
      }
      return {};
    case DataCall::Copies:
      return first_value();
    case DataCall::OpensFile:
    case DataCall::Scans:
      return source(Items::Objects);
    case DataCall::Lists:
      return objects(Shape::List, Items::Objects);
    case DataCall::LoadsArray:
      return source(Items::Unknown);
    case DataCall::LoadsObjects:
      return objects(Shape::Loaded, Items::Objects);
    case DataCall::None:
      break;
  }
  return classify_method(function, call, pos, depth);
}

Value DataFlow::classify_method(const Function& function, const Expr& call, uint32_t pos,
                                int depth) {
  const Expr* callee = call.callee();
  if (callee->kind != ExprKind::Attr) return {};
  const DataMethod method = knowledge::data_method(callee->text);
  // What is read from a file or a path, whatever it was opened with.
  if (method == DataMethod::ReadsLines) return objects(Shape::List, Items::Objects);
  if (method == DataMethod::ReadsText) return text();
  if (method == DataMethod::Scans) return source(Items::Objects);
  const Value base = classify(function, *callee->base(), pos, depth + 1);
  if (base.data == Data::Text) {
    if (method == DataMethod::SplitsText) return objects(Shape::List, Items::Objects);
    if (method == DataMethod::KeepsText) return base;
    return {};
  }
  if (!is_data(base)) return {};
  switch (method) {
    case DataMethod::ToList:
      return objects(Shape::List, base.data == Data::Objects ? base.items : Items::Unknown);
    case DataMethod::ToDict:
      return objects(Shape::Dict, Items::Unknown);
    case DataMethod::Copies:
      return base;
    case DataMethod::Items:
      return source(Items::Objects);
    case DataMethod::Views:
      return source(base.items);
    case DataMethod::None:
    case DataMethod::ReadsLines:
    case DataMethod::ReadsText:
    case DataMethod::Scans:
    case DataMethod::SplitsText:
    case DataMethod::KeepsText:
      return {};
  }
  return {};
}

}  // namespace sealint::rules::sl011
