#pragma once
// TF1 session loops: what makes the graph grow in one loop, found by session_ops.cpp and
// reported by session_ops_report.cpp.
#include <cstddef>
#include <string>

#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/ir/ir.h"
#include "rules/SL009/facts.h"

namespace sealint::rules::sl009 {

// What makes the graph grow in one statement of a session loop.
// Assign: `var.assign(value)` on a TF variable, the method form of `tf.assign`.
enum class GrowthKind { Op, Operator, Minimize, GetNext, Helper, Assign };

struct Growth {
  GrowthKind kind = GrowthKind::Op;
  const ir::Expr* primary = nullptr;
  std::string operand;                     // Operator: the graph tensor
  const ir::Function* helper = nullptr;    // Helper: the file's function that builds ops
  const ir::Expr* helper_op = nullptr;     // Helper: the op it builds
  const ir::Function* function = nullptr;  // where the statement is
  const ir::Stmt* stmt = nullptr;
  size_t more = 0;  // further statements of the same loop that grow it
};

// Reports the first growth of `loop`'s body, naming the session it runs.
void report_growth(TfFacts& facts, const ir::Stmt& loop, const Growth& growth,
                   DiagnosticSink& sink);

}  // namespace sealint::rules::sl009
