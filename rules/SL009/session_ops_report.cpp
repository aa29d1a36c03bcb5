// The finding for a TF1 session loop whose body adds ops: what grows, where the loop runs the
// session, and where that session was created.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analyzer/ir/bindings.h"
#include "rules/SL009/checks.h"
#include "rules/SL009/session_ops.h"
#include "rules/support/quote.h"

namespace sealint::rules::sl009 {

namespace {

std::string growth_message(const Growth& growth, const std::string& text,
                           const std::string& where) {
  switch (growth.kind) {
    case GrowthKind::Op:
      return fmt::format(
          "`{}` adds new ops to the TensorFlow graph every time it runs in {}, so the graph keeps "
          "growing",
          text, where);
    case GrowthKind::Operator:
      return fmt::format(
          "`{}` adds a new op to the TensorFlow graph every time it runs in {}: `{}` is a graph "
          "tensor, so the graph keeps growing",
          text, where, growth.operand);
    case GrowthKind::Minimize:
      return fmt::format(
          "`{}` adds new gradient and update ops to the TensorFlow graph every time it runs in "
          "{}, so the graph keeps growing",
          text, where);
    case GrowthKind::GetNext:
      return fmt::format(
          "`{}` adds a new `IteratorGetNext` op to the TensorFlow graph every time it runs in {}, "
          "so the graph keeps growing",
          text, where);
    case GrowthKind::Assign:
      return fmt::format(
          "`{}` adds a new assign op, and a constant holding the value, to the TensorFlow graph "
          "every time it runs in {}, so the graph keeps growing",
          text, where);
    case GrowthKind::Helper:
      return fmt::format(
          "`{}` adds new ops to the TensorFlow graph on every call, and it is called in {}, so "
          "the graph keeps growing",
          text, where);
  }
  return {};
}

std::string growth_help(const Growth& growth, const std::string& text, bool rebuilds) {
  constexpr std::string_view kFinalize =
      "`tf.get_default_graph().finalize()` before the loop makes any op added inside it raise";
  if (rebuilds) {
    return fmt::format(
        "build the graph once before the loop, or call `tf.reset_default_graph()` at the start of "
        "each iteration; {}",
        kFinalize);
  }
  switch (growth.kind) {
    case GrowthKind::Operator:
      return fmt::format(
          "build `{}` once before the loop and run that tensor, or do the arithmetic on the "
          "values `run` returns; {}",
          text, kFinalize);
    case GrowthKind::Assign:
      return fmt::format(
          "build the assign op once before the loop from a `tf.placeholder` and run it with "
          "`feed_dict`, or set the value with `var.load(value, session)`, which adds no op; {}",
          kFinalize);
    case GrowthKind::GetNext:
      return fmt::format("call `get_next()` once before the loop and run the tensor it returns; {}",
                         kFinalize);
    case GrowthKind::Op:
    case GrowthKind::Minimize:
    case GrowthKind::Helper:
      break;
  }
  return fmt::format("build the op once before the loop and only run it inside; {}", kFinalize);
}

}  // namespace

void report_growth(TfFacts& facts, const ir::Stmt& loop, const Growth& growth,
                   DiagnosticSink& sink) {
  const ir::Module& module = facts.module();
  const ir::Function& function = *growth.function;
  const std::optional<SessionUse>& use = facts.session_loop(function, loop);
  const std::string runner =
      use && use->session != nullptr ? quote(module, *use->session).text : std::string();
  const std::string where = runner.empty()
                                ? std::string("the loop that evaluates tensors with `.eval()`")
                                : fmt::format("the loop that runs `{}`", runner);
  const ir::Stmt& stmt = *growth.stmt;
  const ByteRange primary = growth.primary != nullptr ? growth.primary->range : stmt.range;
  const std::string text = growth.primary != nullptr ? quote_call(module, *growth.primary)
                                                     : quote_range(module, stmt.range).text;
  std::string message = growth_message(growth, text, where);
  if (growth.more > 0) {
    message += growth.more == 1
                   ? std::string("; 1 more statement in this loop adds ops too")
                   : fmt::format("; {} more statements in this loop add ops too", growth.more);
  }
  std::string help = growth_help(growth, text, facts.loop_facts(function, loop).creates_session);
  std::vector<Related> related;
  if (growth.kind == GrowthKind::Helper && growth.helper_op != nullptr) {
    related.push_back(
        {growth.helper_op->range, fmt::format("`{}()` adds ops here", growth.helper->name)});
  }
  related.push_back({ir::loop_header(loop), where});
  if (use && use->session != nullptr) {
    if (const ir::Stmt* binding = facts.session_binding_stmt(function, *use->stmt, *use->session))
      related.push_back({ir::binding_range(*binding), fmt::format("`{}` is created here", runner)});
  }
  sink.report(info(), primary, std::move(message), std::move(help), std::move(related));
}

}  // namespace sealint::rules::sl009
