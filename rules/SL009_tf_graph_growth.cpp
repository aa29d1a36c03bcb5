// Flags TensorFlow graph ops, Keras models, `predict` calls and `tf.function`s made again on every
// iteration of a loop. docs: docs/rules/SL009.md
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/containers.h"
#include "rules/rule.h"
#include "rules/support/growth.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL009",
    .name = "tf-graph-growth",
    .severity = Severity::Error,
    .python = true,
    .cpp = false,
    .summary =
        "Flags TensorFlow graph ops, Keras models, `predict` calls and `tf.function`s created "
        "again on every iteration of a loop, so the graph or Keras's global state keeps growing.",
    .fix = FixAvailability::None,
    .fix_safety = FixSafety::Safe,
    .framework = Framework::TensorFlow,
    .precision = Precision::Low,  // 0 of 10 on the earlier survey (issue 13)
    .brief = "TensorFlow ops, Keras models, `predict` or `tf.function` created on every iteration",
};

using ir::Expr;
using ir::ExprKind;
using ir::Function;
using ir::Stmt;
using ir::StmtKind;

// How deep a name is followed back to the value it was bound to, and how deep calls of the
// file's own functions are followed.
constexpr int kMaxValueDepth = 3;
constexpr int kMaxCallDepth = 3;

// ---- Which API a call reaches ---------------------------------------------------------------

enum class Api { None, Tf, Keras };

// `tf.nn.relu` -> {Tf, "nn.relu"}; `tf.compat.v1.placeholder` -> {Tf, "placeholder"};
// `tf.keras.models.Sequential`, `keras.Sequential`, `K.clear_session` -> {Keras, "keras...."}.
// Only through the file's imports: a local variable named `tf` is not TensorFlow.
struct ApiRef {
  Api api = Api::None;
  std::string path;
};

ApiRef api_of(const ir::Module& module, const Expr* expr) {
  const std::string dotted = ir::dotted_name(expr);
  if (dotted.empty()) return {};
  if (!module.is_import_alias(std::string_view(dotted).substr(0, dotted.find('.')))) return {};
  const std::string qualified = ir::qualified_name(module, expr);
  std::string_view rest = qualified;
  auto strip = [&](std::string_view prefix) {
    if (!rest.starts_with(prefix)) return false;
    rest.remove_prefix(prefix.size());
    return true;
  };
  if (strip("tensorflow.")) {
    if (!strip("compat.v1.")) strip("compat.v2.");
    strip("python.");
    if (rest.starts_with("keras.")) return {Api::Keras, std::string(rest)};
    return {Api::Tf, std::string(rest)};
  }
  if (rest.starts_with("keras.")) return {Api::Keras, std::string(rest)};
  if (strip("tf_keras.")) return {Api::Keras, "keras." + std::string(rest)};
  return {};
}

ApiRef callee_api(const ir::Module& module, const Expr& call) {
  if (call.kind != ExprKind::Call) return {};
  return api_of(module, call.callee());
}

bool imports_tensorflow(const ir::Module& module) {
  return std::any_of(module.imports.begin(), module.imports.end(), [](const ir::ImportAlias& a) {
    const std::string_view d = a.dotted;
    return d == "tensorflow" || d.starts_with("tensorflow.") || d == "keras" ||
           d.starts_with("keras.") || d == "tf_keras" || d.starts_with("tf_keras.");
  });
}

std::string_view last_component(std::string_view path) {
  const size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

// ---- Which `tf.` calls add nodes to the graph -------------------------------------------------

// `tf.` calls that add no node to the default graph: sessions and graphs themselves, config and
// protocol-buffer messages, files and logging, queries of the graph's collections, optimizer and
// estimator objects (they add ops only when asked to: `.minimize()` is checked on its own).
// An entry ending in '.' is a module prefix. Every other `tf.` call counts as a graph builder.
constexpr std::string_view kNoGraphNodes[] = {
    // Sessions, graphs, coordination.
    "Session", "InteractiveSession", "get_default_session", "get_default_graph",
    "reset_default_graph", "Graph", "GraphDef", "train.MonitoredTrainingSession",
    "train.MonitoredSession", "train.SingularMonitoredSession", "train.Coordinator",
    "train.start_queue_runners", "train.Server", "train.ClusterSpec", "train.Scaffold",
    // Configuration and global settings.
    "ConfigProto", "GPUOptions", "GraphOptions", "OptimizerOptions", "RunOptions", "RunMetadata",
    "config.", "set_random_seed", "random.set_seed", "enable_eager_execution",
    "disable_eager_execution", "disable_v2_behavior", "enable_v2_behavior", "executing_eagerly",
    "disable_resource_variables", "enable_resource_variables", "debugging.set_log_device_placement",
    "autograph.set_verbosity",
    // Files, logging, flags and pure-Python helpers.
    "io.gfile.", "gfile.", "logging.", "get_logger", "app.", "flags.", "python_io.",
    "io.TFRecordWriter", "io.TFRecordOptions", "io.tf_record_iterator", "compat.as_bytes",
    "compat.as_str", "compat.as_text", "compat.as_str_any", "compat.path_to_str", "nest.", "test.",
    "sysconfig.", "version.", "profiler.", "errors.", "as_dtype", "dtypes.", "DType", "TensorShape",
    "Dimension", "TensorSpec", "make_tensor_proto", "make_ndarray",
    // Protocol buffers and summary writers: `tf.Summary(value=[...])` is a message, not an op.
    "Summary", "Summary.", "HistogramProto", "Event", "train.Example", "train.SequenceExample",
    "train.Features", "train.Feature", "train.FeatureList", "train.FeatureLists", "train.BytesList",
    "train.FloatList", "train.Int64List", "summary.FileWriter", "summary.FileWriterCache",
    "train.SummaryWriter", "summary.summary_iterator", "train.summary_iterator",
    // Checkpoint files and queries of the graph.
    "train.latest_checkpoint", "train.get_checkpoint_state", "train.checkpoint_exists",
    "train.list_variables", "train.load_variable", "train.load_checkpoint",
    "train.NewCheckpointReader", "train.write_graph", "train.global_step", "train.get_global_step",
    "train.get_or_create_global_step", "global_variables", "all_variables", "trainable_variables",
    "local_variables", "model_variables", "moving_average_variables", "get_collection",
    "get_collection_ref", "add_to_collection", "add_to_collections", "get_variable_scope",
    "train.ExponentialMovingAverage",
    // Estimators build and own their graphs; feature columns are specs.
    "estimator.", "feature_column."};

// Context managers that scope the ops built inside them and add none themselves.
constexpr std::string_view kScopes[] = {
    "variable_scope", "name_scope", "device",   "control_dependencies",
    "colocate_with",  "arg_scope",  "container"};

bool adds_graph_nodes(std::string_view path) {
  if (path.empty()) return false;
  for (std::string_view entry : kNoGraphNodes) {
    if (entry.ends_with('.') ? path.starts_with(entry) : path == entry) return false;
  }
  const std::string_view last = last_component(path);
  if (std::find(std::begin(kScopes), std::end(kScopes), last) != std::end(kScopes)) return false;
  // `tf.train.AdamOptimizer(lr)` is an object; its `.minimize()` adds the ops.
  if (last.ends_with("Optimizer")) return false;
  return true;
}

// Builders whose result is a list or tuple of tensors, not one tensor (`parts + other` is a
// list concatenation, not an op).
constexpr std::string_view kReturnsSeveral[] = {
    "split",     "unstack", "unpack", "gradients", "meshgrid",    "dynamic_partition",
    "tuple",     "moments", "top_k",  "unique",    "dynamic_rnn", "bidirectional_dynamic_rnn",
    "static_rnn"};

// A builder whose result is one graph tensor: arithmetic on it adds ops.
bool returns_graph_tensor(std::string_view path) {
  if (!adds_graph_nodes(path)) return false;
  const std::string_view last = last_component(path);
  if (last == "Variable" || last == "get_variable") return true;
  if (last.empty() || last.front() < 'a' || last.front() > 'z') return false;
  return std::find(std::begin(kReturnsSeveral), std::end(kReturnsSeveral), last) ==
         std::end(kReturnsSeveral);
}

// `tf.Session()`, `tf.compat.v1.InteractiveSession()`, `K.get_session()`.
bool is_session_call(const ir::Module& module, const Expr& expr) {
  const ApiRef ref = callee_api(module, expr);
  if (ref.api == Api::Tf) {
    return ref.path == "Session" || ref.path == "InteractiveSession" ||
           ref.path == "get_default_session" || ref.path == "train.MonitoredTrainingSession" ||
           ref.path == "train.MonitoredSession" || ref.path == "train.SingularMonitoredSession";
  }
  return ref.api == Api::Keras && last_component(ref.path) == "get_session";
}

// `tf.reset_default_graph()`, `tf.Graph()` (ops built under it go to a new graph),
// `keras.backend.clear_session()`.
bool resets_graph_call(const ir::Module& module, const Expr& expr) {
  const ApiRef ref = callee_api(module, expr);
  if (ref.api == Api::Tf) return ref.path == "reset_default_graph" || ref.path == "Graph";
  return ref.api == Api::Keras && last_component(ref.path) == "clear_session";
}

bool is_clear_session_call(const ir::Module& module, const Expr& expr) {
  const ApiRef ref = callee_api(module, expr);
  if (ref.api == Api::Tf) return ref.path == "reset_default_graph";
  return ref.api == Api::Keras && last_component(ref.path) == "clear_session";
}

// `keras.Sequential(...)`, `tf.keras.Model(inputs, outputs)`, `keras.models.clone_model(m)`,
// `load_model(path)`, `keras.applications.ResNet50(...)`.
bool is_keras_model_call(const ir::Module& module, const Expr& expr) {
  const ApiRef ref = callee_api(module, expr);
  if (ref.api != Api::Keras) return false;
  const std::string_view last = last_component(ref.path);
  static constexpr std::string_view kMakers[] = {
      "Sequential", "Model",           "Functional",      "clone_model",
      "load_model", "model_from_json", "model_from_yaml", "model_from_config"};
  if (std::find(std::begin(kMakers), std::end(kMakers), last) != std::end(kMakers)) return true;
  return ref.path.starts_with("keras.applications.") && !last.empty() && last.front() >= 'A' &&
         last.front() <= 'Z';
}

// A class of the file that subclasses `keras.Model` (or `Sequential`).
bool is_keras_model_class(const ir::Module& module, const ir::ClassDef& cls) {
  return std::any_of(cls.bases.begin(), cls.bases.end(), [&](const Expr* base) {
    const ApiRef ref = api_of(module, base);
    const std::string_view last = last_component(ref.path);
    return ref.api == Api::Keras && (last == "Model" || last == "Sequential");
  });
}

// `@tf.function` or `@tf.function(jit_compile=True)`.
bool is_tf_function(const ir::Module& module, const Expr* expr) {
  if (expr == nullptr) return false;
  if (expr->kind == ExprKind::Call) expr = expr->callee();
  const ApiRef ref = api_of(module, expr);
  return ref.api == Api::Tf && ref.path == "function";
}

// ---- Small IR helpers -----------------------------------------------------------------------

// Visits an expression and its subexpressions, not entering lambdas (their body runs later).
template <typename Visit>
void visit_exprs(const Expr& root, Visit&& visit) {
  std::vector<const Expr*> stack = {&root};
  while (!stack.empty()) {
    const Expr* e = stack.back();
    stack.pop_back();
    if (e->kind == ExprKind::Lambda) continue;
    visit(*e);
    for (const Expr* item : e->items) stack.push_back(item);
    for (const ir::Keyword& k : e->keywords) stack.push_back(k.value);
    for (const ir::ComprehensionFor& gen : e->generators) {
      stack.push_back(gen.iter);
      for (const Expr* cond : gen.conditions) stack.push_back(cond);
    }
  }
}

template <typename Visit>
void visit_stmt_exprs(const Stmt& stmt, Visit&& visit) {
  for (const Expr* e : stmt.targets) visit_exprs(*e, visit);
  if (stmt.value != nullptr) visit_exprs(*stmt.value, visit);
  for (const Expr* e : stmt.items) visit_exprs(*e, visit);
}

bool target_binds(const Expr* target, std::string_view key) {
  if (target == nullptr) return false;
  if (target->kind == ExprKind::Collection || target->kind == ExprKind::Starred) {
    return std::any_of(target->items.begin(), target->items.end(),
                       [&](const Expr* item) { return target_binds(item, key); });
  }
  return ir::place_key(target) == key;
}

void target_keys(const Expr* target, std::vector<std::string>& out) {
  if (target == nullptr) return;
  if (target->kind == ExprKind::Collection || target->kind == ExprKind::Starred) {
    for (const Expr* item : target->items) target_keys(item, out);
    return;
  }
  std::string key = ir::place_key(target);
  if (!key.empty()) out.push_back(std::move(key));
}

// The places the statement itself (not its nested statements) binds.
void bound_keys(const Stmt& stmt, std::vector<std::string>& out) {
  switch (stmt.kind) {
    case StmtKind::Assign:
    case StmtKind::AugAssign:
    case StmtKind::AnnAssign:
    case StmtKind::Loop:
    case StmtKind::Guard:
    case StmtKind::Del:
      for (const Expr* target : stmt.targets) target_keys(target, out);
      break;
    case StmtKind::Import:
      for (const ir::ImportAlias& alias : stmt.imports) out.emplace_back(alias.local);
      break;
    case StmtKind::FunctionDef:
      if (stmt.function != nullptr) out.emplace_back(stmt.function->name);
      break;
    case StmtKind::ClassDef:
      if (stmt.class_def != nullptr) out.emplace_back(stmt.class_def->name);
      break;
    case StmtKind::Try:
      for (const ir::Handler& handler : stmt.handlers) {
        if (!handler.name.empty()) out.emplace_back(handler.name);
      }
      break;
    case StmtKind::ExprStmt:
    case StmtKind::Return:
    case StmtKind::If:
    case StmtKind::Global:
    case StmtKind::Raise:
    case StmtKind::Other:
      break;
  }
  visit_stmt_exprs(stmt, [&](const Expr& e) {
    if (e.kind == ExprKind::NamedExpr && !e.items.empty()) target_keys(e.items[0], out);
  });
}

// Does the statement itself (not its nested statements) bind `key`?
bool stmt_binds(const Stmt& stmt, std::string_view key) {
  std::vector<std::string> keys;
  bound_keys(stmt, keys);
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// The value `stmt` assigns to `key`, when it is a plain assignment of one value to it.
const Expr* assigned_value(const Stmt& stmt, std::string_view key) {
  if (stmt.kind != StmtKind::Assign && stmt.kind != StmtKind::AnnAssign) return nullptr;
  for (const Expr* target : stmt.targets) {
    if (ir::place_key(target) == key) return stmt.value;
  }
  return nullptr;
}

bool is_param(const Function& function, std::string_view name) {
  return std::any_of(function.params.begin(), function.params.end(),
                     [&](const ir::Param& p) { return p.name == name; });
}

ByteRange with_header(const Stmt& stmt) {
  uint32_t end = stmt.range.begin;
  for (const Expr* e : stmt.items) end = std::max(end, e->range.end);
  for (const Expr* e : stmt.targets) end = std::max(end, e->range.end);
  return {stmt.range.begin, end};
}

ByteRange binding_range(const Stmt& stmt) {
  return stmt.kind == StmtKind::Guard ? with_header(stmt) : stmt.range;
}

bool arithmetic_operator(std::string_view op) {
  static constexpr std::string_view kOps[] = {"+", "-", "*", "/", "//", "%", "**",
                                              "@", "&", "|", "^", "<<", ">>"};
  return std::find(std::begin(kOps), std::end(kOps), op) != std::end(kOps);
}

bool is_str_const(const Expr* e) {
  return e != nullptr && e->kind == ExprKind::Const && e->const_kind == ir::ConstKind::Str;
}

// Where a statement sits: the loops and the ifs around it.
using Where = ir::StmtContext;

// Statements of `body` that run whenever the body runs: not under an `if` or an `except`.
template <typename Visit>
void for_each_unconditional(const std::vector<Stmt*>& body, Visit& visit) {
  for (const Stmt* stmt : body) {
    visit(*stmt);
    switch (stmt->kind) {
      case StmtKind::Loop:
        for_each_unconditional(stmt->body, visit);
        break;
      case StmtKind::Guard:
        for_each_unconditional(stmt->body, visit);
        break;
      case StmtKind::Try:
        for_each_unconditional(stmt->body, visit);
        for_each_unconditional(stmt->finalbody, visit);
        break;
      case StmtKind::If:
      case StmtKind::Other:
      case StmtKind::Assign:
      case StmtKind::AugAssign:
      case StmtKind::AnnAssign:
      case StmtKind::ExprStmt:
      case StmtKind::Del:
      case StmtKind::Return:
      case StmtKind::FunctionDef:
      case StmtKind::ClassDef:
      case StmtKind::Import:
      case StmtKind::Global:
      case StmtKind::Raise:
        break;
    }
  }
}

// `for x in [a, b, c]:` iterates a literal: a fixed handful of times.
bool over_literal(const Stmt& loop) {
  return loop.loop_kind == ir::LoopKind::For && loop.value != nullptr &&
         loop.value->kind == ExprKind::Collection;
}

bool is_none(const Expr* e) {
  return e != nullptr && e->kind == ExprKind::Const && e->const_kind == ir::ConstKind::None;
}

// The `if` runs its body once rather than every iteration of `loop`: a lazy initialisation
// (`if op is None: op = ...`, `if not hasattr(self, "op"):`) or the first iteration only
// (`if step == 0:` on the loop's own counter).
bool runs_once(const Stmt& branch, const Stmt& loop) {
  const Expr* cond = branch.value;
  if (cond == nullptr) return false;
  auto body_binds = [&](const Expr* place) {
    const std::string key = ir::place_key(place);
    if (key.empty()) return false;
    bool bound = false;
    ir::for_each_nested(branch.body, [&](const Stmt& s) { bound = bound || stmt_binds(s, key); });
    return bound;
  };
  if (cond->kind == ExprKind::Compare && cond->items.size() == 2) {
    const Expr* a = cond->items[0];
    const Expr* b = cond->items[1];
    if (cond->text == "is" && (is_none(a) || is_none(b))) return body_binds(is_none(a) ? b : a);
    if (cond->text == "==") {
      const Expr* counter = a->kind == ExprKind::Const ? b : a;
      const Expr* other = counter == a ? b : a;
      return other->kind == ExprKind::Const && counter->kind == ExprKind::Name &&
             std::any_of(loop.targets.begin(), loop.targets.end(),
                         [&](const Expr* t) { return target_binds(t, counter->text); });
    }
  }
  if (cond->kind == ExprKind::UnaryOp && cond->text == "not" && !cond->items.empty()) {
    const Expr* operand = cond->items[0];
    if (operand->kind == ExprKind::Call && operand->callee()->kind == ExprKind::Name &&
        operand->callee()->text == "hasattr")
      return true;
    return body_binds(operand);
  }
  return false;
}

// Is the statement at `where` under an `if`, inside `loop`, that runs once rather than every
// iteration?
bool under_once_branch(const Where& where, const Stmt& loop) {
  const auto at = std::find(where.loops.begin(), where.loops.end(), &loop);
  if (at == where.loops.end()) return false;
  const size_t depth = static_cast<size_t>(at - where.loops.begin()) + 1;
  return std::any_of(where.branches.begin(), where.branches.end(), [&](const ir::Branch& branch) {
    return !branch.handler && branch.loop_depth >= depth && runs_once(*branch.stmt, loop);
  });
}

// Is `stmt` under an `if`, inside `loop`, that holds only every n-th iteration
// (`if epoch % 200 == 0:`)?
bool periodic(const Where& where, const Stmt& loop) {
  const auto at = std::find(where.loops.begin(), where.loops.end(), &loop);
  if (at == where.loops.end()) return false;
  const size_t depth = static_cast<size_t>(at - where.loops.begin()) + 1;
  return std::any_of(where.branches.begin(), where.branches.end(), [&](const ir::Branch& branch) {
    if (branch.handler || branch.loop_depth < depth || branch.stmt->value == nullptr) return false;
    bool modulo = false;
    visit_exprs(*branch.stmt->value, [&](const Expr& e) {
      modulo = modulo || (e.kind == ExprKind::BinOp && e.text == "%");
    });
    return modulo;
  });
}

// Decorated with something other than `@staticmethod`/`@classmethod` (`@lru_cache`,
// `@memoize`): the call may not run the body every time.
bool wrapped(const Function& function) {
  return std::any_of(function.decorators.begin(), function.decorators.end(), [](const Expr* d) {
    const std::string name = ir::dotted_name(d);
    return name != "staticmethod" && name != "classmethod";
  });
}

// ---- Findings -------------------------------------------------------------------------------

// What makes the graph grow in one statement of a session loop.
// Assign: `var.assign(value)` on a TF variable, the method form of `tf.assign`.
enum class GrowthKind { Op, Operator, Minimize, GetNext, Helper, Assign };

struct Growth {
  GrowthKind kind = GrowthKind::Op;
  const Expr* primary = nullptr;
  std::string operand;                 // Operator: the graph tensor
  const Function* helper = nullptr;    // Helper: the file's function that builds ops
  const Expr* helper_op = nullptr;     // Helper: the op it builds
  const Function* function = nullptr;  // where the statement is
  const Stmt* stmt = nullptr;
  size_t more = 0;  // further statements of the same loop that grow it
};

// What runs a session in a loop: the first `sess.run(...)` (or `.eval(feed_dict=...)`, or a
// call that is handed the session).
Growth make_growth(GrowthKind kind, const Expr* primary, std::string operand = {}) {
  Growth growth;
  growth.kind = kind;
  growth.primary = primary;
  growth.operand = std::move(operand);
  return growth;
}

struct SessionUse {
  const Expr* call = nullptr;
  const Expr* session = nullptr;  // null for `x.eval(feed_dict=...)`
  const Stmt* stmt = nullptr;     // the statement holding the call
};

class Checker {
 public:
  Checker(const ir::Module& module, const ir::FileAnalysis& analysis, DiagnosticSink& sink)
      : module_(module), analysis_(analysis), sink_(sink) {
    collect_compiled_models();
    collect_session_keys();
  }

  void run() {
    for (const Function& function : module_.functions()) {
      ir::walk_statements(function, false, [&](const Stmt& stmt, const Where& at) {
        // Only a loop repeats the construction.
        if (at.loops.empty()) return;
        check_graph_growth(function, stmt, at);
        check_predict(function, stmt, at);
        check_model_build(function, stmt, at);
        check_tf_function(stmt, at);
      });
    }
    report_graph_growth();
  }

 private:
  // ---- Bindings -------------------------------------------------------------------------------

  // How many statements of the loop (its targets included) bind each place.
  const std::unordered_map<std::string, int>& loop_bindings(const Stmt& loop) {
    if (auto it = loop_bindings_.find(&loop); it != loop_bindings_.end()) return it->second;
    std::unordered_map<std::string, int> counts;
    std::vector<std::string> keys;
    for (const Expr* target : loop.targets) target_keys(target, keys);
    ir::for_each_nested(loop.body, [&](const Stmt& s) { bound_keys(s, keys); });
    for (const std::string& key : keys) ++counts[key];
    return loop_bindings_.emplace(&loop, std::move(counts)).first->second;
  }

  // Is `key` bound by the loop's targets or anywhere in its body (`ignore`, a statement of the
  // body, aside)?
  bool bound_in_loop(const Stmt& loop, const std::string& key, const Stmt* ignore = nullptr) {
    const auto& counts = loop_bindings(loop);
    const auto it = counts.find(key);
    if (it == counts.end()) return false;
    return it->second > (ignore != nullptr && stmt_binds(*ignore, key) ? 1 : 0);
  }

  bool reads_name_bound_in_loop(const Expr& expr, const Stmt& loop) {
    bool found = false;
    visit_exprs(expr, [&](const Expr& e) {
      if (!found && e.kind == ExprKind::Name && bound_in_loop(loop, std::string(e.text)))
        found = true;
    });
    return found;
  }

  bool binds_anywhere(const Function& function, std::string_view key) {
    auto it = function_bindings_.find(&function);
    if (it == function_bindings_.end()) {
      std::vector<std::string> keys;
      ir::for_each_nested(function.body, [&](const Stmt& s) { bound_keys(s, keys); });
      it = function_bindings_
               .emplace(&function, std::unordered_set<std::string>(keys.begin(), keys.end()))
               .first;
    }
    return it->second.contains(std::string(key));
  }

  // ---- Sessions -------------------------------------------------------------------------------

  enum class Tri { Unknown, No, Yes };

  // What the bindings of `key` say about it being a TF session: Yes when one is `tf.Session()`
  // or a `with tf.Session() as key`, No when every one is a call into another library
  // (`ort.InferenceSession(...)`, `requests.Session()`), Unknown otherwise.
  Tri session_binding(const Function& function, const std::string& key) {
    const auto cache_key = std::make_pair(&function, key);
    if (auto it = session_bindings_.find(cache_key); it != session_bindings_.end())
      return it->second;
    bool yes = false;
    bool foreign = false;
    bool other = false;
    auto look = [&](const Stmt& stmt) {
      if (!stmt_binds(stmt, key)) return;
      if (stmt.kind == StmtKind::Guard) {
        if (std::any_of(stmt.items.begin(), stmt.items.end(), [&](const Expr* item) {
              return item->kind == ExprKind::Call && is_session_call(module_, *item);
            })) {
          yes = true;
        } else {
          other = true;
        }
        return;
      }
      const Expr* value = assigned_value(stmt, key);
      if (value != nullptr && value->kind == ExprKind::Call) {
        if (is_session_call(module_, *value)) {
          yes = true;
          return;
        }
        const std::string dotted = ir::dotted_name(value->callee());
        if (!dotted.empty() &&
            module_.is_import_alias(std::string_view(dotted).substr(0, dotted.find('.'))) &&
            callee_api(module_, *value).api == Api::None) {
          foreign = true;
          return;
        }
      }
      other = true;
    };
    for (const Function* scope : binding_scopes(function, key))
      ir::for_each_nested(scope->body, look);
    const Tri result = yes ? Tri::Yes : (foreign && !other ? Tri::No : Tri::Unknown);
    session_bindings_.emplace(cache_key, result);
    return result;
  }

  // Where `key` may be bound: the function; the module for a name the function does not bind;
  // every method of the class for `self.x`.
  std::vector<const Function*> binding_scopes(const Function& function, std::string_view key) {
    std::vector<const Function*> scopes;
    if (key.starts_with("self.")) {
      const ir::ClassDef* cls = function.parent_class;
      if (cls != nullptr) scopes.assign(cls->methods.begin(), cls->methods.end());
      return scopes;
    }
    scopes.push_back(&function);
    if (!function.is_module && !is_param(function, key) && !binds_anywhere(function, key))
      scopes.push_back(&module_.top_level());
    return scopes;
  }

  static bool session_like_name(std::string_view key) {
    const std::string_view last = last_component(key);
    return last == "sess" || last == "session" || last.ends_with("_sess") ||
           last.ends_with("_session");
  }

  bool is_session_expr(const Function& function, const Expr& expr) {
    if (expr.kind == ExprKind::Call) return is_session_call(module_, expr);
    if (expr.kind != ExprKind::Name && expr.kind != ExprKind::Attr) return false;
    const std::string key = ir::place_key(&expr);
    if (key.empty()) return false;
    // Another name is a session only when the file binds it to one (`s = tf.Session()`).
    if (!session_like_name(key)) return session_keys_.contains(key);
    return session_binding(function, key) != Tri::No;
  }

  // `sess.run(...)`, `x.eval(session=sess)`, `x.eval(feed_dict=...)`, `op.run(session=sess)`,
  // or a call handed the session (`train_epoch(sess, ...)`, `saver.save(sess, path)`).
  std::optional<SessionUse> session_use(const Function& function, const Expr& call) {
    if (call.kind != ExprKind::Call) return std::nullopt;
    const Expr* callee = call.callee();
    if (callee->kind == ExprKind::Attr) {
      if (callee->text == "run" && is_session_expr(function, *callee->base()))
        return SessionUse{&call, callee->base()};
      if (callee->text == "run" || callee->text == "eval") {
        if (const Expr* session = call.keyword("session")) return SessionUse{&call, session};
        if (callee->text == "eval" && call.keyword("feed_dict") != nullptr)
          return SessionUse{&call, nullptr};
      }
    }
    for (size_t i = 0; i < call.arg_count(); ++i) {
      const Expr* arg = call.arg(i);
      if (arg->kind != ExprKind::Call && is_session_expr(function, *arg))
        return SessionUse{&call, arg};
    }
    for (const ir::Keyword& k : call.keywords) {
      if (k.value->kind != ExprKind::Call && is_session_expr(function, *k.value))
        return SessionUse{&call, k.value};
    }
    return std::nullopt;
  }

  // The first session use anywhere in the loop, or nullopt: the loop is not a session loop.
  const std::optional<SessionUse>& session_loop(const Function& function, const Stmt& loop) {
    if (auto it = session_loops_.find(&loop); it != session_loops_.end()) return it->second;
    std::optional<SessionUse> use;
    auto look = [&](const Stmt& stmt) {
      if (use) return;
      std::vector<const Expr*> calls;
      visit_stmt_exprs(stmt, [&](const Expr& e) {
        if (e.kind == ExprKind::Call) calls.push_back(&e);
      });
      std::sort(calls.begin(), calls.end(),
                [](const Expr* a, const Expr* b) { return a->range.begin < b->range.begin; });
      for (const Expr* call : calls) {
        if (auto found = session_use(function, *call)) {
          use = found;
          use->stmt = &stmt;
          return;
        }
      }
    };
    if (loop.value != nullptr) {
      Stmt header;
      header.value = loop.value;
      look(header);
      if (use) use->stmt = &loop;
    }
    ir::for_each_nested(loop.body, look);
    return session_loops_.emplace(&loop, use).first->second;
  }

  // What a loop's body does, whatever the statement being checked: computed once per loop.
  struct LoopFacts {
    bool resets_graph = false;        // `tf.reset_default_graph()`, `tf.Graph()`, `clear_session()`
    bool clears_session = false;      // `clear_session()` or `tf.reset_default_graph()`
    bool creates_session = false;     // opens a session of its own (one model per fold or run)
    bool inner_session_loop = false;  // holds a nested loop that runs a session
    bool finalized_before = false;    // `graph.finalize()` before the loop: additions raise
  };

  const LoopFacts& loop_facts(const Function& function, const Stmt& loop) {
    if (auto it = loop_facts_.find(&loop); it != loop_facts_.end()) return it->second;
    LoopFacts facts;
    ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
      if (stmt.kind == StmtKind::Loop && session_loop(function, stmt))
        facts.inner_session_loop = true;
      visit_stmt_exprs(stmt, [&](const Expr& e) {
        if (e.kind != ExprKind::Call) return;
        facts.resets_graph = facts.resets_graph || resets_graph_call(module_, e);
        facts.clears_session = facts.clears_session || is_clear_session_call(module_, e);
        facts.creates_session = facts.creates_session || is_session_call(module_, e);
      });
    });
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      if (facts.finalized_before || stmt.range.begin >= loop.range.begin) return;
      visit_stmt_exprs(stmt, [&](const Expr& e) {
        if (e.kind == ExprKind::Call && e.callee()->kind == ExprKind::Attr &&
            e.callee()->text == "finalize")
          facts.finalized_before = true;
      });
    });
    return loop_facts_.emplace(&loop, facts).first->second;
  }

  // ---- Graph tensors ---------------------------------------------------------------------------

  // Is `expr`, evaluated just before `before` in `function`, a tensor of the graph: a builder's
  // result, arithmetic on one, or a name or `self.x` bound to one?
  bool graph_tensor(const Function& function, const Expr& expr, const Stmt& before, int depth) {
    switch (expr.kind) {
      case ExprKind::Call: {
        const ApiRef ref = callee_api(module_, expr);
        return ref.api == Api::Tf && returns_graph_tensor(ref.path);
      }
      case ExprKind::BinOp:
        if (!arithmetic_operator(expr.text) || is_str_const(expr.items[0])) return false;
        return graph_tensor(function, *expr.items[0], before, depth) ||
               graph_tensor(function, *expr.items[1], before, depth);
      case ExprKind::UnaryOp:
        return (expr.text == "-" || expr.text == "~") &&
               graph_tensor(function, *expr.items[0], before, depth);
      case ExprKind::Name:
      case ExprKind::Attr:
        return depth > 0 && graph_place(function, ir::place_key(&expr), before, depth - 1);
      default:
        return false;
    }
  }

  bool graph_place(const Function& function, const std::string& key, const Stmt& before,
                   int depth) {
    if (key.empty()) return false;
    if (key.starts_with("self.")) return graph_attr(function, key, depth);
    if (key.find('.') != std::string::npos || key.find('[') != std::string::npos) return false;
    if (is_param(function, key)) return false;
    if (const Stmt* binding = ir::binding_before(function, before, key)) {
      const Expr* value = assigned_value(*binding, key);
      return value != nullptr && graph_tensor(function, *value, *binding, depth);
    }
    if (function.is_module || binds_anywhere(function, key)) return false;
    // A module-level name: every binding of it at the top level must be a graph tensor.
    const Function& top = module_.top_level();
    bool any = false;
    bool all = true;
    ir::for_each_nested(top.body, [&](const Stmt& stmt) {
      if (!all || !stmt_binds(stmt, key)) return;
      any = true;
      const Expr* value = assigned_value(stmt, key);
      all = value != nullptr && graph_tensor(top, *value, stmt, depth);
    });
    return any && all;
  }

  // `self.loss` when every assignment of it in the class's methods is a graph tensor.
  bool graph_attr(const Function& function, const std::string& key, int depth) {
    const ir::ClassDef* cls = function.parent_class;
    if (cls == nullptr) return false;
    bool any = false;
    bool all = true;
    for (const Function* method : cls->methods) {
      ir::for_each_nested(method->body, [&](const Stmt& stmt) {
        if (!all || !stmt_binds(stmt, key)) return;
        any = true;
        const Expr* value = assigned_value(stmt, key);
        all = value != nullptr && graph_tensor(*method, *value, stmt, depth);
      });
    }
    return any && all;
  }

  // A graph-tensor operand of an operator in the loop: a name or `self.x` bound to one before
  // the loop and not rebound in it (`stmt` aside: `x = x * 2` grows the graph too).
  std::optional<std::string> graph_operand(const Function& function, const Expr* operand,
                                           const Stmt& loop, const Stmt& stmt) {
    if (operand->kind != ExprKind::Name &&
        !(operand->kind == ExprKind::Attr && operand->base()->kind == ExprKind::Name &&
          operand->base()->text == "self"))
      return std::nullopt;
    const std::string key = ir::place_key(operand);
    if (key.empty() || bound_in_loop(loop, key, &stmt)) return std::nullopt;
    const auto cache_key = std::make_pair(&loop, key);
    auto it = graph_operands_.find(cache_key);
    if (it == graph_operands_.end())
      it = graph_operands_.emplace(cache_key, graph_place(function, key, loop, kMaxValueDepth))
               .first;
    if (!it->second) return std::nullopt;
    return key;
  }

  // ---- Functions of the file that build ops
  // ------------------------------------------------------

  // The first op `function` builds on every call (not under an `if`: `if self.op is None:` builds
  // once), directly or through the file's functions; null when it builds none or starts a new
  // graph.
  const Expr* builds_graph(const Function& function, int depth) {
    // A cached or otherwise wrapped function may build once: not followed.
    if (wrapped(function) || depth <= 0) return nullptr;
    if (auto it = graph_builders_.find(&function); it != graph_builders_.end()) return it->second;
    // A recursive call builds nothing more than the call in progress.
    if (!in_progress_.insert(&function).second) return nullptr;
    const Expr* found = nullptr;
    bool resets = false;
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      visit_stmt_exprs(stmt, [&](const Expr& e) {
        if (e.kind == ExprKind::Call && resets_graph_call(module_, e)) resets = true;
      });
    });
    auto look = [&](const Stmt& stmt) {
      if (found != nullptr || resets) return;
      visit_stmt_exprs(stmt, [&](const Expr& e) {
        if (found != nullptr || e.kind != ExprKind::Call) return;
        const ApiRef ref = callee_api(module_, e);
        if (ref.api == Api::Tf && adds_graph_nodes(ref.path)) {
          found = &e;
          return;
        }
        if (const Function* callee = analysis_.resolve_callee(function, e)) {
          if (callee != &function && builds_graph(*callee, depth - 1) != nullptr) found = &e;
        }
      });
    };
    for_each_unconditional(function.body, look);
    const Expr* result = resets ? nullptr : found;
    in_progress_.erase(&function);
    // Only a full-depth answer is kept: a shallower one may have stopped short.
    if (depth == kMaxCallDepth) graph_builders_[&function] = result;
    return result;
  }

  // ---- TF1: ops built in a session loop ------------------------------------------------------

  void check_graph_growth(const Function& function, const Stmt& stmt, const Where& where) {
    const Stmt* loop = nullptr;
    for (auto it = where.loops.rbegin(); it != where.loops.rend(); ++it) {
      if (session_loop(function, **it)) {
        loop = *it;
        break;
      }
    }
    // Ops built in a loop that runs no session are graph construction (towers, layers).
    if (loop == nullptr) return;
    const LoopFacts& facts = loop_facts(function, *loop);
    // A fresh graph every iteration: nothing piles up.
    if (facts.resets_graph) return;
    // A finalized graph raises on any new op instead of growing.
    if (facts.finalized_before) return;
    // An outer loop around a training loop builds one stage per iteration (a layer of
    // layer-wise pretraining, one op per epoch): growth bounded by a few iterations. Only a loop
    // that opens a session of its own rebuilds a whole model every time (one per fold or run).
    if (facts.inner_session_loop && !facts.creates_session) return;
    // `for dtype in [tf.float32, tf.float64]:` runs a fixed handful of times.
    if (over_literal(*loop)) return;
    // `if summary_op is None:`, `if step == 0:` builds once, not every iteration.
    if (under_once_branch(where, *loop)) return;
    std::optional<Growth> growth = find_growth(function, stmt, *loop);
    // The statement adds no op.
    if (!growth) return;
    auto [it, inserted] = growths_.try_emplace(loop, *growth);
    if (!inserted) ++it->second.more;
  }

  std::optional<Growth> find_growth(const Function& function, const Stmt& stmt, const Stmt& loop) {
    std::vector<Growth> found;
    visit_stmt_exprs(stmt, [&](const Expr& e) {
      if (e.kind == ExprKind::Call) {
        if (auto g = growth_of_call(function, e, loop)) found.push_back(*g);
      } else if (e.kind == ExprKind::BinOp && arithmetic_operator(e.text) &&
                 !is_str_const(e.items[0])) {
        for (const Expr* operand : e.items) {
          if (auto key = graph_operand(function, operand, loop, stmt)) {
            found.push_back(make_growth(GrowthKind::Operator, &e, *key));
            break;
          }
        }
      } else if (e.kind == ExprKind::UnaryOp && (e.text == "-" || e.text == "~")) {
        if (auto key = graph_operand(function, e.items[0], loop, stmt))
          found.push_back(make_growth(GrowthKind::Operator, &e, *key));
      }
    });
    if (stmt.kind == StmtKind::AugAssign &&
        arithmetic_operator(std::string_view(stmt.text).substr(0, stmt.text.size() - 1))) {
      for (const Expr* operand : {stmt.targets[0], stmt.value}) {
        if (auto key = graph_operand(function, operand, loop, stmt)) {
          Growth g = make_growth(GrowthKind::Operator, nullptr, *key);
          found.push_back(g);
          break;
        }
      }
    }
    if (found.empty()) return std::nullopt;
    // The outermost of the first: `tf.reduce_mean(tf.square(x))` is one finding.
    auto begin = [&](const Growth& g) {
      return g.primary ? g.primary->range.begin : stmt.range.begin;
    };
    auto end = [&](const Growth& g) { return g.primary ? g.primary->range.end : stmt.range.end; };
    Growth best =
        *std::min_element(found.begin(), found.end(), [&](const Growth& a, const Growth& b) {
          if (begin(a) != begin(b)) return begin(a) < begin(b);
          return end(a) > end(b);
        });
    best.function = &function;
    best.stmt = &stmt;
    return best;
  }

  std::optional<Growth> growth_of_call(const Function& function, const Expr& call,
                                       const Stmt& loop) {
    const ApiRef ref = callee_api(module_, call);
    if (ref.api == Api::Tf) {
      if (adds_graph_nodes(ref.path)) return make_growth(GrowthKind::Op, &call);
      return std::nullopt;
    }
    if (ref.api != Api::None) return std::nullopt;
    const Expr* callee = call.callee();
    if (callee->kind == ExprKind::Attr) {
      const std::string_view method = callee->text;
      if ((method == "minimize" || method == "apply_gradients" || method == "compute_gradients") &&
          is_tf_optimizer(function, *callee->base(), loop))
        return make_growth(GrowthKind::Minimize, &call);
      if (method == "get_next" && is_tf_iterator(function, *callee->base(), loop))
        return make_growth(GrowthKind::GetNext, &call);
      if ((method == "assign" || method == "assign_add" || method == "assign_sub") &&
          call.arg_count() > 0 && is_tf_variable(function, *callee->base(), loop))
        return make_growth(GrowthKind::Assign, &call);
    }
    if (const Function* helper = analysis_.resolve_callee(function, call)) {
      if (helper != &function) {
        if (const Expr* op = builds_graph(*helper, kMaxCallDepth)) {
          Growth g = make_growth(GrowthKind::Helper, &call);
          g.helper = helper;
          g.helper_op = op;
          return g;
        }
      }
    }
    return std::nullopt;
  }

  // The value `expr` (a name or `self.x`) had before the loop, when it is one plain assignment.
  const Expr* value_before(const Function& function, const Expr& expr, const Stmt& loop) {
    if (expr.kind == ExprKind::Call) return &expr;
    const std::string key = ir::place_key(&expr);
    if (key.empty() || bound_in_loop(loop, key)) return nullptr;
    if (key.starts_with("self.")) {
      const ir::ClassDef* cls = function.parent_class;
      if (cls == nullptr) return nullptr;
      const Expr* value = nullptr;
      for (const Function* method : cls->methods) {
        ir::for_each_nested(method->body, [&](const Stmt& stmt) {
          if (value == nullptr && stmt_binds(stmt, key)) value = assigned_value(stmt, key);
        });
      }
      return value;
    }
    if (const Stmt* binding = ir::binding_before(function, loop, key))
      return assigned_value(*binding, key);
    return nullptr;
  }

  // A TensorFlow variable: bound before the loop to a `tf.` call (`tf.Variable(...)`,
  // `tf.get_variable(...)`), or the loop's own target over one (`for var in
  // tf.trainable_variables():`, or a name bound to that list before the loop).
  bool is_tf_variable(const Function& function, const Expr& receiver, const Stmt& loop) {
    auto tf_call = [&](const Expr* value) {
      return value != nullptr && value->kind == ExprKind::Call &&
             callee_api(module_, *value).api == Api::Tf;
    };
    if (receiver.kind != ExprKind::Call && tf_call(value_before(function, receiver, loop)))
      return true;
    if (receiver.kind != ExprKind::Name || loop.targets.size() != 1 || loop.value == nullptr ||
        ir::place_key(loop.targets[0]) != receiver.text)
      return false;
    return tf_call(loop.value) || tf_call(value_before(function, *loop.value, loop));
  }

  // `tf.train.AdamOptimizer(lr)`, or a name bound to one, or named like one.
  bool is_tf_optimizer(const Function& function, const Expr& receiver, const Stmt& loop) {
    if (const Expr* value = value_before(function, receiver, loop);
        value != nullptr && value->kind == ExprKind::Call) {
      const ApiRef ref = callee_api(module_, *value);
      if (ref.api != Api::None) return last_component(ref.path).ends_with("Optimizer");
    }
    const std::string key = ir::place_key(&receiver);
    const std::string_view last = last_component(key);
    return last == "opt" || last.find("optim") != std::string_view::npos;
  }

  // `dataset.make_one_shot_iterator()`, `tf.data.make_initializable_iterator(ds)`, or a name bound
  // to one.
  bool is_tf_iterator(const Function& function, const Expr& receiver, const Stmt& loop) {
    const Expr* value = value_before(function, receiver, loop);
    if (value == nullptr || value->kind != ExprKind::Call) return false;
    const std::string_view last =
        value->callee()->kind == ExprKind::Attr ? value->callee()->text : std::string_view();
    return last == "make_one_shot_iterator" || last == "make_initializable_iterator" ||
           last == "from_structure" || last == "from_string_handle";
  }

  void report_graph_growth() {
    for (const auto& [loop, growth] : growths_) report_growth(*loop, growth);
  }

  void report_growth(const Stmt& loop, const Growth& growth) {
    const Function& function = *growth.function;
    const std::optional<SessionUse>& use = session_loop(function, loop);
    const std::string runner =
        use && use->session != nullptr ? quote(module_, *use->session).text : std::string();
    const std::string where = runner.empty()
                                  ? std::string("the loop that evaluates tensors with `.eval()`")
                                  : fmt::format("the loop that runs `{}`", runner);
    const Stmt& stmt = *growth.stmt;
    std::string message;
    std::string help;
    ByteRange primary = growth.primary != nullptr ? growth.primary->range : stmt.range;
    const std::string text = growth.primary != nullptr ? quote_call(module_, *growth.primary)
                                                       : quote_range(module_, stmt.range).text;
    switch (growth.kind) {
      case GrowthKind::Op:
        message = fmt::format(
            "`{}` adds new ops to the TensorFlow graph every time it runs in {}, "
            "so the graph keeps growing",
            text, where);
        break;
      case GrowthKind::Operator:
        message = fmt::format(
            "`{}` adds a new op to the TensorFlow graph every time it runs in {}: "
            "`{}` is a graph tensor, so the graph keeps growing",
            text, where, growth.operand);
        break;
      case GrowthKind::Minimize:
        message = fmt::format(
            "`{}` adds new gradient and update ops to the TensorFlow graph every "
            "time it runs in {}, so the graph keeps growing",
            text, where);
        break;
      case GrowthKind::GetNext:
        message = fmt::format(
            "`{}` adds a new `IteratorGetNext` op to the TensorFlow graph every "
            "time it runs in {}, so the graph keeps growing",
            text, where);
        break;
      case GrowthKind::Assign:
        message = fmt::format(
            "`{}` adds a new assign op, and a constant holding the value, to the TensorFlow "
            "graph every time it runs in {}, so the graph keeps growing",
            text, where);
        break;
      case GrowthKind::Helper:
        message = fmt::format(
            "`{}` adds new ops to the TensorFlow graph on every call, and it is "
            "called in {}, so the graph keeps growing",
            text, where);
        break;
    }
    if (growth.more > 0) {
      message += growth.more == 1
                     ? std::string("; 1 more statement in this loop adds ops too")
                     : fmt::format("; {} more statements in this loop add ops too", growth.more);
    }
    const bool rebuilds = loop_facts(function, loop).creates_session;
    const std::string_view finalize =
        "`tf.get_default_graph().finalize()` before the loop makes any op added inside it raise";
    if (rebuilds) {
      help = fmt::format(
          "build the graph once before the loop, or call `tf.reset_default_graph()` "
          "at the start of each iteration; {}",
          finalize);
    } else if (growth.kind == GrowthKind::Operator) {
      help = fmt::format(
          "build `{}` once before the loop and run that tensor, or do the arithmetic "
          "on the values `run` returns; {}",
          text, finalize);
    } else if (growth.kind == GrowthKind::Assign) {
      help = fmt::format(
          "build the assign op once before the loop from a `tf.placeholder` and run it with "
          "`feed_dict`, or set the value with `var.load(value, session)`, which adds no op; {}",
          finalize);
    } else if (growth.kind == GrowthKind::GetNext) {
      help = fmt::format("call `get_next()` once before the loop and run the tensor it returns; {}",
                         finalize);
    } else {
      help = fmt::format("build the op once before the loop and only run it inside; {}", finalize);
    }
    std::vector<Related> related;
    if (growth.kind == GrowthKind::Helper && growth.helper_op != nullptr) {
      related.push_back(
          {growth.helper_op->range, fmt::format("`{}()` adds ops here", growth.helper->name)});
    }
    related.push_back({ir::loop_header(loop), where});
    if (use && use->session != nullptr) {
      if (const Stmt* binding = session_binding_stmt(function, *use->stmt, *use->session)) {
        related.push_back({binding_range(*binding), fmt::format("`{}` is created here", runner)});
      }
    }
    sink_.report(kInfo, primary, std::move(message), std::move(help), std::move(related));
  }

  // Where the session a loop runs was created: `sess = tf.Session()` or `with tf.Session() as
  // sess:` before the loop in the function, at the module's top level, or in the class.
  const Stmt* session_binding_stmt(const Function& function, const Stmt& use, const Expr& session) {
    if (session.kind == ExprKind::Call) return nullptr;
    const std::string key = ir::place_key(&session);
    if (key.empty()) return nullptr;
    auto creates = [&](const Stmt& stmt) {
      if (stmt.kind == StmtKind::Guard) {
        return std::any_of(stmt.items.begin(), stmt.items.end(), [&](const Expr* item) {
          return item->kind == ExprKind::Call && is_session_call(module_, *item);
        });
      }
      const Expr* value = assigned_value(stmt, key);
      return value != nullptr && value->kind == ExprKind::Call && is_session_call(module_, *value);
    };
    if (!key.starts_with("self.")) {
      if (const Stmt* binding = ir::binding_before(function, use, key))
        return creates(*binding) ? binding : nullptr;
    }
    const Stmt* found = nullptr;
    for (const Function* scope : binding_scopes(function, key)) {
      if (scope == &function && !key.starts_with("self.")) continue;
      ir::for_each_nested(scope->body, [&](const Stmt& stmt) {
        if (found == nullptr && stmt_binds(stmt, key) && creates(stmt)) found = &stmt;
      });
    }
    return found;
  }

  // The file's function a call reaches: `resolve_callee`, or for `agent.act(state)` on a
  // receiver the analysis knows nothing of, the one method of that name among the file's classes.
  const Function* callee_of(const Function& function, const Expr& call) {
    if (const Function* target = analysis_.resolve_callee(function, call)) return target;
    const Expr* callee = call.callee();
    if (callee->kind != ExprKind::Attr || callee->base()->kind != ExprKind::Name) return nullptr;
    const std::string_view receiver = callee->base()->text;
    if (receiver == "self" || module_.is_import_alias(receiver)) return nullptr;
    if (analysis_.fact(*callee->base()).kind != ir::ValueKind::Unknown) return nullptr;
    const Function* found = nullptr;
    for (const ir::ClassDef& cls : module_.classes()) {
      for (const Function* method : cls.methods) {
        if (method->name != callee->text) continue;
        if (found != nullptr) return nullptr;  // two classes define it: ambiguous
        found = method;
      }
    }
    return found;
  }

  // ---- Keras: predict in a loop ---------------------------------------------------------------

  // Places the file binds to a session: `sess = tf.Session()`, `with tf.Session() as s:`.
  void collect_session_keys() {
    for (const Function& function : module_.functions()) {
      ir::for_each_nested(function.body, [&](const Stmt& stmt) {
        if (stmt.kind == StmtKind::Guard) {
          if (std::none_of(stmt.items.begin(), stmt.items.end(), [&](const Expr* item) {
                return item->kind == ExprKind::Call && is_session_call(module_, *item);
              }))
            return;
          for (const Expr* target : stmt.targets) session_keys_.insert(ir::place_key(target));
        } else if (stmt.kind == StmtKind::Assign && stmt.value != nullptr &&
                   stmt.value->kind == ExprKind::Call && is_session_call(module_, *stmt.value)) {
          for (const Expr* target : stmt.targets) session_keys_.insert(ir::place_key(target));
        }
      });
    }
    session_keys_.erase("");
  }

  // Keys `.compile(...)`-d anywhere in the file: `model.compile(optimizer="adam", loss=...)`.
  void collect_compiled_models() {
    for (const Function& function : module_.functions()) {
      ir::walk_statements(function, false, [&](const Stmt& stmt, const ir::StmtContext&) {
        visit_stmt_exprs(stmt, [&](const Expr& e) {
          if (e.kind != ExprKind::Call || e.callee()->kind != ExprKind::Attr ||
              e.callee()->text != "compile")
            return;
          const Expr* receiver = e.callee()->base();
          const ir::Expr* root = ir::root_name(receiver);
          if (root == nullptr || module_.is_import_alias(root->text)) return;
          const std::string key = ir::place_key(receiver);
          if (!key.empty()) compiled_.insert(key);
        });
      });
    }
  }

  // Is `expr` (evaluated just before `before` in `function`) a Keras model?
  bool keras_model(const Function& function, const Expr& expr, const Stmt& before, int depth) {
    if (expr.kind == ExprKind::Call) return makes_keras_model(function, expr, depth) != nullptr;
    if (expr.kind != ExprKind::Name && expr.kind != ExprKind::Attr) return false;
    const std::string key = ir::place_key(&expr);
    if (key.empty()) return false;
    if (compiled_.contains(key)) return true;
    if (depth <= 0) return false;
    if (key.starts_with("self.")) {
      const ir::ClassDef* cls = function.parent_class;
      if (cls == nullptr) return false;
      bool found = false;
      for (const Function* method : cls->methods) {
        ir::for_each_nested(method->body, [&](const Stmt& stmt) {
          if (found || !stmt_binds(stmt, key)) return;
          const Expr* value = assigned_value(stmt, key);
          found = value != nullptr && keras_model(*method, *value, stmt, depth - 1);
        });
      }
      return found;
    }
    if (key.find('.') != std::string::npos || key.find('[') != std::string::npos) return false;
    if (const Stmt* binding = ir::binding_before(function, before, key)) {
      const Expr* value = assigned_value(*binding, key);
      return value != nullptr && keras_model(function, *value, *binding, depth - 1);
    }
    if (function.is_module || is_param(function, key) || binds_anywhere(function, key))
      return false;
    const Function& top = module_.top_level();
    bool found = false;
    ir::for_each_nested(top.body, [&](const Stmt& stmt) {
      if (found || !stmt_binds(stmt, key)) return;
      const Expr* value = assigned_value(stmt, key);
      found = value != nullptr && keras_model(top, *value, stmt, depth - 1);
    });
    return found;
  }

  // The expression that builds the Keras model `call` returns: the call itself for
  // `keras.Sequential(...)` or a Keras subclass of the file, the model a file function returns
  // (`self._build_model()` doing `model = Sequential(); ...; return model`). Null otherwise.
  const Expr* makes_keras_model(const Function& function, const Expr& call, int depth) {
    if (is_keras_model_call(module_, call)) return &call;
    const Expr* callee = call.callee();
    if (callee->kind == ExprKind::Name) {
      if (const ir::ClassDef* cls = analysis_.class_named(callee->text);
          cls != nullptr && is_keras_model_class(module_, *cls))
        return &call;
    }
    if (depth <= 0) return nullptr;
    const Function* target = analysis_.resolve_callee(function, call);
    if (target == nullptr || target == &function) return nullptr;
    const Expr* made = nullptr;
    ir::for_each_nested(target->body, [&](const Stmt& stmt) {
      if (made != nullptr || stmt.kind != StmtKind::Return || stmt.value == nullptr) return;
      if (keras_model(*target, *stmt.value, stmt, depth - 1)) made = stmt.value;
    });
    return made;
  }

  // The first Keras model `function` builds (directly or through the file's functions), unless
  // it clears the session first.
  const Expr* builds_keras_model(const Function& function, int depth) {
    if (depth <= 0 || wrapped(function)) return nullptr;
    if (auto it = model_builders_.find(&function); it != model_builders_.end()) return it->second;
    // A recursive call builds nothing more than the call in progress.
    if (!in_progress_.insert(&function).second) return nullptr;
    const Expr* made = first_model_built(function, depth);
    in_progress_.erase(&function);
    // Only a full-depth answer is kept: a shallower one may have stopped short.
    if (depth == kMaxCallDepth) model_builders_[&function] = made;
    return made;
  }

  const Expr* first_model_built(const Function& function, int depth) {
    const Expr* made = nullptr;
    bool clears = false;
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      visit_stmt_exprs(stmt, [&](const Expr& e) {
        if (e.kind != ExprKind::Call) return;
        if (is_clear_session_call(module_, e)) clears = true;
        if (made != nullptr) return;
        if (is_keras_model_call(module_, e)) {
          made = &e;
          return;
        }
        if (e.callee()->kind == ExprKind::Name) {
          if (const ir::ClassDef* cls = analysis_.class_named(e.callee()->text);
              cls != nullptr && is_keras_model_class(module_, *cls)) {
            made = &e;
            return;
          }
        }
        if (const Function* callee = analysis_.resolve_callee(function, e);
            callee != nullptr && callee != &function && builds_keras_model(*callee, depth - 1))
          made = &e;
      });
    });
    return clears ? nullptr : made;
  }

  static bool is_predict(const Expr& call) {
    if (call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Attr) return false;
    const std::string_view m = call.callee()->text;
    return m == "predict" || m == "predict_classes" || m == "predict_proba";
  }

  static const Expr* predict_input(const Expr& call) {
    if (const Expr* x = call.keyword("x")) return x;
    return call.arg(0);
  }

  // The first `model.predict(x)` in `function` (a helper called from a loop) on a Keras model,
  // whose input comes from the helper's parameters, so each call predicts what it is handed.
  const Expr* predicts_per_call(const Function& function) {
    if (wrapped(function)) return nullptr;
    if (auto it = predicting_helpers_.find(&function); it != predicting_helpers_.end())
      return it->second;
    predicting_helpers_[&function] = nullptr;
    const Expr* found = nullptr;
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      visit_stmt_exprs(stmt, [&](const Expr& e) {
        if (found != nullptr || !is_predict(e)) return;
        const Expr* input = predict_input(e);
        if (input == nullptr) return;
        bool varies = false;
        visit_exprs(*input, [&](const Expr& n) {
          if (n.kind != ExprKind::Name || n.text == ir::kReceiver) return;
          if (is_param(function, n.text)) varies = true;
        });
        if (varies && keras_model(function, *e.callee()->base(), stmt, kMaxValueDepth)) found = &e;
      });
    });
    predicting_helpers_[&function] = found;
    return found;
  }

  void check_predict(const Function& function, const Stmt& stmt, const Where& where) {
    const Expr* primary = nullptr;
    const Expr* helper_predict = nullptr;
    const Function* helper = nullptr;
    const Stmt* loop = nullptr;
    visit_stmt_exprs(stmt, [&](const Expr& e) {
      if (primary != nullptr || e.kind != ExprKind::Call) return;
      const Expr* input = nullptr;
      const Expr* inner = nullptr;
      const Function* target = nullptr;
      if (is_predict(e)) {
        input = predict_input(e);
        // Without Keras evidence `clf.predict(x)` may be scikit-learn's.
        if (input == nullptr || !keras_model(function, *e.callee()->base(), stmt, kMaxValueDepth))
          return;
      } else if ((target = callee_of(function, e)) != nullptr && target != &function &&
                 (inner = predicts_per_call(*target)) != nullptr) {
        input = &e;
      } else {
        return;
      }
      // The input changes each iteration (the loop's item, a state the loop updates): the loop
      // iterates over data. A fixed input (`model.predict(x_val)` once per epoch) is quiet.
      for (auto it = where.loops.rbegin(); it != where.loops.rend(); ++it) {
        const Expr* args = input;
        bool varies = false;
        if (args == &e) {
          for (size_t i = 0; i < e.arg_count(); ++i)
            varies = varies || reads_name_bound_in_loop(*e.arg(i), **it);
          for (const ir::Keyword& k : e.keywords)
            varies = varies || reads_name_bound_in_loop(*k.value, **it);
        } else {
          varies = reads_name_bound_in_loop(*args, **it);
        }
        if (varies) {
          loop = *it;
          primary = &e;
          helper_predict = inner;
          helper = target;
          return;
        }
      }
    });
    // The statement makes nothing of the kind.
    if (primary == nullptr) return;
    // `clear_session()` in the loop releases what each `predict()` call left behind.
    if (loop_facts(function, *loop).clears_session) return;
    // `if epoch % 200 == 0:` samples now and then: a few calls, not one per input.
    if (periodic(where, *loop)) return;
    const std::string text = quote_call(module_, *primary);
    std::vector<Related> related;
    std::string message;
    std::string help;
    if (helper_predict != nullptr) {
      const std::string inner = quote_call(module_, *helper_predict);
      message = fmt::format(
          "`{}` calls `{}` in a loop, on a new input each time; each `predict()` call builds a "
          "data adapter and runs a full predict loop, and memory grows over many calls",
          text, inner);
      help = fmt::format(
          "in `{}()`, call the model directly: `{}(..., training=False)`, or "
          "batch the inputs into one `predict()` call",
          helper->name, quote(module_, *helper_predict->callee()->base()).text);
      related.push_back(
          {helper_predict->range, fmt::format("`{}()` calls `predict()` here", helper->name)});
    } else {
      const std::string model = quote(module_, *primary->callee()->base()).text;
      message = fmt::format(
          "`{}` is called in a loop, on a new input each time; each `predict()` call builds a "
          "data adapter and runs a full predict loop, and memory grows over many calls",
          text);
      const QuotedExpr input = quote(module_, *predict_input(*primary));
      help = fmt::format(
          "call the model directly: `{}({}, training=False)`, or batch the inputs "
          "into one `predict()` call",
          model, input.complete ? input.text : std::string("x"));
    }
    related.push_back({ir::loop_header(*loop), "the loop that repeats it"});
    sink_.report(kInfo, primary->range, std::move(message), std::move(help), std::move(related),
                 std::nullopt, Severity::Warning);
  }

  // ---- Keras: a new model per iteration
  // ------------------------------------------------------------

  void check_model_build(const Function& function, const Stmt& stmt, const Where& where) {
    const Stmt& loop = *where.loops.back();
    const Expr* primary = nullptr;
    const Expr* made_in_helper = nullptr;
    const Function* helper = nullptr;
    visit_stmt_exprs(stmt, [&](const Expr& e) {
      if (e.kind != ExprKind::Call) return;
      const Expr* direct = nullptr;
      const Expr* inner = nullptr;
      const Function* target = nullptr;
      if (is_keras_model_call(module_, e)) {
        direct = &e;
      } else if (e.callee()->kind == ExprKind::Name) {
        if (const ir::ClassDef* cls = analysis_.class_named(e.callee()->text);
            cls != nullptr && is_keras_model_class(module_, *cls))
          direct = &e;
      }
      if (direct == nullptr) {
        target = analysis_.resolve_callee(function, e);
        if (target == nullptr || target == &function) return;
        inner = builds_keras_model(*target, kMaxCallDepth);
        if (inner == nullptr) return;
      }
      // The outermost, first call of the statement.
      if (primary == nullptr || e.range.begin < primary->range.begin ||
          (e.range.begin == primary->range.begin && e.range.end > primary->range.end)) {
        primary = &e;
        made_in_helper = inner;
        helper = target;
      }
    });
    // The statement makes nothing of the kind.
    if (primary == nullptr) return;
    // `TimeDistributed(Sequential(...))`, or a tower per branch in a function that returns the
    // whole model: parts of a bigger model, built on purpose.
    if (primary != stmt.value || returns_model_built_after(function, loop)) return;
    // `clear_session()` in the loop drops what the previous models left in Keras's state.
    if (loop_facts(function, loop).clears_session) return;
    // Models kept on purpose (an ensemble) are not a leak.
    if (kept_in_container(stmt, loop)) return;
    // `if model is None: model = build()` builds once.
    if (under_once_branch(where, loop)) return;
    // A fixed handful of models (`for units in [32, 64]:`) is bounded.
    if (over_literal(loop)) return;
    const std::string text = quote_call(module_, *primary);
    std::vector<Related> related;
    if (made_in_helper != nullptr) {
      related.push_back(
          {made_in_helper->range, fmt::format("`{}()` builds a Keras model here", helper->name)});
    }
    related.push_back({ir::loop_header(loop), "the loop that repeats it"});
    sink_.report(
        kInfo, primary->range,
        fmt::format("`{}` builds a new Keras model on every iteration without `clear_session()`; "
                    "Keras keeps every model's layers and graph in its global state, so memory "
                    "grows with each one",
                    text),
        "call `tf.keras.backend.clear_session()` at the start of each iteration, before the new "
        "model is built",
        std::move(related), std::nullopt, Severity::Warning);
  }

  // The function returns a Keras model built after `loop` (`return Model(inputs, outputs)`):
  // the loop assembles that model's parts.
  bool returns_model_built_after(const Function& function, const Stmt& loop) {
    bool returns = false;
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      if (returns || stmt.kind != StmtKind::Return || stmt.value == nullptr) return;
      const Expr* value = stmt.value;
      const Stmt* at = &stmt;
      if (value->kind == ExprKind::Name) {
        at = ir::binding_before(function, stmt, value->text);
        value = at != nullptr ? assigned_value(*at, value->text) : nullptr;
      }
      if (value == nullptr || value->kind != ExprKind::Call || at->range.begin < loop.range.end)
        return;
      returns = makes_keras_model(function, *value, kMaxCallDepth) != nullptr;
    });
    return returns;
  }

  static bool kept_in_container(const Stmt& stmt, const Stmt& loop) {
    // `models.append(build())`, `models[i] = build()`.
    if (stmt.kind == StmtKind::ExprStmt && stmt.value != nullptr &&
        stmt.value->kind == ExprKind::Call && stmt.value->callee()->kind == ExprKind::Attr)
      return true;
    if (stmt.kind != StmtKind::Assign || stmt.targets.size() != 1) return false;
    const Expr* target = stmt.targets[0];
    if (target->kind == ExprKind::Subscript) return true;
    const std::string key = ir::place_key(target);
    if (key.empty()) return false;
    // `model = build(); models.append(model)` or `zoo[name] = model`.
    bool kept = false;
    ir::for_each_nested(loop.body, [&](const Stmt& s) {
      if (kept) return;
      if (s.kind == StmtKind::Assign && s.targets.size() == 1 &&
          s.targets[0]->kind == ExprKind::Subscript && s.value != nullptr &&
          ir::place_key(s.value) == key)
        kept = true;
      visit_stmt_exprs(s, [&](const Expr& e) {
        if (kept || e.kind != ExprKind::Call || e.callee()->kind != ExprKind::Attr) return;
        if (knowledge::container_store(e.callee()->text) == nullptr) return;
        for (size_t i = 0; i < e.arg_count(); ++i) {
          const Expr* arg = e.arg(i);
          if (ir::place_key(arg) == key) kept = true;
          if (arg->kind == ExprKind::Collection) {
            for (const Expr* item : arg->items) kept = kept || ir::place_key(item) == key;
          }
        }
      });
    });
    return kept;
  }

  // ---- tf.function made in a loop -------------------------------------------------------------

  void check_tf_function(const Stmt& stmt, const Where& where) {
    const Stmt& loop = *where.loops.back();
    const Expr* primary = nullptr;
    std::string name;
    if (stmt.kind == StmtKind::FunctionDef && stmt.function != nullptr) {
      for (const Expr* decorator : stmt.function->decorators) {
        if (is_tf_function(module_, decorator)) {
          primary = decorator;
          name = std::string(stmt.function->name);
          break;
        }
      }
    } else {
      visit_stmt_exprs(stmt, [&](const Expr& e) {
        if (primary != nullptr || e.kind != ExprKind::Call || e.arg_count() == 0) return;
        const ApiRef ref = api_of(module_, e.callee());
        if (ref.api != Api::Tf || ref.path != "function") return;
        primary = &e;
        if (stmt.kind == StmtKind::Assign && stmt.targets.size() == 1 && stmt.value == &e)
          name = ir::place_key(stmt.targets[0]);
      });
    }
    // The statement makes nothing of the kind.
    if (primary == nullptr) return;
    // Called in an inner loop: one trace serves many steps (a fresh step function per model of
    // a search is the point).
    if (!name.empty() && called_in_inner_loop(loop, name)) return;
    const std::string text = quote(module_, *primary).text;
    const std::string what =
        name.empty() ? std::string("a new function") : fmt::format("a new function `{}`", name);
    sink_.report(
        kInfo, primary->range,
        fmt::format("`{}` makes {} on every iteration, so every iteration traces and builds a new "
                    "graph instead of reusing one",
                    text, what),
        "define the `tf.function` once, outside the loop, and call it inside",
        {{ir::loop_header(loop), "the loop that repeats it"}}, std::nullopt, Severity::Warning);
  }

  static bool called_in_inner_loop(const Stmt& loop, std::string_view name) {
    bool called = false;
    ir::for_each_nested(loop.body, [&](const Stmt& inner) {
      if (called || inner.kind != StmtKind::Loop) return;
      ir::for_each_nested(inner.body, [&](const Stmt& s) {
        visit_stmt_exprs(s, [&](const Expr& e) {
          if (e.kind == ExprKind::Call && ir::place_key(e.callee()) == name) called = true;
        });
      });
    });
    return called;
  }

  const ir::Module& module_;
  const ir::FileAnalysis& analysis_;
  DiagnosticSink& sink_;
  std::unordered_set<std::string> compiled_;
  std::unordered_set<std::string> session_keys_;
  std::map<std::pair<const Function*, std::string>, Tri> session_bindings_;
  std::unordered_map<const Stmt*, std::optional<SessionUse>> session_loops_;
  std::unordered_map<const Stmt*, LoopFacts> loop_facts_;
  std::unordered_map<const Function*, const Expr*> graph_builders_;
  std::unordered_map<const Function*, const Expr*> predicting_helpers_;
  std::unordered_map<const Function*, const Expr*> model_builders_;
  std::unordered_set<const Function*> in_progress_;
  std::map<std::pair<const Stmt*, std::string>, bool> graph_operands_;
  std::unordered_map<const Stmt*, std::unordered_map<std::string, int>> loop_bindings_;
  std::unordered_map<const Function*, std::unordered_set<std::string>> function_bindings_;
  std::map<const Stmt*, Growth> growths_;
};

class TfGraphGrowth final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    // A TensorFlow/Keras rule: files that import neither (PyTorch code, plain Python) are quiet.
    if (!imports_tensorflow(module)) return;
    Checker checker(module, context.analysis, sink);
    checker.run();
  }
};

}  // namespace

std::unique_ptr<const Rule> make_sl009_tf_graph_growth() {
  return std::make_unique<TfGraphGrowth>();
}

}  // namespace sealint::rules
