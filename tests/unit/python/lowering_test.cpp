#include <gtest/gtest.h>

#include <fmt/format.h>

#include "analyzer/ir/ir.h"
#include "analyzer/ir/walk.h"
#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

using ir::ExprKind;
using ir::StmtKind;
using testing::lower_python;

TEST(PythonGrammarTest, LoadsEveryNodeKindAndFieldTheLoweringUses) {
  auto grammar = python::PythonGrammar::load();
  ASSERT_TRUE(grammar.has_value()) << grammar.error();
}

TEST(LoweringTest, LowersAugmentedAssignmentWithItsOperator) {
  auto lowered = lower_python("total += loss\n");
  const auto& body = lowered.module->top_level().body;
  ASSERT_EQ(body.size(), 1U);
  EXPECT_EQ(body[0]->kind, StmtKind::AugAssign);
  EXPECT_EQ(body[0]->text, "+=");
  EXPECT_EQ(body[0]->targets[0]->text, "total");
  EXPECT_EQ(body[0]->value->text, "loss");
}

TEST(LoweringTest, FlattensChainedAssignmentIntoOneStatementWithTwoTargets) {
  auto lowered = lower_python("a = b = f(x)\n");
  const auto* stmt = lowered.module->top_level().body.at(0);
  EXPECT_EQ(stmt->kind, StmtKind::Assign);
  EXPECT_EQ(stmt->targets.size(), 2U);
  EXPECT_EQ(stmt->value->kind, ExprKind::Call);
}

TEST(LoweringTest, LowersForLoopTargetIterAndBody) {
  auto lowered = lower_python("for x, y in loader:\n    step(x)\nelse:\n    done()\n");
  const auto* loop = lowered.module->top_level().body.at(0);
  ASSERT_EQ(loop->kind, StmtKind::Loop);
  EXPECT_EQ(loop->loop_kind, ir::LoopKind::For);
  EXPECT_EQ(loop->targets.at(0)->kind, ExprKind::Collection);
  EXPECT_EQ(loop->value->text, "loader");
  EXPECT_EQ(loop->body.size(), 1U);
  EXPECT_EQ(loop->orelse.size(), 1U);
}

TEST(LoweringTest, ClassifiesNoGradWithThroughImportAlias) {
  auto lowered = lower_python("import torch as T\nwith T.no_grad():\n    pass\n");
  const auto* guard = lowered.module->top_level().body.at(1);
  ASSERT_EQ(guard->kind, StmtKind::Guard);
  EXPECT_EQ(guard->guard_kind, ir::GuardKind::NoGrad);
}

TEST(LoweringTest, ClassifiesSetGradEnabledFalseButNotTrue) {
  auto lowered = lower_python(
      "import torch\nwith torch.set_grad_enabled(False):\n    pass\nwith "
      "torch.set_grad_enabled(True):\n    pass\n");
  EXPECT_EQ(lowered.module->top_level().body.at(1)->guard_kind, ir::GuardKind::SetGradEnabledFalse);
  EXPECT_EQ(lowered.module->top_level().body.at(2)->guard_kind, ir::GuardKind::EnableGrad);
}

TEST(LoweringTest, RecordsImportAliasesAndTorch) {
  auto lowered = lower_python("import torch.nn as nn\nfrom torch.nn import functional as F\n");
  EXPECT_TRUE(lowered.module->imports_torch);
  EXPECT_EQ(lowered.module->resolve_import("nn"), "torch.nn");
  EXPECT_EQ(lowered.module->resolve_import("F"), "torch.nn.functional");
}

TEST(LoweringTest, DoesNotSeeTorchInAFileWithoutItsImport) {
  auto lowered = lower_python("import numpy as np\nmodel = 1\n");
  EXPECT_FALSE(lowered.module->imports_torch);
}

TEST(LoweringTest, GivesMethodsTheirClassAndDecorators) {
  auto lowered = lower_python(
      "class Net(nn.Module):\n    @torch.no_grad()\n    def forward(self, x):\n        return x\n");
  ASSERT_EQ(lowered.module->classes().size(), 1U);
  const ir::ClassDef& cls = lowered.module->classes().front();
  ASSERT_EQ(cls.methods.size(), 1U);
  EXPECT_EQ(cls.methods[0]->name, "forward");
  EXPECT_EQ(cls.methods[0]->parent_class, &cls);
  EXPECT_EQ(cls.methods[0]->decorators.size(), 1U);
  EXPECT_EQ(cls.methods[0]->params.size(), 2U);
}

TEST(LoweringTest, LowersCallKeywordsAndSplats) {
  auto lowered = lower_python("f(a, *b, key=c, **d)\n");
  const ir::Expr* call = lowered.module->top_level().body.at(0)->value;
  ASSERT_EQ(call->kind, ExprKind::Call);
  EXPECT_EQ(call->arg_count(), 2U);
  EXPECT_EQ(call->arg(1)->kind, ExprKind::Starred);
  ASSERT_EQ(call->keywords.size(), 2U);
  EXPECT_EQ(call->keywords[0].name, "key");
  EXPECT_TRUE(call->keywords[1].name.empty());
}

TEST(LoweringTest, LowersComprehensionWithItsGenerators) {
  auto lowered = lower_python("xs = [l.item() for l in losses if l]\n");
  const ir::Expr* comp = lowered.module->top_level().body.at(0)->value;
  ASSERT_EQ(comp->kind, ExprKind::Comprehension);
  ASSERT_EQ(comp->generators.size(), 1U);
  EXPECT_EQ(comp->generators[0].iter->text, "losses");
  EXPECT_EQ(comp->generators[0].conditions.size(), 1U);
}

TEST(LoweringTest, LowersTryHandlersWithTypesAndNames) {
  auto lowered = lower_python(
      "try:\n    a()\nexcept (RuntimeError, ValueError) as e:\n    b()\nfinally:\n    c()\n");
  const auto* stmt = lowered.module->top_level().body.at(0);
  ASSERT_EQ(stmt->kind, StmtKind::Try);
  ASSERT_EQ(stmt->handlers.size(), 1U);
  EXPECT_EQ(stmt->handlers[0].name, "e");
  EXPECT_FALSE(stmt->handlers[0].types.empty());
  EXPECT_EQ(stmt->finalbody.size(), 1U);
}

TEST(LoweringTest, ChainsElifAsNestedIf) {
  auto lowered = lower_python("if a:\n    x()\nelif b:\n    y()\nelse:\n    z()\n");
  const auto* stmt = lowered.module->top_level().body.at(0);
  ASSERT_EQ(stmt->orelse.size(), 1U);
  EXPECT_EQ(stmt->orelse[0]->kind, StmtKind::If);
  EXPECT_EQ(stmt->orelse[0]->orelse.size(), 1U);
}

TEST(LoweringTest, KeepsAnalysingAfterAStatementWithASyntaxError) {
  auto lowered = lower_python("x = (\ny = 1\ndef f():\n    return 2\n");
  ASSERT_FALSE(lowered.problems.empty());
  EXPECT_NE(lowered.problems[0].message.find("syntax error"), std::string::npos);
  EXPECT_EQ(lowered.problems[0].at->line, 1U);
}

TEST(LoweringTest, BoundsNestingAndReportsItOnce) {
  const std::string deep = "x = " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n";
  auto lowered = lower_python(deep);
  ASSERT_EQ(lowered.problems.size(), 1U);
  EXPECT_NE(lowered.problems[0].message.find("nested deeper"), std::string::npos);
}

TEST(LoweringTest, SurvivesTwoHundredThousandNestedParentheses) {
  const std::string deep =
      "x = " + std::string(200000, '(') + "1" + std::string(200000, ')') + "\n";
  auto lowered = lower_python(deep);
  EXPECT_FALSE(lowered.problems.empty());
}

TEST(LoweringTest, SurvivesAThreeHundredThousandTermExpression) {
  std::string code = "x = a";
  for (int i = 0; i < 300000; ++i) code += " + a";
  code += "\ny = 1\n";
  auto lowered = lower_python(code);
  EXPECT_EQ(lowered.module->top_level().body.size(), 2U);
}

TEST(LoweringTest, ReparsesAroundTheStarredListMisread) {
  auto lowered = lower_python("host, *rest = endpoint, *[]\ndef f():\n    return 1\n");
  EXPECT_TRUE(lowered.problems.empty());
  EXPECT_EQ(lowered.module->top_level().body.size(), 2U);
  EXPECT_EQ(lowered.module->top_level().body[1]->kind, StmtKind::FunctionDef);
}

}  // namespace
}  // namespace sealint

namespace sealint {
namespace {

TEST(LoweringTest, ReadsLoneCarriageReturnsAsLineEnds) {
  auto lowered = testing::lower_python("import torch\rx = 1\rdef f():\r    return x\r");
  EXPECT_TRUE(lowered.problems.empty());
  EXPECT_EQ(lowered.module->top_level().body.size(), 3U);
  EXPECT_EQ(lowered.module->file().line_text(2), "x = 1");
}

// Every function, statement and expression of the module with its kind and range, in order, and
// what the file-wide lists hold: two lowerings that print the same made the same IR.
std::string ir_outline(const ir::Module& module) {
  std::string out;
  auto range = [](ir::SourceRange r) { return fmt::format("{}-{}", r.begin, r.end); };
  for (const ir::Function& function : module.functions()) {
    out += fmt::format("def {} {} params {}\n", function.name, range(function.range),
                       function.params.size());
    ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
      out += fmt::format("  stmt {} {} {}\n", static_cast<int>(stmt.kind), range(stmt.range),
                         static_cast<int>(stmt.guard_kind));
      ir::for_each_expr(stmt, [&](const ir::Expr& expr) {
        out += fmt::format("    expr {} {} {}\n", static_cast<int>(expr.kind), range(expr.range),
                           expr.text);
      });
    });
  }
  for (const ir::ClassDef& cls : module.classes())
    out += fmt::format("class {} {} methods {}\n", cls.name, range(cls.range), cls.methods.size());
  for (const ir::SourceRange& comment : module.comments) out += "comment " + range(comment) + "\n";
  for (const ir::ImportAlias& alias : module.imports) out += "import " + alias.dotted + "\n";
  return out;
}

// Top-level statements of every kind, between comments, strings and brackets over lines.
constexpr std::string_view kManyStatements = R"(import torch
from torch import nn as n  # a comment
# a comment at the top level

@torch.no_grad()
def evaluate(model, loader):
    for x in loader:
        model(x)
    # a comment ending the body

class Net(nn.Module):
    def forward(self, x):
        return x
doc = """
def not_a_function():
"""
if doc:
    y = 1
elif y:
    y = 2
else:
    y = 3
try:
    z = f(
1, 2)
except ValueError as e:
    pass
finally:
    done = 1 + \
2
with torch.no_grad():
    w = model(z)
total = 0
for x in loader:
    total += model(x).sum()
)";

TEST(PieceLoweringTest, LowersAFileParsedInPiecesAsItLowersTheWholeFile) {
  const auto whole = lower_python(std::string(kManyStatements), "test.py", 1U << 20);
  const auto pieces = lower_python(std::string(kManyStatements), "test.py", 1);
  EXPECT_EQ(ir_outline(*pieces.module), ir_outline(*whole.module));
  EXPECT_EQ(pieces.module->top_level().range, whole.module->top_level().range);
  EXPECT_TRUE(pieces.problems.empty());
  EXPECT_GT(ir_outline(*whole.module).size(), 1000U);  // the outline does see the statements
}

TEST(PieceLoweringTest, ReportsASyntaxErrorInALaterPieceAsTheWholeFileParseDoes) {
  const std::string code = std::string(kManyStatements) + "def broken(:\n    pass\nlast = 1\n";
  const auto whole = lower_python(code, "test.py", 1U << 20);
  const auto pieces = lower_python(code, "test.py", 1);
  ASSERT_EQ(whole.problems.size(), 1U);
  ASSERT_EQ(pieces.problems.size(), 1U);
  EXPECT_EQ(pieces.problems[0].message, whole.problems[0].message);
  EXPECT_EQ(pieces.problems[0].at, whole.problems[0].at);
  EXPECT_EQ(ir_outline(*pieces.module), ir_outline(*whole.module));
}

}  // namespace
}  // namespace sealint
