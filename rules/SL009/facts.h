#pragma once
// SL009's facts about one file, shared by its four checks (session ops, Keras `predict`, Keras
// models, `tf.function`) and computed once per file: which places loops and functions bind,
// which loops run a TF1 session and what their bodies do, and which values are Keras models.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analyzer/core/rule_info.h"
#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::rules::sl009 {

// How deep a name is followed back to the value it was bound to, and how deep calls of the
// file's own functions are followed.
inline constexpr int kMaxValueDepth = 3;
inline constexpr int kMaxCallDepth = 3;

// What runs a session in a loop: the first `sess.run(...)` (or `.eval(feed_dict=...)`, or a
// call that is handed the session).
struct SessionUse {
  const ir::Expr* call = nullptr;
  const ir::Expr* session = nullptr;  // null for `x.eval(feed_dict=...)`
  const ir::Stmt* stmt = nullptr;     // the statement holding the call
};

// What a loop's body does, whatever the statement being checked.
struct LoopFacts {
  bool resets_graph = false;        // `tf.reset_default_graph()`, `tf.Graph()`, `clear_session()`
  bool clears_session = false;      // `clear_session()` or `tf.reset_default_graph()`
  bool creates_session = false;     // opens a session of its own (one model per fold or run)
  bool inner_session_loop = false;  // holds a nested loop that runs a session
  bool finalized_before = false;    // `graph.finalize()` before the loop: additions raise
};

class TfFacts {
 public:
  TfFacts(const ir::Module& module, const ir::FileAnalysis& analysis);

  const ir::Module& module() const { return module_; }
  const ir::FileAnalysis& analysis() const { return analysis_; }

  // ---- Bindings ----
  // Is `key` bound by the loop's targets or anywhere in its body (`ignore`, a statement of the
  // body, aside)?
  bool bound_in_loop(const ir::Stmt& loop, const std::string& key,
                     const ir::Stmt* ignore = nullptr);
  bool reads_name_bound_in_loop(const ir::Expr& expr, const ir::Stmt& loop);
  // Does any statement of `function` bind `key`?
  bool binds_anywhere(const ir::Function& function, std::string_view key);
  // The value `expr` (a name or `self.x`) had before the loop, when it is one plain assignment;
  // `expr` itself when it is a call.
  const ir::Expr* value_before(const ir::Function& function, const ir::Expr& expr,
                               const ir::Stmt& loop);
  // Where `key` may be bound: the function; the module for a name the function does not bind;
  // every method of the class for `self.x`.
  std::vector<const ir::Function*> binding_scopes(const ir::Function& function,
                                                  std::string_view key);

  // ---- Sessions ----
  // The first session use anywhere in the loop, or nullopt: the loop is not a session loop.
  const std::optional<SessionUse>& session_loop(const ir::Function& function, const ir::Stmt& loop);
  // Does a loop anywhere in `function` run a session?
  bool has_session_loop(const ir::Function& function);
  const LoopFacts& loop_facts(const ir::Function& function, const ir::Stmt& loop);
  // `sess.run(...)`, `x.eval(session=sess)`, `x.eval(feed_dict=...)`, `op.run(session=sess)`,
  // or a call handed the session (`train_epoch(sess, ...)`); nullopt for any other call.
  std::optional<SessionUse> session_use(const ir::Function& function, const ir::Expr& call);
  // Where the session a loop runs was created: `sess = tf.Session()` or `with tf.Session() as
  // sess:` before the loop in the function, at the module's top level, or in the class.
  const ir::Stmt* session_binding_stmt(const ir::Function& function, const ir::Stmt& use,
                                       const ir::Expr& session);

  // ---- Calls ----
  // The function is called exactly once in the file, outside any loop (a script's `evaluate(x)`
  // or `save_model(sess, step)` at the end): whatever it builds, it builds once.
  bool called_once_in_file(const ir::Function& function);

  // ---- Keras models ----
  // Is `expr` (evaluated just before `before` in `function`) a Keras model?
  bool keras_model(const ir::Function& function, const ir::Expr& expr, const ir::Stmt& before,
                   int depth);
  // The expression that builds the Keras model `call` returns: the call itself for
  // `keras.Sequential(...)` or a Keras subclass of the file, the model a file function returns
  // (`self._build_model()` doing `model = Sequential(); ...; return model`). Null otherwise.
  const ir::Expr* makes_keras_model(const ir::Function& function, const ir::Expr& call, int depth);
  // The first Keras model `function` builds (directly or through the file's functions), unless
  // it clears the session first.
  const ir::Expr* builds_keras_model(const ir::Function& function, int depth);
  // `keras.Sequential(...)`, or a call of the file's own `keras.Model` subclass.
  bool constructs_keras_model(const ir::Expr& call) const;

 private:
  enum class Tri { Unknown, No, Yes };

  const std::unordered_map<std::string, int>& loop_bindings(const ir::Stmt& loop);
  Tri session_binding(const ir::Function& function, const std::string& key);
  bool is_session_expr(const ir::Function& function, const ir::Expr& expr);
  const ir::Expr* first_model_built(const ir::Function& function, int depth);
  void collect_session_keys();
  void collect_compiled_models();

  const ir::Module& module_;
  const ir::FileAnalysis& analysis_;
  std::unordered_set<std::string> compiled_;
  std::unordered_set<std::string> session_keys_;
  std::unordered_set<std::string> placeholder_keys_;  // places bound to `tf.placeholder(...)`
  std::map<std::pair<const ir::Function*, std::string>, Tri> session_bindings_;
  std::unordered_map<const ir::Stmt*, std::optional<SessionUse>> session_loops_;
  std::unordered_map<const ir::Stmt*, LoopFacts> loop_facts_;
  std::unordered_map<const ir::Function*, const ir::Expr*> model_builders_;
  std::unordered_set<const ir::Function*> in_progress_;  // models being followed: recursion
  std::unordered_map<const ir::Stmt*, std::unordered_map<std::string, int>> loop_bindings_;
  std::unordered_map<const ir::Function*, std::unordered_set<std::string>> function_bindings_;
  struct CallCount {
    int calls = 0;
    bool in_loop = false;  // one of the calls is in a loop
  };
  bool calls_counted_ = false;
  std::unordered_map<const ir::Function*, CallCount> call_counts_;  // by callee, for the file
};

}  // namespace sealint::rules::sl009
