#pragma once
// The training-loop IR both frontends lower into (DESIGN.md). Small on purpose: rules read this
// and the analyses over it, never a CST or a Clang AST. Nodes live in the Module's arena
// (std::deque keeps addresses stable and frees flat, never through a deep pointer chain).
#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/source_file.h"

namespace sealint::ir {

using SourceRange = ByteRange;

enum class ExprKind {
  Name,           // text = identifier
  Attr,           // text = attribute name; items = {base}
  Call,           // items = {callee, positional args...}; keywords
  BinOp,          // text = operator; items = {lhs, rhs}
  UnaryOp,        // text = operator ("-", "+", "~", "not"); items = {operand}
  BoolOp,         // text = "and" | "or"; items = {lhs, rhs}
  Compare,        // text = the first operator; items = operands (a < b < c: 3); yields booleans
  Subscript,      // items = {base, index...}
  Const,          // text = literal source; const_kind
  Collection,     // collection_kind; items = elements (dict: key, value, key, value ...)
  Comprehension,  // collection_kind; items = {element} (dict: {key, value}); generators
  Starred,        // *x or **x; items = {value}
  IfExp,          // items = {body, condition, orelse}
  Lambda,         // items = {body}
  Await,          // items = {value}
  NamedExpr,      // (name := value): items = {name, value}
  Slice,          // a[1:2]: items = bounds present
  Other,          // anything rules need not see (yield, f-string internals, half-parsed code)
};

enum class ConstKind { Int, Float, Str, Bool, None, Ellipsis };

// What a frontend knows of a value's type (the C++ frontend, from Clang's types): the analyses
// read this, never raw types.
enum class TypeHint : uint8_t {
  Unknown,
  Tensor,           // torch::Tensor
  TensorContainer,  // std::vector<torch::Tensor>, std::deque, ...
  Module,           // a torch::nn::Module, or a ModuleHolder of one
  Optimizer,        // a torch::optim::Optimizer
  Number,           // an arithmetic type
  Guard,            // NoGradGuard, AutoGradMode, InferenceMode
  Loader,           // a data loader: Python's `loader: DataLoader[Batch]`
};
enum class CollectionKind { List, Tuple, Dict, Set, Generator };

struct Expr;

struct Keyword {
  std::string_view name;  // empty for **kwargs
  Expr* value = nullptr;
};

struct ComprehensionFor {
  Expr* target = nullptr;
  Expr* iter = nullptr;
  std::vector<Expr*> conditions;
};

struct Expr {
  ExprKind kind = ExprKind::Other;
  uint32_t id = 0;  // index in Module::exprs, for per-expression analysis facts
  SourceRange range;
  std::string_view text;
  ConstKind const_kind = ConstKind::None;
  CollectionKind collection_kind = CollectionKind::Tuple;
  TypeHint type_hint = TypeHint::Unknown;
  // C++: the operand of `std::move(x)`, which lowers to `x` itself (the value flows on) but
  // leaves `x` moved-from: a tensor that holds nothing afterwards.
  bool moved = false;
  // C++: the value's type depends on a template parameter (`auto loss` from a dependent call in a
  // function template), so a member template is called as `loss.template item<float>()`.
  bool dependent = false;
  std::vector<Expr*> items;
  std::vector<Keyword> keywords;
  std::vector<ComprehensionFor> generators;

  // Accessors that say which item is which.
  Expr* base() const { return items.empty() ? nullptr : items[0]; }          // Attr, Subscript
  Expr* callee() const { return items.empty() ? nullptr : items[0]; }        // Call
  size_t arg_count() const { return items.empty() ? 0 : items.size() - 1; }  // Call
  Expr* arg(size_t i) const { return i + 1 < items.size() ? items[i + 1] : nullptr; }
  Expr* keyword(std::string_view name) const {
    for (const Keyword& k : keywords) {
      if (k.name == name) return k.value;
    }
    return nullptr;
  }
};

enum class StmtKind {
  Assign,     // targets (a = b = v: two), value
  AugAssign,  // targets = {target}, text = operator ("+="), value
  AnnAssign,  // x: T = v  (value may be null)
  ExprStmt,   // value; guard_kind: what `torch.set_grad_enabled(...)` as a statement does
  Del,        // targets
  Return,     // value (may be null)
  Loop,  // loop_kind; for: targets = {target}, value = iter; while: value = condition; body, orelse
  Guard,  // guard_kind; items = context expressions; targets = `as` targets; body
  If,     // value = condition; body; orelse (an elif is a nested If)
  Try,    // body; handlers; orelse; finalbody
  FunctionDef,
  ClassDef,
  Import,  // imports
  Global,  // names in `global`/`nonlocal`: targets
  Raise,   // value (may be null)
  Other,   // pass/break/continue/assert/match/... and statements with syntax errors
};

enum class LoopKind { For, While };

// What a `with` (or decorator, or C++ guard scope) does to autograd inside it.
enum class GuardKind { NoGrad, InferenceMode, EnableGrad, SetGradEnabledFalse, Other };

// True for the kinds under which no autograd graph is recorded.
[[nodiscard]] constexpr bool disables_grad(GuardKind kind) {
  switch (kind) {
    case GuardKind::NoGrad:
    case GuardKind::InferenceMode:
    case GuardKind::SetGradEnabledFalse:
      return true;
    case GuardKind::EnableGrad:
    case GuardKind::Other:
      return false;
  }
  return false;
}

struct Stmt;
struct Function;
struct ClassDef;

// The literal `None`.
[[nodiscard]] inline bool is_none_literal(const Expr* expr) {
  return expr != nullptr && expr->kind == ExprKind::Const && expr->const_kind == ConstKind::None;
}

struct Handler {
  SourceRange range;
  SourceRange header;        // `except RuntimeError as e`: up to the last type or the `as` name
  std::vector<Expr*> types;  // empty for a bare `except:`
  std::string_view name;     // `as e`, empty when absent
  std::vector<Stmt*> body;
};

struct ImportAlias {
  std::string_view local;  // the name bound in the file (first component for `import a.b`)
  std::string dotted;      // the full module or member path it stands for
};

// How a C++ declaration initialises what it declares; Python has no declarations.
enum class Declaration : uint8_t {
  None,    // not a declaration: an assignment, or Python
  Copy,    // `auto head = torch::nn::Linear(512, 10);`, `int n;`
  Direct,  // `torch::nn::Linear head(512, 10);`, `Net net{cfg};`: constructed in place
};

struct Stmt {
  StmtKind kind = StmtKind::Other;
  SourceRange range;
  std::string_view text;
  Declaration declaration = Declaration::None;
  std::vector<Expr*> targets;
  Expr* value = nullptr;
  LoopKind loop_kind = LoopKind::For;
  GuardKind guard_kind = GuardKind::Other;
  bool is_async = false;
  std::vector<Expr*> items;
  std::vector<Stmt*> body;
  std::vector<Stmt*> orelse;
  std::vector<Stmt*> finalbody;
  std::vector<Handler> handlers;
  std::vector<ImportAlias> imports;
  Function* function = nullptr;   // FunctionDef
  ClassDef* class_def = nullptr;  // ClassDef
};

struct Param {
  std::string_view name;
  SourceRange range;
  Expr* default_value = nullptr;
  TypeHint type_hint = TypeHint::Unknown;
  // A Python annotation that names a class (`model: ECD`, `encoder: models.Classifier`), as a
  // name or dotted chain; null for anything else (`Optional[X]`, strings, C++).
  Expr* annotation = nullptr;
};

// The IR's name of a method's receiver, whatever the source calls it (Python's first parameter,
// C++'s `this`): every Name that refers to it has this text, and so does the parameter.
inline constexpr std::string_view kReceiver = "self";

struct Function {
  std::string_view name;  // "<module>" for the top level
  SourceRange range;      // the whole definition
  SourceRange name_range;
  std::vector<Param> params;
  std::vector<Expr*> decorators;
  ClassDef* parent_class = nullptr;
  Function* parent_function = nullptr;
  std::vector<Stmt*> body;
  bool is_async = false;
  bool is_module = false;

  [[nodiscard]] bool has_param(std::string_view param_name) const {
    return std::any_of(params.begin(), params.end(),
                       [&](const Param& p) { return p.name == param_name; });
  }
};

struct ClassDef {
  std::string_view name;
  SourceRange range;
  std::vector<Expr*> bases;
  std::vector<Expr*> decorators;
  std::vector<Function*> methods;
  std::vector<Stmt*> body;
  Function* parent_function = nullptr;
};

enum class Language { Python, Cpp };

// One lowered file. Owns its SourceFile (the IR's string_views point into it) and the arena.
class Module {
 public:
  explicit Module(std::shared_ptr<const SourceFile> file, Language language)
      : file_(std::move(file)), language_(language) {}
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  const SourceFile& file() const { return *file_; }
  Language language() const { return language_; }

  Expr* new_expr(ExprKind kind, SourceRange range) {
    Expr& expr = exprs_.emplace_back();
    expr.kind = kind;
    expr.range = range;
    expr.id = static_cast<uint32_t>(exprs_.size() - 1);
    return &expr;
  }
  Stmt* new_stmt(StmtKind kind, SourceRange range) {
    Stmt& stmt = stmts_.emplace_back();
    stmt.kind = kind;
    stmt.range = range;
    return &stmt;
  }
  Function* new_function() { return &functions_.emplace_back(); }
  // A string the IR can point at that is not in the source (a C++ callee's resolved name).
  std::string_view intern(std::string text) { return strings_.emplace_back(std::move(text)); }
  ClassDef* new_class() { return &classes_.emplace_back(); }

  size_t expr_count() const { return exprs_.size(); }
  // Every expression of the file, in creation order (nested ones too).
  const std::deque<Expr>& exprs() const { return exprs_; }
  // Every function, the module's top level first, in source order.
  const std::deque<Function>& functions() const { return functions_; }
  const std::deque<ClassDef>& classes() const { return classes_; }
  Function& top_level() { return functions_.front(); }
  const Function& top_level() const { return functions_.front(); }

  // Every comment's range, in source order (suppressions read them).
  std::vector<SourceRange> comments;

  // Import aliases of the whole file, in source order: `nn` -> torch.nn, `F` ->
  // torch.nn.functional.
  std::vector<ImportAlias> imports;
  bool imports_torch = false;

  // The dotted path a name stands for through the file's imports ("nn" -> "torch.nn"), or the
  // name itself when no import binds it.
  [[nodiscard]] std::string resolve_import(std::string_view local) const;
  [[nodiscard]] bool is_import_alias(std::string_view local) const {
    return import_index_.contains(local);
  }
  // Whether an import of the file names `package` or a module of it (`import tensorflow.compat`
  // and `from tensorflow import keras` name "tensorflow").
  [[nodiscard]] bool imports_package(std::string_view package) const;
  // Builds the lookups behind the three above; the frontend calls it once `imports` is complete.
  // (A file may hold thousands of imports: a scan per lookup was quadratic.)
  void index_imports();

  // Some statement of some function's body (the top level's included, class bodies not) calls a
  // method on the plain name `name` (`items.append(x)`). The receivers are indexed on the first
  // question, once the module is complete: a walk of the module per question was quadratic.
  [[nodiscard]] bool has_method_called_on(std::string_view name) const;

 private:
  std::shared_ptr<const SourceFile> file_;
  Language language_;
  std::deque<Expr> exprs_;
  std::deque<Stmt> stmts_;
  std::deque<Function> functions_;
  std::deque<ClassDef> classes_;
  std::deque<std::string> strings_;
  std::unordered_map<std::string_view, size_t> import_index_;  // local name -> its last binding
  std::unordered_set<std::string> imported_packages_;          // the first component of each import
  size_t indexed_imports_ = 0;  // how many imports the two indexes cover
  mutable std::once_flag receivers_indexed_;
  mutable std::unordered_set<std::string_view> method_receivers_;  // has_method_called_on
};

// A frontend's output for one file: the IR, and the input problems met on the way (the first
// syntax error, nesting past the bound); the rest of the file is still lowered.
struct LoweredFile {
  std::unique_ptr<Module> module;
  std::vector<InputError> problems;
};

// `a.b.c` as a dotted string when the expression is a chain of names, else empty.
[[nodiscard]] std::string dotted_name(const Expr* expr);

// `model.fc.weight` -> "model"; nullptr when the chain does not start at a name.
[[nodiscard]] const Expr* root_name(const Expr* expr);

// A loop's header, `for x, y in loader` (to the end of what it iterates or tests), where a
// related location points at "the loop that repeats it".
[[nodiscard]] SourceRange loop_header(const Stmt& loop);

}  // namespace sealint::ir

namespace sealint::ir {
// `nn.Linear` -> "torch.nn.Linear" through the file's imports; empty when not a dotted chain.
[[nodiscard]] std::string qualified_name(const Module& module, const Expr* expr);
}  // namespace sealint::ir
