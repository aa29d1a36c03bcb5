#include "rules/SL007/report.h"

#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "rules/support/quote.h"

namespace sealint::rules::sl007 {

namespace {

using ir::Expr;
using ir::Stmt;
using ir::StmtKind;
using semantic::Built;
using semantic::Construction;

bool is_literal(const Expr* expr, std::string_view text) {
  return expr != nullptr && expr->kind == ir::ExprKind::Const && expr->text == text;
}

// Where the construction is written: the call, or in C++ the declaration that constructs in
// place, `torch::nn::Linear head(512, 10)` (the IR's call is `head(512, 10)`).
ir::SourceRange construction_range(const Stmt& stmt, const Expr& call) {
  const bool in_place = stmt.kind == StmtKind::Assign &&
                        stmt.declaration == ir::Declaration::Direct && stmt.value == &call &&
                        stmt.targets.size() == 1;
  return in_place ? stmt.range : call.range;
}

std::string cpp_constructor_text(const ir::Module& module, const Stmt& stmt, const Expr& call) {
  std::string text = quote_cpp_construction(module, construction_range(stmt, call));
  return text.empty() ? quote(module, call).text : text;
}

// `nn.Linear(512, 10)` as the message names it; `nn.Linear(...)` when the call is long. In
// C++ a declaration that constructs in place reads `torch::nn::Linear head(512, 10)`.
std::string constructor_text(const ir::Module& module, const Stmt& stmt, const Expr& call) {
  if (module.language() == ir::Language::Cpp) return cpp_constructor_text(module, stmt, call);
  return quote_call(module, call);
}

// `nn.Linear`, or LibTorch's `torch::nn::Linear`.
std::string constructor_name(const ir::Module& module, const Expr& call) {
  std::string callee = ir::dotted_name(call.callee());
  if (callee.empty()) return "the module";
  if (module.language() == ir::Language::Cpp) {
    for (size_t dot = callee.find('.'); dot != std::string::npos; dot = callee.find('.', dot))
      callee.replace(dot, 1, "::");
  }
  return fmt::format("`{}`", callee);
}

// What one construction allocates: a pretrained builder loads its weights as well.
std::string_view allocates(const Expr& call) {
  const Expr* pretrained = call.keyword("pretrained");
  const Expr* weights = call.keyword("weights");
  const bool loads = (pretrained != nullptr && !is_literal(pretrained, "False")) ||
                     (weights != nullptr && !is_literal(weights, "None"));
  return loads ? "allocates and loads a new copy of its parameters"
               : "allocates new parameters with fresh random weights";
}

}  // namespace

void report_in_loop(const ir::Module& module, const Stmt& loop, bool trains, const Stmt& stmt,
                    const Construction& c, DiagnosticSink& sink, const ir::Expr* call,
                    const ir::Function* helper) {
  const bool cpp = module.language() == ir::Language::Cpp;
  const std::string text = constructor_text(module, stmt, *c.call);
  std::vector<Related> related;
  if (call != nullptr && helper != nullptr)
    related.push_back(
        {call->range, fmt::format("`{}()` runs here, on every iteration", helper->name)});
  // A pass that takes no step (an evaluation) is a loop over batches, and only its graphs hold
  // the layers it built.
  const std::string_view loop_name = trains ? "training loop" : "loop over batches";
  related.push_back({ir::loop_header(loop), fmt::format("the {} that repeats it", loop_name)});
  if (c.built == Built::Optimizer) {
    sink.report(info(), construction_range(stmt, *c.call),
                fmt::format("`{}` is constructed on every iteration of the {}: each one allocates "
                            "new optimizer state and discards the state the previous one "
                            "accumulated",
                            text, loop_name),
                cpp ? "create the optimizer once before the loop; to change the learning "
                      "rate, set `lr` on the options of each of its `param_groups()`, or use a "
                      "scheduler (`torch::optim::StepLR`)"
                    : "create the optimizer once before the loop; to change the learning rate, "
                      "set `param_group[\"lr\"]` or use a scheduler",
                std::move(related));
    return;
  }
  sink.report(info(), construction_range(stmt, *c.call),
              fmt::format("`{}` is constructed on every iteration of the {}: each one {}, and the "
                          "previous ones stay alive while {} references them",
                          text, loop_name, allocates(*c.call),
                          trains ? "the optimizer or the graph" : "a graph"),
              fmt::format("construct {} once before the loop and reuse it",
                          constructor_name(module, *c.call)),
              std::move(related));
}

void report_in_method(const ir::Module& module, const ir::Function& function, const Stmt& stmt,
                      const Construction& c, DiagnosticSink& sink) {
  const bool cpp = module.language() == ir::Language::Cpp;
  const std::string text = constructor_text(module, stmt, *c.call);
  std::vector<Related> related = {
      {function.name_range, function.name == "forward"
                                ? std::string("`forward()` runs on every call of the module")
                                : fmt::format("`{}()` runs on every step", function.name)}};
  // `self.bn = nn.BatchNorm2d(64).to(x.device)` in forward(): name the attribute to move.
  std::string attr;
  if (stmt.kind == StmtKind::Assign && stmt.targets.size() == 1 && stmt.value != nullptr &&
      stmt.value->range.begin <= c.call->range.begin &&
      c.call->range.end <= stmt.value->range.end) {
    const std::string key = ir::place_key(stmt.targets[0]);
    // C++ names the member bare: `proj = register_module("proj", ...)`.
    if (key.starts_with("self.")) attr = cpp ? key.substr(5) : key;
  }
  const std::string_view what =
      c.built == Built::Parameter ? "makes a new parameter" : allocates(*c.call);
  const std::string message =
      attr.empty() ? fmt::format(
                         "`{}` is constructed in `{}()`: every call {} that the optimizer never "
                         "updates",
                         text, function.name, what)
                   : fmt::format(
                         "`{}` is rebuilt as `{}` in `{}()`: every call {} that the optimizer "
                         "never updates",
                         text, attr, function.name, what);
  std::string help;
  if (cpp) {
    help = attr.empty() ? fmt::format(
                              "construct {} once in the constructor, register it with "
                              "`register_module` and call it in `{}()`",
                              constructor_name(module, *c.call), function.name)
                        : fmt::format("move `{} = ...` to the constructor", attr);
  } else {
    help =
        attr.empty()
            ? fmt::format("construct {} once in `__init__`, store it on `self` and {} it in `{}()`",
                          constructor_name(module, *c.call),
                          c.built == Built::Parameter ? "use" : "call", function.name)
            : fmt::format("move `{} = ...` to `__init__`", attr);
  }
  sink.report(info(), construction_range(stmt, *c.call), message, help, std::move(related));
}

}  // namespace sealint::rules::sl007
