#include "analyzer/ir/training_loops.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/containers.h"

namespace sealint::ir {

namespace {

// Any store, ambiguous ones included: the probe measures the place, so a guess costs nothing.
bool grows_container(const Expr& call) {
  return call.kind == ExprKind::Call && call.callee()->kind == ExprKind::Attr &&
         knowledge::container_store(call.callee()->text) != nullptr;
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
    for_each_expr(stmt, [&](const Expr& e) {
      if (grows_container(e)) add(place_key(e.callee()->base()));
    });
  });
  return keys;
}

}  // namespace

ProbeHint probe_hint(const SourceFile& file, const Stmt& loop, ProbeMeasure measure,
                     const std::vector<std::string>& keys) {
  ProbeHint hint;
  hint.measure = measure;
  hint.loop_line = file.position(loop.range.begin).line;
  hint.loop_end_line =
      file.position(loop.range.end > loop.range.begin ? loop.range.end - 1 : loop.range.begin).line;
  for (const std::string& key : keys) {
    std::string place = key.substr(0, key.find('['));
    if (!place.empty() &&
        std::find(hint.variables.begin(), hint.variables.end(), place) == hint.variables.end())
      hint.variables.push_back(std::move(place));
  }
  return hint;
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
