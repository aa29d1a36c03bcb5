#include "analyzer/semantic/training_loops.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "analyzer/ir/constant_folding.h"
#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/containers.h"
#include "analyzer/knowledge/data_loading.h"
#include "analyzer/semantic/model_runs.h"

namespace sealint::ir {

namespace {

// Any store, ambiguous ones included: the probe measures the place, so a guess costs nothing.
bool grows_container(const Expr& call) {
  return call.kind == ExprKind::Call && call.callee()->kind == ExprKind::Attr &&
         knowledge::container_store(call.callee()->text) != nullptr;
}

// `total = total + x`: an assignment whose value reads the place it rebinds.
bool accumulates(const Stmt& stmt) {
  if (stmt.kind != StmtKind::Assign || stmt.targets.size() != 1 || stmt.value == nullptr)
    return false;
  const std::string key = place_key(stmt.targets.front());
  if (key.empty()) return false;
  bool reads = false;
  for_each_subexpr(*stmt.value, [&](const Expr& e) { reads = reads || place_key(&e) == key; });
  return reads;
}

std::vector<std::string> carried_places(const Function& function, const Stmt& loop) {
  std::vector<std::string> keys;
  auto add = [&](std::string key) {
    if (key.empty() || std::find(keys.begin(), keys.end(), key) != keys.end()) return;
    if (defined_outside(function, loop, key) && !resets_in(loop.body, key)) keys.push_back(key);
  };
  for_each_nested(loop.body, [&](const Stmt& stmt) {
    if (stmt.kind == StmtKind::AugAssign && !stmt.targets.empty())
      add(place_key(stmt.targets.front()));
    if (accumulates(stmt)) add(place_key(stmt.targets.front()));
    for_each_expr(stmt, [&](const Expr& e) {
      if (grows_container(e)) add(place_key(e.callee()->base()));
    });
  });
  return keys;
}

uint32_t last_line(const SourceFile& file, const SourceRange& range) {
  return file.position(range.end > range.begin ? range.end - 1 : range.begin).line;
}

// A subscripted place is measured as its container.
std::vector<std::string> measured_places(const std::vector<std::string>& keys) {
  std::vector<std::string> places;
  for (const std::string& key : keys) {
    std::string place = key.substr(0, key.find('['));
    if (!place.empty() && std::find(places.begin(), places.end(), place) == places.end())
      places.push_back(std::move(place));
  }
  return places;
}

// How many iterations one pass of a `for` loop runs, as far as its iterable says: the length of
// a place (`loader`, `self.train_loader`, also through `enumerate(...)` or `tqdm(...)`), or the
// count `range(n)` is given.
void add_loop_length(const Module& module, const Stmt& loop, ProbeHint& hint) {
  const Expr* iterable = loop.loop_kind == LoopKind::For ? loop.value : nullptr;
  while (iterable != nullptr && iterable->kind == ExprKind::Call && iterable->arg_count() >= 1 &&
         knowledge::iterates_as_many_as_its_argument(qualified_name(module, iterable->callee())))
    iterable = iterable->arg(0);
  if (iterable == nullptr) return;
  if (iterable->kind == ExprKind::Call) {
    if (qualified_name(module, iterable->callee()) != "range" || iterable->arg_count() != 1) return;
    const Expr* count = iterable->arg(0);
    std::optional<FoldedInt> literal;
    if (count->kind == ExprKind::Const && count->const_kind == ConstKind::Int)
      literal = parse_int_literal(count->text);
    if (literal && !literal->huge && literal->value > 0) {
      hint.count = static_cast<uint64_t>(literal->value);
    } else if (std::string key = place_key(count);
               !key.empty() && key.find('[') == std::string::npos) {
      hint.count_of = std::move(key);
    }
    return;
  }
  if (std::string key = place_key(iterable); !key.empty() && key.find('[') == std::string::npos)
    hint.length_of = std::move(key);
}

// The statements of `body` whose range holds `inner`'s: a block's statements are in source order
// and do not overlap, so they sit together where the ends pass `inner`'s end.
std::vector<const Stmt*> holding(const std::vector<Stmt*>& body, const Stmt& inner) {
  std::vector<const Stmt*> out;
  auto it = std::partition_point(body.begin(), body.end(), [&](const Stmt* stmt) {
    return stmt->range.end < inner.range.end;
  });
  for (; it != body.end() && (*it)->range.begin <= inner.range.begin; ++it) {
    if ((*it)->range.end >= inner.range.end) out.push_back(*it);
  }
  return out;
}

// Follows `body` down to `loop` as for_each_nested walks it, entering only the statements whose
// range holds the loop's (what the whole walk visited per question made a script of N loops take
// N walks of the module). True when found; `enclosed` is set when one of the loops on the way
// holds it in a statement of its body, as block_contains asks.
bool reaches(const std::vector<Stmt*>& body, const Stmt& loop, bool& enclosed) {
  for (const Stmt* stmt : holding(body, loop)) {
    if (stmt == &loop) return true;
    switch (stmt->kind) {
      case StmtKind::Loop:
        if (reaches(stmt->body, loop, enclosed)) {
          enclosed = enclosed || block_contains(stmt->body, loop);
          return true;
        }
        if (reaches(stmt->orelse, loop, enclosed)) return true;
        break;
      case StmtKind::Guard:
      case StmtKind::If:
      case StmtKind::Other:
        if (reaches(stmt->body, loop, enclosed) || reaches(stmt->orelse, loop, enclosed))
          return true;
        break;
      case StmtKind::Try:
        if (reaches(stmt->body, loop, enclosed)) return true;
        for (const Handler& handler : stmt->handlers) {
          if (reaches(handler.body, loop, enclosed)) return true;
        }
        if (reaches(stmt->orelse, loop, enclosed) || reaches(stmt->finalbody, loop, enclosed))
          return true;
        break;
      default:  // a def or class body is its own function's; the rest hold no statements
        break;
    }
  }
  return false;
}

// Whether `loop` can run more than one pass: anywhere but at the script's top level outside
// any other loop's body (a function may be called again; an enclosing loop enters it again; a
// loop's `else` runs once).
bool loop_may_repeat(const Module& module, const Stmt& loop) {
  for (const Function& function : module.functions()) {
    if (function.name != "<module>") continue;
    bool enclosed = false;  // by identity: a `def` statement's range holds its function's loops
    return !reaches(function.body, loop, enclosed) || enclosed;
  }
  return true;
}

}  // namespace

ProbeHint probe_hint(const Module& module, const Stmt& loop, ProbeMeasure measure,
                     const std::vector<std::string>& keys) {
  const SourceFile& file = module.file();
  ProbeHint hint;
  hint.measure = measure;
  hint.loop_line = file.position(loop.range.begin).line;
  hint.loop_end_line = last_line(file, loop.range);
  hint.variables = measured_places(keys);
  if (module.language() == Language::Python) {
    add_loop_length(module, loop, hint);
    hint.loop_repeats = loop_may_repeat(module, loop);
  }
  return hint;
}

ProbeHint calls_probe_hint(const Module& module, const Function& function, ProbeMeasure measure,
                           const std::vector<std::string>& keys) {
  const SourceFile& file = module.file();
  ProbeHint hint;
  hint.measure = measure;
  hint.region = ProbeRegion::Calls;
  // The `def` line, which Python's own `FunctionDef.lineno` names; decorators sit above it.
  hint.loop_line = file.position(function.name_range.begin).line;
  hint.loop_end_line = last_line(file, function.range);
  hint.function = std::string(function.name);
  hint.variables = measured_places(keys);
  return hint;
}

std::vector<std::string> places_bound_to(const std::vector<Stmt*>& body, const Expr& call) {
  std::vector<std::string> names;
  for_each_nested(body, [&](const Stmt& stmt) {
    if (stmt.kind != StmtKind::Assign || stmt.value == nullptr ||
        stmt.value->range.begin > call.range.begin || stmt.value->range.end < call.range.end)
      return;
    for (const Expr* target : stmt.targets) {
      if (std::string key = place_key(target); !key.empty()) names.push_back(key);
    }
  });
  return names;
}

std::vector<TrainingLoop> training_loops(const Module& module, const FileAnalysis& analysis) {
  std::vector<TrainingLoop> out;
  for (const Function& function : module.functions()) {
    walk_statements(function, false, [&](const Stmt& stmt, const StmtContext&) {
      if (stmt.kind != StmtKind::Loop || !analysis.loop_trains(stmt)) return;
      bool nested_trains = false;
      for_each_nested(stmt.body, [&](const Stmt& inner) {
        nested_trains |= inner.kind == StmtKind::Loop && analysis.loop_trains(inner);
      });
      if (!nested_trains) out.push_back({&function, &stmt, carried_places(function, stmt)});
    });
  }
  return out;
}

}  // namespace sealint::ir

namespace sealint::ir {

std::vector<TrainingLoop> model_loops(const Module& module, const FileAnalysis& analysis) {
  semantic::ModelRuns runs(analysis);
  std::vector<TrainingLoop> out;
  for (const Function& function : module.functions()) {
    // A call in the loop that runs a model: directly, or through the file's function that makes
    // one once per call (`score(net, x, y)`).
    auto runs_model = [&](const Stmt& loop) {
      bool found = false;
      for (const Expr* call : calls_in(loop.body)) {
        found = found || semantic::is_model_call(analysis, *call) ||
                runs.helper_called(function, *call).function != nullptr;
      }
      return found;
    };
    std::vector<const Stmt*> loops;
    walk_statements(function, false, [&](const Stmt& stmt, const StmtContext&) {
      if (stmt.kind == StmtKind::Loop && runs_model(stmt)) loops.push_back(&stmt);
    });
    for (const Stmt* loop : loops) {
      bool trains = analysis.loop_trains(*loop);
      // The innermost loops only: an epoch loop around the pass adds nothing to its verdict.
      bool nested = false;
      for_each_nested(loop->body, [&](const Stmt& inner) {
        nested = nested || std::find(loops.begin(), loops.end(), &inner) != loops.end();
        trains = trains || (inner.kind == StmtKind::Loop && analysis.loop_trains(inner));
      });
      if (!nested && !trains)
        out.push_back({&function, loop, carried_places(function, *loop), false});
    }
  }
  return out;
}

}  // namespace sealint::ir
