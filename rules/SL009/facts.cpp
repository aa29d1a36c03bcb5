#include "rules/SL009/facts.h"

#include <algorithm>

#include "analyzer/ir/bindings.h"
#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/tensorflow.h"
#include "analyzer/semantic/iteration.h"
#include "analyzer/semantic/tensorflow_api.h"

namespace sealint::rules::sl009 {

using ir::assigned_value;
using ir::Expr;
using ir::ExprKind;
using ir::Function;
using ir::Stmt;
using ir::stmt_binds;
using ir::StmtKind;

namespace {

// `with tf.Session() as sess:` opens a session.
bool opens_session(const ir::Module& module, const Stmt& guard) {
  return std::any_of(guard.items.begin(), guard.items.end(), [&](const Expr* item) {
    return item->kind == ExprKind::Call && semantic::is_tf_session_call(module, *item);
  });
}

}  // namespace

TfFacts::TfFacts(const ir::Module& module, const ir::FileAnalysis& analysis)
    : module_(module), analysis_(analysis) {
  collect_compiled_models();
  collect_session_keys();
}

// ---- Bindings -----------------------------------------------------------------------------

// How many statements of the loop (its targets included) bind each place.
const std::unordered_map<std::string, int>& TfFacts::loop_bindings(const Stmt& loop) {
  if (auto it = loop_bindings_.find(&loop); it != loop_bindings_.end()) return it->second;
  std::unordered_map<std::string, int> counts;
  std::vector<std::string> keys;
  for (const Expr* target : loop.targets) ir::target_keys(target, keys);
  ir::for_each_nested(loop.body, [&](const Stmt& s) { ir::bound_keys(s, keys); });
  for (const std::string& key : keys) ++counts[key];
  return loop_bindings_.emplace(&loop, std::move(counts)).first->second;
}

bool TfFacts::bound_in_loop(const Stmt& loop, const std::string& key, const Stmt* ignore) {
  const auto& counts = loop_bindings(loop);
  const auto it = counts.find(key);
  if (it == counts.end()) return false;
  return it->second > (ignore != nullptr && stmt_binds(*ignore, key) ? 1 : 0);
}

bool TfFacts::reads_name_bound_in_loop(const Expr& expr, const Stmt& loop) {
  bool found = false;
  ir::for_each_evaluated_subexpr(expr, [&](const Expr& e) {
    if (!found && e.kind == ExprKind::Name && bound_in_loop(loop, std::string(e.text)))
      found = true;
  });
  return found;
}

bool TfFacts::binds_anywhere(const Function& function, std::string_view key) {
  auto it = function_bindings_.find(&function);
  if (it == function_bindings_.end()) {
    std::vector<std::string> keys;
    ir::for_each_nested(function.body, [&](const Stmt& s) { ir::bound_keys(s, keys); });
    it = function_bindings_
             .emplace(&function, std::unordered_set<std::string>(keys.begin(), keys.end()))
             .first;
  }
  return it->second.contains(std::string(key));
}

const Expr* TfFacts::value_before(const Function& function, const Expr& expr, const Stmt& loop) {
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

std::vector<const Function*> TfFacts::binding_scopes(const Function& function,
                                                     std::string_view key) {
  std::vector<const Function*> scopes;
  if (key.starts_with("self.")) {
    const ir::ClassDef* cls = function.parent_class;
    if (cls != nullptr) scopes.assign(cls->methods.begin(), cls->methods.end());
    return scopes;
  }
  scopes.push_back(&function);
  if (!function.is_module && !function.has_param(key) && !binds_anywhere(function, key))
    scopes.push_back(&module_.top_level());
  return scopes;
}

// ---- Sessions -----------------------------------------------------------------------------

// What the bindings of `key` say about it being a TF session: Yes when one is `tf.Session()`
// or a `with tf.Session() as key`, No when every one is a call into another library
// (`ort.InferenceSession(...)`, `requests.Session()`), Unknown otherwise.
TfFacts::Tri TfFacts::session_binding(const Function& function, const std::string& key) {
  const auto cache_key = std::make_pair(&function, key);
  if (auto it = session_bindings_.find(cache_key); it != session_bindings_.end()) return it->second;
  bool yes = false;
  bool foreign = false;
  bool other = false;
  auto look = [&](const Stmt& stmt) {
    if (!stmt_binds(stmt, key)) return;
    if (stmt.kind == StmtKind::Guard) {
      (opens_session(module_, stmt) ? yes : other) = true;
      return;
    }
    const Expr* value = assigned_value(stmt, key);
    if (value != nullptr && value->kind == ExprKind::Call) {
      if (semantic::is_tf_session_call(module_, *value)) {
        yes = true;
        return;
      }
      const std::string dotted = ir::dotted_name(value->callee());
      if (!dotted.empty() &&
          module_.is_import_alias(std::string_view(dotted).substr(0, dotted.find('.'))) &&
          semantic::tf_callee_api(module_, *value).api == semantic::TfApi::None) {
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

bool TfFacts::is_session_expr(const Function& function, const Expr& expr) {
  if (expr.kind == ExprKind::Call) return semantic::is_tf_session_call(module_, expr);
  if (expr.kind != ExprKind::Name && expr.kind != ExprKind::Attr) return false;
  const std::string key = ir::place_key(&expr);
  if (key.empty()) return false;
  // Another name is a session only when the file binds it to one (`s = tf.Session()`).
  if (!knowledge::is_session_like_name(key)) return session_keys_.contains(key);
  return session_binding(function, key) != Tri::No;
}

// `sess.run(...)`, `x.eval(session=sess)`, `x.eval(feed_dict=...)`, `op.run(session=sess)`,
// or a call handed the session (`train_epoch(sess, ...)`, `saver.save(sess, path)`).
std::optional<SessionUse> TfFacts::session_use(const Function& function, const Expr& call) {
  if (call.kind != ExprKind::Call) return std::nullopt;
  const Expr* callee = call.callee();
  if (callee->kind == ExprKind::Attr) {
    if (callee->text == "run" && is_session_expr(function, *callee->base()))
      return SessionUse{&call, callee->base()};
    // `x.run(fetches, {self.obs: states})`: a run fed by the file's placeholders is a session's,
    // whatever holds the session (one handed in: `self.s = session`).
    if (callee->text == "run" && call.arg_count() > 1 &&
        call.arg(1)->kind == ExprKind::Collection &&
        call.arg(1)->collection_kind == ir::CollectionKind::Dict) {
      // The display's items alternate keys and values.
      const std::vector<Expr*>& items = call.arg(1)->items;
      for (size_t i = 0; i < items.size(); i += 2) {
        if (placeholder_keys_.contains(ir::place_key(items[i])))
          return SessionUse{&call, callee->base()};
      }
    }
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

const std::optional<SessionUse>& TfFacts::session_loop(const Function& function, const Stmt& loop) {
  if (auto it = session_loops_.find(&loop); it != session_loops_.end()) return it->second;
  std::optional<SessionUse> use;
  auto look = [&](const Stmt& stmt) {
    if (use) return;
    std::vector<const Expr*> calls;
    ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
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

bool TfFacts::has_session_loop(const Function& function) {
  bool found = false;
  ir::for_each_nested(function.body, [&](const Stmt& stmt) {
    if (!found && stmt.kind == StmtKind::Loop) found = session_loop(function, stmt).has_value();
  });
  return found;
}

const LoopFacts& TfFacts::loop_facts(const Function& function, const Stmt& loop) {
  if (auto it = loop_facts_.find(&loop); it != loop_facts_.end()) return it->second;
  LoopFacts facts;
  ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
    if (stmt.kind == StmtKind::Loop && session_loop(function, stmt))
      facts.inner_session_loop = true;
    ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
      if (e.kind != ExprKind::Call) return;
      facts.resets_graph = facts.resets_graph || semantic::is_tf_graph_reset_call(module_, e);
      facts.clears_session = facts.clears_session || semantic::is_clear_session_call(module_, e);
      facts.creates_session = facts.creates_session || semantic::is_tf_session_call(module_, e);
    });
  });
  ir::for_each_nested(function.body, [&](const Stmt& stmt) {
    if (facts.finalized_before || stmt.range.begin >= loop.range.begin) return;
    ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
      if (e.kind == ExprKind::Call && e.callee()->kind == ExprKind::Attr &&
          e.callee()->text == "finalize")
        facts.finalized_before = true;
    });
  });
  return loop_facts_.emplace(&loop, facts).first->second;
}

const Stmt* TfFacts::session_binding_stmt(const Function& function, const Stmt& use,
                                          const Expr& session) {
  if (session.kind == ExprKind::Call) return nullptr;
  const std::string key = ir::place_key(&session);
  if (key.empty()) return nullptr;
  auto creates = [&](const Stmt& stmt) {
    if (stmt.kind == StmtKind::Guard) return opens_session(module_, stmt);
    const Expr* value = assigned_value(stmt, key);
    return value != nullptr && value->kind == ExprKind::Call &&
           semantic::is_tf_session_call(module_, *value);
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

// Places the file binds to a session: `sess = tf.Session()`, `with tf.Session() as s:`.
void TfFacts::collect_session_keys() {
  for (const Function& function : module_.functions()) {
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      // `self.x = tf.placeholder(...)`: a feed key of the runs below.
      if (stmt.kind == StmtKind::Assign && stmt.value != nullptr &&
          stmt.value->kind == ExprKind::Call) {
        const semantic::TfApiRef ref = semantic::tf_callee_api(module_, *stmt.value);
        if (ref.api == semantic::TfApi::Tf && ref.path.ends_with("placeholder")) {
          for (const Expr* target : stmt.targets) placeholder_keys_.insert(ir::place_key(target));
        }
      }
      const bool opens = stmt.kind == StmtKind::Guard
                             ? opens_session(module_, stmt)
                             : stmt.kind == StmtKind::Assign && stmt.value != nullptr &&
                                   stmt.value->kind == ExprKind::Call &&
                                   semantic::is_tf_session_call(module_, *stmt.value);
      if (!opens) return;
      for (const Expr* target : stmt.targets) session_keys_.insert(ir::place_key(target));
    });
  }
  session_keys_.erase("");
}

// The function is called exactly once in the file, outside any loop (a script's `evaluate(x)` at
// the end): it builds its op once.
bool TfFacts::called_once_in_file(const ir::Function& function) {
  // One walk of the file for every function asked about made a file of N functions take N walks:
  // the calls are counted for every function at once, on the first question.
  if (!calls_counted_) {
    calls_counted_ = true;
    for (const ir::Function& caller : module_.functions()) {
      ir::walk_statements(caller, false, [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
        ir::for_each_evaluated_expr(stmt, [&](const ir::Expr& call) {
          if (call.kind != ir::ExprKind::Call) return;
          const ir::Function* callee = analysis_.resolve_callee(caller, call);
          if (callee == nullptr) return;
          CallCount& count = call_counts_[callee];
          ++count.calls;
          count.in_loop = count.in_loop || !where.loops.empty();
        });
      });
    }
  }
  const auto found = call_counts_.find(&function);
  return found != call_counts_.end() && found->second.calls == 1 && !found->second.in_loop;
}

}  // namespace sealint::rules::sl009
