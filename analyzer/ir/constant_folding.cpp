#include "analyzer/ir/constant_folding.h"

#include <cassert>
#include <vector>

#include "analyzer/ir/walk.h"

namespace sealint::ir {

namespace {

constexpr int64_t kMax = FoldedInt::kMaxExact;

std::optional<FoldedInt> exact(int64_t value) {
  return FoldedInt::of(value);
}

std::optional<FoldedInt> checked_add(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out))
    return a > 0 ? std::optional(FoldedInt::make_huge()) : std::nullopt;
  return exact(out);
}

std::optional<FoldedInt> checked_mul(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out))
    return (a > 0) == (b > 0) ? std::optional(FoldedInt::make_huge()) : std::nullopt;
  return exact(out);
}

// Python's `a // b` and `a % b` (floor division: the remainder takes the divisor's sign).
int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t floor_mod(int64_t a, int64_t b) {
  const int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

// |base| ** exp by squaring, saturating at huge.
FoldedInt power(uint64_t base, uint64_t exp) {
  uint64_t result = 1;
  bool saturated = false;
  while (exp > 0) {
    if ((exp & 1U) != 0U) {
      if (__builtin_mul_overflow(result, base, &result) || result > uint64_t{kMax}) {
        saturated = true;
        break;
      }
    }
    exp >>= 1U;
    if (exp == 0) break;
    if (__builtin_mul_overflow(base, base, &base) || base > uint64_t{kMax}) {
      // Any further factor is at least base^2 > kMax, unless the result stays 1 (base was 1).
      saturated = true;
      break;
    }
  }
  if (saturated) return FoldedInt::make_huge();
  return {static_cast<int64_t>(result), false};
}

std::optional<FoldedInt> fold_pow(FoldedInt lhs, FoldedInt rhs) {
  if (!rhs.huge && rhs.value < 0) return std::nullopt;  // a float in Python
  if (!rhs.huge && rhs.value == 0) return FoldedInt{1, false};
  if (lhs.huge) return FoldedInt::make_huge();
  if (lhs.value == 0 || lhs.value == 1) return lhs;
  if (rhs.huge) return lhs.value >= 2 ? std::optional(FoldedInt::make_huge()) : std::nullopt;
  const bool negative = lhs.value < 0 && (rhs.value & 1) != 0;
  const FoldedInt magnitude = power(static_cast<uint64_t>(lhs.value < 0 ? -lhs.value : lhs.value),
                                    static_cast<uint64_t>(rhs.value));
  if (magnitude.huge) return negative ? std::nullopt : std::optional(magnitude);
  return FoldedInt{negative ? -magnitude.value : magnitude.value, false};
}

std::optional<FoldedInt> fold_shift_left(FoldedInt lhs, FoldedInt rhs) {
  if (!rhs.huge && rhs.value < 0) return std::nullopt;  // ValueError: negative shift count
  if (lhs.huge) return FoldedInt::make_huge();
  if (lhs.value == 0) return lhs;
  if (rhs.huge || rhs.value >= 63) {
    return lhs.value > 0 ? std::optional(FoldedInt::make_huge()) : std::nullopt;
  }
  return checked_mul(lhs.value, int64_t{1} << rhs.value);
}

std::optional<FoldedInt> fold_shift_right(FoldedInt lhs, FoldedInt rhs) {
  if (!rhs.huge && rhs.value < 0) return std::nullopt;
  if (lhs.huge) return std::nullopt;
  if (rhs.huge || rhs.value >= 63) return FoldedInt{lhs.value < 0 ? -1 : 0, false};
  return exact(lhs.value >> rhs.value);  // arithmetic shift in C++20: floors like Python
}

}  // namespace

std::optional<FoldedInt> FoldedInt::of(int64_t value) {
  if (value > kMaxExact) return make_huge();
  if (value < -kMaxExact) return std::nullopt;
  return FoldedInt{value, false};
}

std::optional<FoldedInt> parse_int_literal(std::string_view text) {
  unsigned base = 10;
  if (text.size() > 2 && text[0] == '0') {
    switch (text[1]) {
      case 'x':
      case 'X':
        base = 16;
        break;
      case 'o':
      case 'O':
        base = 8;
        break;
      case 'b':
      case 'B':
        base = 2;
        break;
      default:
        break;
    }
    if (base != 10) text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  bool huge = false;
  bool any_digit = false;
  for (const char c : text) {
    if (c == '_') continue;
    unsigned digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a') + 10U;
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A') + 10U;
    } else {
      return std::nullopt;  // `10j`, `1e3`, `10L`
    }
    if (digit >= base) return std::nullopt;
    any_digit = true;
    if (huge) continue;
    if (__builtin_mul_overflow(value, uint64_t{base}, &value) ||
        __builtin_add_overflow(value, uint64_t{digit}, &value) || value > uint64_t{kMax}) {
      huge = true;
    }
  }
  if (!any_digit) return std::nullopt;
  if (huge) return FoldedInt::make_huge();
  return FoldedInt{static_cast<int64_t>(value), false};
}

std::optional<FoldedInt> fold_binary(std::string_view op, FoldedInt lhs, FoldedInt rhs,
                                     Language language) {
  const bool any_huge = lhs.huge || rhs.huge;
  if (language == Language::Cpp) {
    if (op == "//" || op == "**") return std::nullopt;  // not C++ operators
    if (op == "/" || op == "%") {
      // C++ truncates toward zero; the remainder takes the dividend's sign.
      if (!rhs.huge && rhs.value == 0) return std::nullopt;  // undefined behaviour
      if (lhs.huge) return std::nullopt;
      if (rhs.huge) return op == "/" ? FoldedInt{0, false} : lhs;
      return exact(op == "/" ? lhs.value / rhs.value : lhs.value % rhs.value);
    }
  }
  if (op == "+") {
    if (!any_huge) return checked_add(lhs.value, rhs.value);
    // huge + x stays huge unless x is negative (then it may drop below 2^62).
    if ((lhs.huge && !rhs.huge && rhs.value < 0) || (rhs.huge && !lhs.huge && lhs.value < 0))
      return std::nullopt;
    return FoldedInt::make_huge();
  }
  if (op == "-") {
    if (!any_huge) return checked_add(lhs.value, -rhs.value);
    if (lhs.huge && !rhs.huge && rhs.value <= 0) return FoldedInt::make_huge();
    return std::nullopt;
  }
  if (op == "*") {
    if (!any_huge) return checked_mul(lhs.value, rhs.value);
    const FoldedInt other = lhs.huge ? rhs : lhs;
    if (other.huge) return FoldedInt::make_huge();
    if (other.value == 0) return FoldedInt{0, false};
    return other.value > 0 ? std::optional(FoldedInt::make_huge()) : std::nullopt;
  }
  if (op == "//") {
    if (!rhs.huge && rhs.value == 0) return std::nullopt;  // ZeroDivisionError
    if (lhs.huge) return std::nullopt;
    if (rhs.huge) return FoldedInt{lhs.value < 0 ? -1 : 0, false};
    return exact(floor_div(lhs.value, rhs.value));
  }
  if (op == "%") {
    if (!rhs.huge && rhs.value == 0) return std::nullopt;
    if (lhs.huge) return std::nullopt;
    if (rhs.huge) return lhs.value >= 0 ? std::optional(lhs) : std::nullopt;
    return exact(floor_mod(lhs.value, rhs.value));
  }
  if (op == "**") return fold_pow(lhs, rhs);
  if (op == "<<") return fold_shift_left(lhs, rhs);
  if (op == ">>") return fold_shift_right(lhs, rhs);
  if (op == "&" || op == "|" || op == "^") {
    if (any_huge) return std::nullopt;
    if (op == "&") return exact(lhs.value & rhs.value);
    if (op == "|") return exact(lhs.value | rhs.value);
    return exact(lhs.value ^ rhs.value);
  }
  return std::nullopt;  // `/` is a float, `@` is not an int operation
}

std::optional<FoldedInt> fold_unary(std::string_view op, FoldedInt operand) {
  if (op == "+") return operand;
  if (operand.huge) return std::nullopt;
  if (op == "-") return FoldedInt{-operand.value, false};
  if (op == "~") return exact(-operand.value - 1);
  return std::nullopt;  // `not` is a bool
}

std::optional<FoldedInt> fold_int(const Expr& expr, const NameLookup& lookup, Language language) {
  // Post-order with an explicit stack: an operator is visited once to push its operands, and
  // again (`ready`) to combine their values.
  struct Frame {
    const Expr* expr;
    bool ready;
  };
  std::vector<Frame> stack = {{&expr, false}};
  std::vector<FoldedInt> values;
  while (!stack.empty()) {
    const Frame frame = stack.back();
    stack.pop_back();
    const Expr& e = *frame.expr;
    switch (e.kind) {
      case ExprKind::Const: {
        if (e.const_kind != ConstKind::Int) return std::nullopt;
        const std::optional<FoldedInt> value = parse_int_literal(e.text);
        if (!value) return std::nullopt;
        values.push_back(*value);
        break;
      }
      case ExprKind::Name: {
        if (!lookup) return std::nullopt;
        const std::optional<FoldedInt> value = lookup(e);
        if (!value) return std::nullopt;
        values.push_back(*value);
        break;
      }
      case ExprKind::UnaryOp: {
        if (e.items.size() != 1) return std::nullopt;
        if (!frame.ready) {
          stack.push_back({&e, true});
          stack.push_back({e.items[0], false});
          break;
        }
        const std::optional<FoldedInt> value = fold_unary(e.text, values.back());
        if (!value) return std::nullopt;
        values.back() = *value;
        break;
      }
      case ExprKind::BinOp: {
        if (e.items.size() != 2) return std::nullopt;
        if (!frame.ready) {
          stack.push_back({&e, true});
          stack.push_back({e.items[1], false});
          stack.push_back({e.items[0], false});
          break;
        }
        const FoldedInt rhs = values.back();
        values.pop_back();
        const std::optional<FoldedInt> value = fold_binary(e.text, values.back(), rhs, language);
        if (!value) return std::nullopt;
        values.back() = *value;
        break;
      }
      case ExprKind::Collection:
        // C++ `int64_t{4096}`: a braced initializer of one scalar is that scalar.
        if (language != Language::Cpp || e.collection_kind != CollectionKind::List ||
            e.items.size() != 1)
          return std::nullopt;
        stack.push_back({e.items[0], false});
        break;
      case ExprKind::Attr:
      case ExprKind::Call:
      case ExprKind::BoolOp:
      case ExprKind::Compare:
      case ExprKind::Subscript:
      case ExprKind::Comprehension:
      case ExprKind::Starred:
      case ExprKind::IfExp:
      case ExprKind::Lambda:
      case ExprKind::Await:
      case ExprKind::NamedExpr:
      case ExprKind::Slice:
      case ExprKind::Other:
        return std::nullopt;
    }
  }
  assert(values.size() == 1 && "every operator consumes its operands");
  return values.back();
}

namespace {

// Names a binding target binds: `x`, `a, (b, *c)`; not `self.x` or `d[k]`.
void target_names(const Expr* target, const std::function<void(std::string_view)>& bind) {
  std::vector<const Expr*> stack = {target};
  while (!stack.empty()) {
    const Expr* e = stack.back();
    stack.pop_back();
    if (e == nullptr) continue;
    if (e->kind == ExprKind::Name) {
      bind(e->text);
    } else if (e->kind == ExprKind::Collection || e->kind == ExprKind::Starred) {
      for (const Expr* item : e->items) stack.push_back(item);
    }
  }
}

// Every name bound in `body` (not entering nested defs and classes, whose names it binds), and
// every name a `global`/`nonlocal` there declares.
void scope_bindings(const std::vector<Stmt*>& body,
                    const std::function<void(std::string_view)>& bind,
                    const std::function<void(std::string_view)>& declare_global) {
  for_each_nested(body, [&](const Stmt& stmt) {
    switch (stmt.kind) {
      case StmtKind::Assign:
      case StmtKind::AugAssign:
      case StmtKind::AnnAssign:  // `x: int` alone makes `x` local too
      case StmtKind::Del:
      case StmtKind::Loop:
      case StmtKind::Guard:
        for (const Expr* target : stmt.targets) target_names(target, bind);
        break;
      case StmtKind::Import:
        for (const ImportAlias& alias : stmt.imports) bind(alias.local);
        break;
      case StmtKind::FunctionDef:
        if (stmt.function != nullptr) bind(stmt.function->name);
        break;
      case StmtKind::ClassDef:
        if (stmt.class_def != nullptr) bind(stmt.class_def->name);
        break;
      case StmtKind::Try:
        for (const Handler& handler : stmt.handlers) {
          if (!handler.name.empty()) bind(handler.name);
        }
        break;
      case StmtKind::Global:
        for (const Expr* target : stmt.targets) {
          if (target->kind == ExprKind::Name) declare_global(target->text);
        }
        break;
      case StmtKind::ExprStmt:
      case StmtKind::Return:
      case StmtKind::If:
      case StmtKind::Raise:
      case StmtKind::Other:
        break;
    }
    // Walrus targets bind in the enclosing scope; comprehension variables do not, but counting
    // them only makes the caller more careful.
    for_each_expr(stmt, [&](const Expr& e) {
      if (e.kind == ExprKind::NamedExpr && !e.items.empty()) target_names(e.items[0], bind);
      for (const ComprehensionFor& generator : e.generators) target_names(generator.target, bind);
    });
  });
}

// `NAME = value` (also `A = B = value` and `A, B = 1, 2`) at the top level: each name with the
// expression it is given.
void constant_candidates(const Stmt& stmt,
                         const std::function<void(const Expr& target, const Expr& value)>& add) {
  if (stmt.value == nullptr) return;
  if (stmt.kind != StmtKind::Assign && stmt.kind != StmtKind::AnnAssign) return;
  for (const Expr* target : stmt.targets) {
    if (target->kind == ExprKind::Name) {
      add(*target, *stmt.value);
    } else if (target->kind == ExprKind::Collection && stmt.value->kind == ExprKind::Collection &&
               target->items.size() == stmt.value->items.size() &&
               stmt.value->collection_kind != CollectionKind::Dict &&
               stmt.value->collection_kind != CollectionKind::Set) {
      for (size_t i = 0; i < target->items.size(); ++i) {
        if (target->items[i]->kind == ExprKind::Name) add(*target->items[i], *stmt.value->items[i]);
      }
    }
  }
}

}  // namespace

bool declared_const(const Module& module, const Stmt& stmt, const Expr& target) {
  if (stmt.kind != StmtKind::Assign || stmt.declaration == Declaration::None ||
      target.range.begin < stmt.range.begin)
    return false;
  const std::string_view code = module.file().code();
  if (target.range.begin > code.size()) return false;
  const std::string_view specifiers =
      code.substr(stmt.range.begin, target.range.begin - stmt.range.begin);
  // The identifiers before the declared name: `static constexpr int64_t`, `const int`.
  size_t at = 0;
  while (at < specifiers.size()) {
    const auto word = [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    };
    if (!word(specifiers[at])) {
      ++at;
      continue;
    }
    const size_t start = at;
    while (at < specifiers.size() && word(specifiers[at])) ++at;
    const std::string_view identifier = specifiers.substr(start, at - start);
    if (identifier == "const" || identifier == "constexpr") return true;
  }
  return false;
}

ModuleConstants::ModuleConstants(const Module& module) {
  if (module.functions().empty()) return;
  const Language language = module.language();
  const Function& top = module.top_level();
  std::unordered_map<std::string_view, int> bindings;
  std::unordered_set<std::string_view> globals;
  scope_bindings(
      top.body, [&](std::string_view name) { ++bindings[name]; },
      [&](std::string_view name) { globals.insert(name); });
  for (const Function& function : module.functions()) {
    if (function.is_module) continue;
    scope_bindings(
        function.body, [](std::string_view) {},
        [&](std::string_view name) { globals.insert(name); });
  }
  const NameLookup known = [this](const Expr& name) -> std::optional<FoldedInt> {
    const ModuleConstant* constant = find(name.text);
    return constant ? std::optional(constant->value) : std::nullopt;
  };
  for (const Stmt* stmt : top.body) {
    constant_candidates(*stmt, [&](const Expr& target, const Expr& value) {
      const auto count = bindings.find(target.text);
      if (count == bindings.end() || count->second != 1 || globals.contains(target.text)) return;
      if (language == Language::Cpp && !declared_const(module, *stmt, target)) return;
      const std::optional<FoldedInt> folded = fold_int(value, known, language);
      if (folded) constants_[target.text] = {*folded, stmt, &target};
    });
  }
}

const ModuleConstant* ModuleConstants::find(std::string_view name) const {
  const auto it = constants_.find(name);
  return it == constants_.end() ? nullptr : &it->second;
}

namespace {

// Visits the declarations of `body` with where each is visible (not entering nested functions
// and classes): `int64_t n = ...;` and `auto [a, b] = ...;` to the end of the block that holds
// them, a range-for variable in its loop.
void visit_declarations(
    const std::vector<Stmt*>& body, uint32_t block_end,
    const std::function<void(const Stmt*, const Expr&, SourceRange visible)>& visit) {
  for (const Stmt* stmt : body) {
    if (stmt->kind == StmtKind::Assign && stmt->declaration != Declaration::None) {
      for (const Expr* target : stmt->targets) {
        if (target->kind == ExprKind::Name) {
          visit(stmt, *target, {stmt->range.end, block_end});
        } else if (target->kind == ExprKind::Collection) {  // `auto [a, b] = ...;`
          for (const Expr* item : target->items) {
            if (item->kind == ExprKind::Name) visit(nullptr, *item, {stmt->range.end, block_end});
          }
        }
      }
    }
    if (stmt->kind == StmtKind::FunctionDef || stmt->kind == StmtKind::ClassDef) continue;
    if (stmt->kind == StmtKind::Loop) {
      for (const Expr* target : stmt->targets) {
        if (target->kind == ExprKind::Name) visit(nullptr, *target, stmt->range);
      }
    }
    visit_declarations(stmt->body, stmt->range.end, visit);
    visit_declarations(stmt->orelse, stmt->range.end, visit);
    visit_declarations(stmt->finalbody, stmt->range.end, visit);
    for (const Handler& handler : stmt->handlers)
      visit_declarations(handler.body, handler.range.end, visit);
  }
}

}  // namespace

LocalConstants::LocalConstants(const Module& module, const Function& function,
                               const NameLookup& outer) {
  // Parameters: visible in the whole function, never known.
  for (const Param& param : function.params)
    declarations_[param.name].push_back({std::nullopt, function.range.begin, function.range.end});
  const auto declare = [&](const Stmt* stmt, const Expr& target, SourceRange visible_in) {
    Declaration declaration{std::nullopt, visible_in.begin, visible_in.end};
    if (stmt != nullptr && stmt->value != nullptr && declared_const(module, *stmt, target)) {
      // Its initializer reads what is visible where it is declared.
      const NameLookup lookup = [&](const Expr& name) -> std::optional<FoldedInt> {
        if (const Declaration* local = visible(name.text, stmt->range.begin))
          return local->constant ? std::optional(local->constant->value) : std::nullopt;
        return outer ? outer(name) : std::nullopt;
      };
      if (const std::optional<FoldedInt> value = fold_int(*stmt->value, lookup, Language::Cpp))
        declaration.constant = ModuleConstant{*value, stmt, &target};
    }
    declarations_[target.text].push_back(declaration);
  };
  visit_declarations(function.body, function.range.end, declare);
}

const LocalConstants::Declaration* LocalConstants::visible(std::string_view name,
                                                           uint32_t offset) const {
  const auto it = declarations_.find(name);
  if (it == declarations_.end()) return nullptr;
  const Declaration* innermost = nullptr;
  for (const Declaration& declaration : it->second) {
    if (offset < declaration.visible_from || offset >= declaration.visible_to) continue;
    // Of two declarations visible at once, the later one is in the nested block.
    if (innermost == nullptr || declaration.visible_from > innermost->visible_from)
      innermost = &declaration;
  }
  return innermost;
}

std::unordered_set<std::string_view> locally_bound_names(const Function& function) {
  std::unordered_set<std::string_view> bound;
  std::unordered_set<std::string_view> globals;
  for (const Param& param : function.params) bound.insert(param.name);
  scope_bindings(
      function.body, [&](std::string_view name) { bound.insert(name); },
      [&](std::string_view name) { globals.insert(name); });
  for (std::string_view name : globals) bound.erase(name);
  return bound;
}

std::unordered_set<std::string_view> locally_bound_names(const ClassDef& cls) {
  std::unordered_set<std::string_view> bound;
  scope_bindings(
      cls.body, [&](std::string_view name) { bound.insert(name); }, [](std::string_view) {});
  return bound;
}

}  // namespace sealint::ir
