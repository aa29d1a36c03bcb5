// What the items of a container built from the data are, and what fills an empty container.
#include <algorithm>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/containers.h"
#include "analyzer/knowledge/data_loading.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/semantic/call_sites.h"
#include "analyzer/semantic/iteration.h"
#include "rules/SL011/data_flow.h"

namespace sealint::rules::sl011 {

namespace {

using ir::CollectionKind;
using ir::Expr;
using ir::ExprKind;
using ir::Function;
using ir::Stmt;
using ir::StmtKind;

// `self.class_to_idx[name]`, `self.class_to_idx.get(name)`: an entry of a small table.
bool reads_small_table(const Expr* table) {
  const std::string key = ir::place_key(table);
  if (key.empty()) return false;
  const size_t dot = key.rfind('.');
  return knowledge::is_small_table_name(
      dot == std::string::npos ? std::string_view(key) : std::string_view(key).substr(dot + 1));
}

bool is_string_literal(const Expr* expr) {
  return expr->kind == ExprKind::Const && expr->const_kind == ir::ConstKind::Str;
}

}  // namespace

std::optional<Shape> empty_container(const ir::Module& module, const Expr* value) {
  if (value == nullptr) return std::nullopt;
  if (value->kind == ExprKind::Collection && value->items.empty()) {
    switch (value->collection_kind) {
      case CollectionKind::List:
        return Shape::List;
      case CollectionKind::Dict:
        return Shape::Dict;
      case CollectionKind::Set:
        return Shape::Set;
      case CollectionKind::Tuple:
      case CollectionKind::Generator:
        return std::nullopt;
    }
  }
  if (value->kind != ExprKind::Call) return std::nullopt;
  const std::string q = ir::qualified_name(module, value->callee());
  if ((q == "list" || q == "dict" || q == "set") && value->arg_count() == 0)
    return q == "list" ? Shape::List : (q == "dict" ? Shape::Dict : Shape::Set);
  if ((q == "collections.defaultdict" || q == "defaultdict") ||
      ((q == "collections.OrderedDict" || q == "OrderedDict") && value->arg_count() == 0)) {
    return Shape::Dict;
  }
  return std::nullopt;
}

// Is the item `expr` a small shared object (an int label, a bool, a constant), evidently a new
// object (a string, a tuple, a path), or unknown?
Items DataFlow::item_kind(const Function& function, const Expr& expr, uint32_t pos, int depth) {
  if (at_limit(depth)) return Items::Unknown;
  switch (expr.kind) {
    case ExprKind::Const: {
      // An f-string makes a new string; a literal is one shared constant.
      const std::string_view text = expr.text;
      const bool formatted = expr.const_kind == ir::ConstKind::Str &&
                             text.find_first_of("fF") < text.find_first_of("'\"");
      return formatted ? Items::Objects : Items::Small;
    }
    case ExprKind::Compare:
      return Items::Small;
    case ExprKind::UnaryOp:
      return expr.text == "not" ? Items::Small
                                : item_kind(function, *expr.items[0], pos, depth + 1);
    case ExprKind::BoolOp:
      return join(item_kind(function, *expr.items[0], pos, depth + 1),
                  item_kind(function, *expr.items[1], pos, depth + 1));
    case ExprKind::BinOp: {
      const Items lhs = item_kind(function, *expr.items[0], pos, depth + 1);
      const Items rhs = item_kind(function, *expr.items[1], pos, depth + 1);
      // `root + "/a.png"`, `folder / name`: a new string or path.
      if (is_string_literal(expr.items[0]) || is_string_literal(expr.items[1]) || expr.text == "/")
        return Items::Objects;
      if (lhs == Items::Objects || rhs == Items::Objects) return Items::Objects;
      return lhs == Items::Small && rhs == Items::Small ? Items::Small : Items::Unknown;
    }
    case ExprKind::Subscript:
    case ExprKind::Attr:
      // `self.class_to_idx.get(name)` reaches the attribute through `get`.
      return reads_small_table(expr.base()) ? Items::Small : Items::Unknown;
    case ExprKind::Name: {
      const semantic::Definition* definition =
          definitions_.before(function, std::string(expr.text), pos);
      if (definition == nullptr || definition->value == nullptr || definition->element)
        return Items::Unknown;
      return item_kind(function, *definition->value, definition->pos, depth + 1);
    }
    case ExprKind::Call:
      return call_item_kind(function, expr, pos, depth);
    case ExprKind::Collection: {
      // `(None, None)`: a tuple of constants is one constant the compiler shares.
      const bool constant = expr.collection_kind == CollectionKind::Tuple &&
                            std::all_of(expr.items.begin(), expr.items.end(), [](const Expr* item) {
                              return item->kind == ExprKind::Const;
                            });
      return constant ? Items::Small : Items::Objects;
    }
    case ExprKind::Comprehension:
      return Items::Objects;
    case ExprKind::IfExp:
      return join(item_kind(function, *expr.items[0], pos, depth + 1),
                  item_kind(function, *expr.items[2], pos, depth + 1));
    case ExprKind::Starred:
    case ExprKind::Lambda:
    case ExprKind::Await:
    case ExprKind::NamedExpr:
    case ExprKind::Slice:
    case ExprKind::Other:
      return Items::Unknown;
  }
  return Items::Unknown;
}

Items DataFlow::call_item_kind(const Function& function, const Expr& call, uint32_t pos,
                               int depth) {
  const Expr* callee = call.callee();
  if (callee->kind == ExprKind::Name) {
    if (knowledge::returns_small_value(callee->text)) return Items::Small;
    // A function of the file: it may return anything.
    if (analysis_.function_named(callee->text) != nullptr) return Items::Unknown;
    return Items::Objects;
  }
  if (callee->kind == ExprKind::Attr) {
    const std::string_view method = callee->text;
    if (knowledge::method_returns_small_value(method)) return Items::Small;
    if (method == "get") return item_kind(function, *callee, pos, depth + 1);
    if (self_method_call(function, call) != nullptr) return Items::Unknown;
  }
  return Items::Objects;
}

// The items a fill adds: one item for `append(x)`, those of an iterable for `extend(xs)`.
Items DataFlow::added_items(const Function& function, const Stmt& stmt, const Added& added,
                            int depth) {
  const uint32_t pos = stmt.range.begin;
  if (added.key != nullptr)
    return join(item_kind(function, *added.key, pos, depth + 1),
                item_kind(function, *added.value, pos, depth + 1));
  if (!added.many) return item_kind(function, *added.value, pos, depth + 1);
  const Value value = classify(function, *added.value, pos, depth + 1);
  if (is_data(value)) return value.items;
  if (added.value->kind == ExprKind::Collection || added.value->kind == ExprKind::Comprehension) {
    Items items = added.value->items.empty() ? Items::Unknown : Items::Small;
    for (const Expr* item : added.value->items)
      items = join(items, item_kind(function, *item, pos, depth + 1));
    return items;
  }
  return Items::Unknown;
}

// The first statement after `after` in `function` that adds the data to the container `key`:
// inside a loop over the data, or adding data itself (`paths.extend(glob(...))`). Follows
// `self.helper()` calls one level for `self.` places.
DataFlow::Fill DataFlow::find_fill(const Function& function, const std::string& key, uint32_t after,
                                   int depth) {
  Fill found;
  if (at_limit(depth)) return found;
  ir::walk_statements(function, false, [&](const Stmt& stmt, const ir::StmtContext& where) {
    if (found.stmt != nullptr || stmt.range.begin <= after || ++steps_ > kMaxSteps) return;
    if (const std::optional<Added> added = fill_value(stmt, key)) {
      bool in_data_loop = false;
      for (const Stmt* loop : where.loops) {
        // `for path in paths:`, or `it = iter(paths)` and `path = next(it)` in a `while`.
        const Expr* iterable = semantic::advanced_iterable(function, *loop);
        if (iterable == nullptr) continue;
        in_data_loop =
            in_data_loop || is_data(classify(function, *iterable, loop->range.begin, depth + 1));
      }
      if (in_data_loop || (added->many && is_data(classify(function, *added->value,
                                                           stmt.range.begin, depth + 1)))) {
        found = {&stmt, added_items(function, stmt, *added, depth + 1), key};
        // `if i < 2000: held_out.append(...)`: the count is bounded, whatever the data's size.
        const std::optional<int64_t> count =
            added->many ? std::nullopt : semantic::bounded_pass_count(module_, where, stmt, key);
        found.few = count && *count <= kFewItems;
        return;
      }
    }
    // `self._scan(root)` filling `self.items` in the helper.
    const std::string_view self = semantic::receiver_name(function);
    if (self.empty() || ir::place_root(key) != self || stmt.kind != StmtKind::ExprStmt ||
        stmt.value == nullptr)
      return;
    const Function* helper = self_method_call(function, *stmt.value);
    if (helper == nullptr) return;
    const std::string_view helper_self = semantic::receiver_name(*helper);
    if (helper_self.empty()) return;
    const std::string helper_key = std::string(helper_self) + key.substr(self.size());
    found = find_fill(*helper, helper_key, 0, depth + 2);
  });
  return found;
}

// What `stmt` adds to the container `key` (`key.append(v)`, `key[k] = v`, `key += v`).
std::optional<DataFlow::Added> DataFlow::fill_value(const Stmt& stmt, const std::string& key) {
  const std::string item_prefix = key + "[";
  if (stmt.kind == StmtKind::AugAssign && stmt.targets.size() == 1 &&
      (stmt.text == "+=" || stmt.text == "|=") && ir::place_key(stmt.targets[0]) == key) {
    return Added{stmt.value, nullptr, true};
  }
  if (stmt.kind == StmtKind::Assign && stmt.value != nullptr) {
    for (const Expr* target : stmt.targets) {
      // `d[k] = v` with a key that changes: the dict grows.
      if (target->kind == ExprKind::Subscript && target->items.size() == 2 &&
          target->items[1]->kind != ExprKind::Const && target->items[1]->kind != ExprKind::Slice &&
          ir::place_key(target->base()) == key) {
        return Added{stmt.value, target->items[1], false};
      }
    }
  }
  std::optional<Added> added;
  ir::for_each_expr(stmt, [&](const Expr& call) {
    if (added || call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Attr ||
        call.arg_count() == 0)
      return;
    const std::string_view method = call.callee()->text;
    const knowledge::ContainerStore* store = knowledge::container_store(method);
    if (store == nullptr) return;
    const std::string receiver = ir::place_key(call.callee()->base());
    if (receiver != key && !receiver.starts_with(item_prefix)) return;
    if (method == "setdefault") {
      // `d.setdefault(k, []).append(v)`: a list per key.
      added = Added{&call, nullptr, false};
    } else if (call.arg_count() > store->value_arg) {
      added = Added{call.arg(store->value_arg), nullptr, store->spreads};
    } else {
      added = Added{call.arg(0), nullptr, store->spreads};
    }
  });
  return added;
}

}  // namespace sealint::rules::sl011
